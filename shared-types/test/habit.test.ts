import { describe, expect, it } from "vitest";
import { charityImpactText } from "../src/charity-api.js";
import {
  goalOn,
  hadAccountInWeek,
  isDailyGoal,
  isMonday,
  mondayOf,
  streakOf,
  weekChangeText,
} from "../src/habit.js";

describe("goals and streaks", () => {
  const goals = [
    { from: "2026-11-10", goal: 8_000 },
    { from: "2026-11-20", goal: 12_000 },
  ];

  it("takes each day's goal from the latest set on or before it, 10,000 before any", () => {
    expect(goalOn(goals, "2026-11-09")).toBe(10_000);
    expect(goalOn(goals, "2026-11-10")).toBe(8_000);
    expect(goalOn(goals, "2026-11-19")).toBe(8_000);
    expect(goalOn(goals, "2026-11-25")).toBe(12_000);
  });

  it("holds a goal to whole steps of 500 from 2,000 to 30,000", () => {
    expect([2_000, 8_500, 30_000].every(isDailyGoal)).toBe(true);
    expect([1_500, 8_250, 30_500, 8_000.5, Number.NaN].some(isDailyGoal)).toBe(false);
    expect(isDailyGoal("8000")).toBe(false);
  });

  it("counts yesterday's run until today is on goal, and the longest run ever", () => {
    const days = new Map([
      ["2026-11-08", 10_000],
      ["2026-11-09", 10_000],
      ["2026-11-10", 8_000],
      ["2026-11-11", 9_000],
      // The 12th: nothing.
      ["2026-11-13", 8_000],
      ["2026-11-19", 8_000],
      ["2026-11-20", 12_000],
      ["2026-11-21", 11_999],
    ]);
    expect(streakOf(days, goals, "2026-11-21")).toEqual({ current: 2, best: 4, todayOnGoal: false });
    expect(streakOf(days, goals, "2026-11-22")).toEqual({ current: 0, best: 4, todayOnGoal: false });
    const reached = new Map([...days, ["2026-11-21", 12_000]]);
    expect(streakOf(reached, goals, "2026-11-21")).toEqual({ current: 3, best: 4, todayOnGoal: true });
  });
});

describe("a charity's impact in words", () => {
  it("names walkers and steps, in millions from a million", () => {
    expect(charityImpactText({ charityName: "Cancer Research UK", walkers: 1_204, steps: 38_250_000 })).toBe(
      "1,204 walkers, 38.2 million steps for Cancer Research UK this month",
    );
    expect(charityImpactText({ charityName: "British Heart Foundation", walkers: 1, steps: 1 })).toBe(
      "1 walker, 1 step for British Heart Foundation this month",
    );
  });
});

describe("weeks", () => {
  it("starts a week on Monday, whatever the day of it", () => {
    expect(isMonday("2026-11-23")).toBe(true);
    expect(isMonday("2026-11-29")).toBe(false);
    expect(mondayOf("2026-11-29")).toBe("2026-11-23");
    expect(mondayOf("2026-11-23")).toBe("2026-11-23");
    expect(mondayOf("2026-03-29")).toBe("2026-03-23");
  });

  it("says a week without steps after one with steps as a person would", () => {
    expect(weekChangeText(0, 30_000)).toBe("No steps that week, after 30,000 steps the week before");
    // The other weeks' words stay as they were.
    expect(weekChangeText(15_000, 30_000)).toBe("50% fewer steps than the week before");
    expect(weekChangeText(30_000, 30_000)).toBe("As many steps as the week before");
    expect(weekChangeText(0, 0)).toBe("No steps the week before either");
    expect(weekChangeText(5_000, 0)).toBe("Your first week of steps with us");
    // A few steps after many are still some: never "100% fewer".
    expect(weekChangeText(4, 1_000)).toBe("99% fewer steps than the week before");
    expect(weekChangeText(1, 1)).toBe("As many steps as the week before");
    expect(weekChangeText(0, 1)).toBe("No steps that week, after 1 step the week before");
  });

  it("is a walker's week from the day their account began (London), to the week's last moment", () => {
    // The week of Monday 16 November 2026 (GMT) ends at midnight London on Sunday 22nd.
    const created = (iso: string) => hadAccountInWeek(Date.parse(iso), "2026-11-16");
    expect(created("2026-11-01T12:00:00Z")).toBe(true);
    expect(created("2026-11-22T23:59:59Z")).toBe(true);
    expect(created("2026-11-23T00:00:00Z")).toBe(false);
    expect(created("2026-11-25T12:00:00Z")).toBe(false);
    // In summer London's Monday begins at 23:00 UTC on the Sunday.
    const summer = (iso: string) => hadAccountInWeek(Date.parse(iso), "2026-06-22");
    expect(summer("2026-06-28T22:59:59Z")).toBe(true);
    expect(summer("2026-06-28T23:00:00Z")).toBe(false);
  });
});
