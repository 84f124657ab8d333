import { describe, expect, it } from "vitest";
import { dayTotal, isHealthSource, stepDateOutOfRange } from "../src/steps.js";

describe("a day's total", () => {
  it.each([
    [{ motion: 4_000, health: 0, manual: 0 }, 4_000],
    [{ motion: 4_000, health: 6_000, manual: 0 }, 6_000],
    [{ motion: 7_000, health: 6_000, manual: 1_500 }, 8_500],
    [{ motion: 45_000, health: 0, manual: 10_000 }, 50_000],
    [{ motion: 0, health: 0, manual: 0 }, 0],
  ])("%o counts %i steps", (parts, total) => {
    expect(dayTotal(parts)).toBe(total);
  });

  it("tells health sources from motion counting", () => {
    expect(isHealthSource("apple_health")).toBe(true);
    expect(isHealthSource("google_fit")).toBe(true);
    expect(isHealthSource("device_motion")).toBe(false);
  });
});

describe("which days take steps", () => {
  it("takes today back to 30 days ago", () => {
    expect(stepDateOutOfRange("2026-11-21", "2026-11-21")).toBeNull();
    expect(stepDateOutOfRange("2026-10-22", "2026-11-21")).toBeNull();
  });

  it("says why it refuses tomorrow and the 31st day back", () => {
    expect(stepDateOutOfRange("2026-11-22", "2026-11-21")).toBe(
      "Sun, 22 Nov 2026 is in the future: steps can only be added for today or earlier.",
    );
    expect(stepDateOutOfRange("2026-10-21", "2026-11-21")).toBe(
      "Wed, 21 Oct 2026 is more than 30 days ago: steps can only be added for the last 30 days.",
    );
  });
});
