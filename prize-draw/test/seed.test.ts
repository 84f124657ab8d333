import { createHash } from "node:crypto";
import { describe, expect, it } from "vitest";
import { newDrawSeed, seedCommitment } from "../src/seed.js";
import { SEED } from "./fixtures.js";

describe("the seed and its commitment", () => {
  it("commits to the seed's 32 bytes, not its hex text", () => {
    expect(seedCommitment(SEED)).toBe(createHash("sha256").update(Buffer.from(SEED, "hex")).digest("hex"));
    expect(seedCommitment(SEED)).not.toBe(createHash("sha256").update(SEED).digest("hex"));
    // Pinned, so that what is committed to cannot change silently.
    expect(seedCommitment(SEED)).toBe("4773d12e2371bb935b9a0f5439b4a1c3ad3f2414b86980f8418d1cfabdfadfef");
  });

  it("refuses a seed that is not 64 lower-case hex digits", () => {
    for (const bad of ["", SEED.slice(1), SEED.toUpperCase(), `${SEED}00`]) {
      expect(() => seedCommitment(bad)).toThrow(/the seed must be 64 lower-case hex digits/);
    }
  });

  it("makes a new 32-byte seed every time", () => {
    const seeds = new Set(Array.from({ length: 100 }, newDrawSeed));
    expect(seeds.size).toBe(100);
    for (const seed of seeds) expect(seed).toMatch(/^[0-9a-f]{64}$/);
  });
});
