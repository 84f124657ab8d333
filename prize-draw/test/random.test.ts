import { describe, expect, it } from "vitest";
import { bitsFor, DrawStream } from "../src/random.js";
import { sha256Hex } from "../src/sha256.js";
import { BEACON, SEED } from "./fixtures.js";

const hex = (bytes: Uint8Array) => Buffer.from(bytes).toString("hex");
const last32 = (block: Uint8Array) => Buffer.from(block).readUInt32BE(28);

/** The 99.9% point of the chi-square distribution with 49 degrees of freedom. */
const CHI_SQUARE_49_999 = 85.351;

function chiSquare(counts: number[], total: number): number {
  const expected = total / counts.length;
  return counts.reduce((sum, count) => sum + (count - expected) ** 2 / expected, 0);
}

describe("the draw's random stream", () => {
  it("is SHA-256(seed ‖ beacon ‖ 'charity-steps-draw' ‖ uint64be(i)) (golden blocks)", () => {
    // These vectors pin the published algorithm: a change to them is a change to every past draw.
    const stream = new DrawStream(SEED);
    expect(hex(stream.block(0))).toBe("2bf488fcf134e37264f731cbf462a4ea984eefbc05c05c99ad4028e9f2b673e5");
    expect(hex(stream.block(1))).toBe("203dfc782ca4733e06bf5c57226d9f15ecd225a198a4cb3300527ccecb10abee");
    expect(hex(new DrawStream(SEED, BEACON.randomness).block(0))).toBe(
      "e24d008419ea13eca6b7652d7e9201de2d1313cbcff26696a1d699e2552bcc71",
    );
    const input = Buffer.concat([
      Buffer.from(SEED, "hex"),
      Buffer.from("charity-steps-draw", "ascii"),
      Buffer.from([0, 0, 0, 0, 0, 0, 0, 1]),
    ]);
    expect(input).toHaveLength(58);
    expect(hex(stream.block(1))).toBe(sha256Hex(input));
  });

  it("gives the same indices from the same seed (golden indices)", () => {
    const stream = new DrawStream(SEED);
    expect(Array.from({ length: 10 }, () => stream.uniformIndex(1000))).toEqual([
      997, 374, 678, 337, 178, 45, 566, 950, 842, 67,
    ]);
    // 1000 needs 10 bits (1024): one of these eleven blocks fell in 1000..1023 and was spent.
    expect(stream.blocksUsed).toBe(11);
  });

  it("refuses a seed or beacon that is not 32 bytes of lower-case hex", () => {
    expect(() => new DrawStream(SEED.slice(2))).toThrow(/the seed must be 64 lower-case hex digits/);
    expect(() => new DrawStream(SEED.toUpperCase())).toThrow(/the seed/);
    expect(() => new DrawStream(SEED, "abcd")).toThrow(/the beacon randomness/);
  });

  it("counts the bits of n - 1", () => {
    expect([1, 2, 3, 4, 5, 8, 9, 1000, 2 ** 31, 2 ** 31 + 1, 2 ** 32].map(bitsFor)).toEqual([
      0, 1, 2, 2, 3, 3, 4, 10, 31, 32, 32,
    ]);
  });

  it("n = 1: always 0, one block per pick", () => {
    const stream = new DrawStream(SEED);
    for (let i = 0; i < 20; i++) expect(stream.uniformIndex(1)).toBe(0);
    expect(stream.blocksUsed).toBe(20);
  });

  it("n = 2^k: never rejects, the block's lowest k bits", () => {
    for (const k of [1, 3, 16, 32]) {
      const stream = new DrawStream(SEED);
      for (let i = 0; i < 50; i++) {
        expect(stream.uniformIndex(2 ** k)).toBe(last32(stream.block(i)) % 2 ** k);
      }
      expect(stream.blocksUsed).toBe(50);
    }
  });

  it("n just above a power of two: rejects values n..2^k-1 and takes the next block", () => {
    for (const n of [3, 5, 17, 2 ** 20 + 1]) {
      const range = 2 ** bitsFor(n);
      const stream = new DrawStream(SEED);
      const reference = new DrawStream(SEED);
      let block = 0;
      let rejected = 0;
      for (let pick = 0; pick < 400; pick++) {
        let expected = last32(reference.block(block++)) % range;
        while (expected >= n) {
          rejected++;
          expected = last32(reference.block(block++)) % range;
        }
        const got = stream.uniformIndex(n);
        expect(got).toBe(expected);
        expect(stream.blocksUsed).toBe(block);
      }
      // About (range - n) / range of the tries are rejected: near half for 2^k + 1.
      expect(rejected).toBeGreaterThan(0);
      if (n > 3) expect(rejected / (400 + rejected)).toBeGreaterThan(0.3);
    }
  });

  it("refuses n outside 1..2^32", () => {
    const stream = new DrawStream(SEED);
    for (const n of [0, -1, 1.5, 2 ** 32 + 1, Number.NaN])
      expect(() => stream.uniformIndex(n)).toThrow(RangeError);
    expect(stream.uniformIndex(2 ** 32)).toBeLessThan(2 ** 32);
  });

  it("favours no ticket: one pick over 50 tickets from 20,000 seeds passes chi-square at 99.9%", () => {
    const counts = new Array<number>(50).fill(0);
    const draws = 20_000;
    for (let i = 0; i < draws; i++) {
      const seed = sha256Hex(Buffer.from(`chi-square seed ${i}`));
      const index = new DrawStream(seed).uniformIndex(50);
      counts[index] = (counts[index] ?? 0) + 1;
    }
    expect(counts.reduce((a, b) => a + b, 0)).toBe(draws);
    expect(chiSquare(counts, draws)).toBeLessThan(CHI_SQUARE_49_999);
  });

  it("favours no ticket along one sequence: 20,000 picks over 50 tickets pass chi-square at 99.9%", () => {
    const counts = new Array<number>(50).fill(0);
    const stream = new DrawStream(SEED, BEACON.randomness);
    for (let i = 0; i < 20_000; i++) {
      const index = stream.uniformIndex(50);
      counts[index] = (counts[index] ?? 0) + 1;
    }
    expect(chiSquare(counts, 20_000)).toBeLessThan(CHI_SQUARE_49_999);
  });

  it("a biased picker (modulo of the 32-bit value over a range that does not divide it) fails the same test", () => {
    // Shows the test can fail: n = 3 * 2^29 makes the modulo favour the first third of the tickets.
    const n = 3 * 2 ** 29;
    const counts = new Array<number>(50).fill(0);
    const stream = new DrawStream(SEED);
    for (let i = 0; i < 20_000; i++) {
      const index = Math.floor(((last32(stream.nextBlock()) % n) / n) * 50);
      counts[index] = (counts[index] ?? 0) + 1;
    }
    expect(chiSquare(counts, 20_000)).toBeGreaterThan(CHI_SQUARE_49_999);
  });
});
