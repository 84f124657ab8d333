/**
 * The draw's random stream: every bit of it follows from the seed (and the beacon), so anyone
 * holding them recomputes the same picks.
 *
 * Inputs: `seed`, 32 bytes (published as 64 hex digits); `beacon`, the drand round's
 * randomness, 32 bytes, or nothing when the draw has no beacon.
 *
 * Block i (i = 0, 1, 2, …) is 32 bytes:
 *
 *     block(i) = SHA-256( seed ‖ beacon ‖ "charity-steps-draw" ‖ uint64be(i) )
 *
 * where ‖ joins bytes, `beacon` is 32 bytes or absent (0 bytes), "charity-steps-draw" is those 18
 * ASCII bytes, and uint64be(i) is i as 8 bytes, most significant first. The input is therefore 90
 * bytes with a beacon and 58 without.
 *
 * A uniform index in [0, n), 1 ≤ n ≤ 2^32, by rejection (no modulo bias): let k be the least
 * integer with 2^k ≥ n (k = 0 for n = 1). Take the next unused block, read its last 4 bytes
 * (bytes 28–31) as an unsigned 32-bit big-endian integer and keep its lowest k bits (the value
 * mod 2^k). If that is below n, it is the index; otherwise the block is spent and the next one is
 * tried. Every attempt spends exactly one block, so each try succeeds with probability
 * n / 2^k > 1/2, and every index in [0, n) is equally likely.
 */
import { HEX_32_BYTES_PATTERN } from "@charity-steps/shared-types";
import { fromHex, sha256, utf8 } from "./sha256.js";

export const DRAW_DOMAIN = "charity-steps-draw";
export const MAX_INDEX_RANGE = 2 ** 32;

const HEX_32 = new RegExp(HEX_32_BYTES_PATTERN);

function bytes32(hex: string, what: string): Uint8Array {
  if (!HEX_32.test(hex)) throw new Error(`${what} must be 64 lower-case hex digits (32 bytes), got "${hex}"`);
  return fromHex(hex, what);
}

function uint64be(value: number): Uint8Array {
  const bytes = new Uint8Array(8);
  new DataView(bytes.buffer).setBigUint64(0, BigInt(value));
  return bytes;
}

/** Bits needed to write n - 1: the least k with 2^k ≥ n. */
export function bitsFor(n: number): number {
  let k = 0;
  while (2 ** k < n) k++;
  return k;
}

export class DrawStream {
  private readonly prefix: Uint8Array;
  /** Blocks spent so far: the next block is block(blocksUsed). */
  blocksUsed = 0;

  /** `seed` and `beacon` are 64 lower-case hex digits each; `beacon` null or absent for none. */
  constructor(seed: string, beacon?: string | null) {
    const seedBytes = bytes32(seed, "the seed");
    const beaconBytes = beacon == null ? new Uint8Array(0) : bytes32(beacon, "the beacon randomness");
    const domain = utf8(DRAW_DOMAIN);
    this.prefix = new Uint8Array(seedBytes.length + beaconBytes.length + domain.length);
    this.prefix.set(seedBytes, 0);
    this.prefix.set(beaconBytes, seedBytes.length);
    this.prefix.set(domain, seedBytes.length + beaconBytes.length);
  }

  /** block(i) as defined above, without spending it. */
  block(i: number): Uint8Array {
    return sha256(this.prefix, uint64be(i));
  }

  nextBlock(): Uint8Array {
    const block = this.block(this.blocksUsed);
    this.blocksUsed++;
    return block;
  }

  /** A uniform integer in [0, n), spending one block per attempt. */
  uniformIndex(n: number): number {
    if (!Number.isInteger(n) || n < 1 || n > MAX_INDEX_RANGE) {
      throw new RangeError(`uniformIndex needs a whole number from 1 to 2^32, got ${n}`);
    }
    const range = 2 ** bitsFor(n);
    for (;;) {
      const block = this.nextBlock();
      const value = new DataView(block.buffer, block.byteOffset, block.byteLength).getUint32(28) % range;
      if (value < n) return value;
    }
  }
}
