import { describe, expect, it } from "vitest";
import { dailyGoalPercent } from "../../src/lib/step-progress";

describe("how far the walker's steps have come", () => {
  it("shows today's share of the 10,000 daily goal, at most 100%", () => {
    expect(dailyGoalPercent(0, 10_000)).toBe(0);
    expect(dailyGoalPercent(2_549, 10_000)).toBe(25);
    expect(dailyGoalPercent(45_000, 10_000)).toBe(100);
  });
});
