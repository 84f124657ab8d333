import { describe, expect, it } from "vitest";
import { monthlyProgressText, prizeEntriesText } from "../../../src/features/dashboard/step-numbers";

describe("the dashboard's wordings", () => {
  it.each([
    [0, "100,000 steps remaining"],
    [25_500, "74,500 steps remaining"],
    [100_000, "Goal Achieved!"],
    [123_456, "Goal Achieved!"],
  ])("monthly progress at %i steps: %s", (steps, text) => {
    expect(monthlyProgressText(steps)).toBe(text);
  });

  it.each([
    [0, "Need 10,000 more steps for first entry"],
    [9_999, "Need 1 more steps for first entry"],
    [10_000, "10,000 steps until next entry"],
    [25_500, "4,500 steps until next entry"],
  ])("prize entries at %i steps: %s", (steps, text) => {
    expect(prizeEntriesText(steps)).toBe(text);
  });
});
