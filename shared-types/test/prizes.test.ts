import { describe, expect, it } from "vitest";
import { prizeEntries, stepsToNextEntry } from "../src/prizes.js";

describe("prize entries", () => {
  it.each([
    [0, 0, 10_000],
    [9_999, 0, 1],
    [10_000, 1, 10_000],
    [25_500, 2, 4_500],
    [100_000, 10, 10_000],
  ])("%i steps this month give %i entries, %i steps to the next", (steps, entries, toNext) => {
    expect(prizeEntries(steps)).toBe(entries);
    expect(stepsToNextEntry(steps)).toBe(toNext);
  });
});
