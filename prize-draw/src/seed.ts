/**
 * The month's secret seed and its public commitment. The server makes the seed when the month
 * begins and publishes only the commitment; revealing the seed at the draw lets anyone check that
 * it is the one committed to before any ticket existed.
 */
import { randomBytes } from "node:crypto";
import { HEX_32_BYTES_PATTERN } from "@charity-steps/shared-types";
import { fromHex, sha256Hex } from "./sha256.js";

const HEX_32 = new RegExp(HEX_32_BYTES_PATTERN);

/** 32 bytes from the operating system's secure random source, as 64 lower-case hex digits. */
export function newDrawSeed(): string {
  return randomBytes(32).toString("hex");
}

/** SHA-256 of the seed's 32 bytes (not of its hex text), as 64 lower-case hex digits. */
export function seedCommitment(seed: string): string {
  if (!HEX_32.test(seed))
    throw new Error(`the seed must be 64 lower-case hex digits (32 bytes), got "${seed}"`);
  return sha256Hex(fromHex(seed, "the seed"));
}
