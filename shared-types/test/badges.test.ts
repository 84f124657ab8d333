import { describe, expect, it } from "vitest";
import { BADGES, type BadgeFacts, badgesShown, charityBadgeId, reaches } from "../src/badges.js";

const nothing: BadgeFacts = {
  bestDaySteps: 0,
  bestStreak: 0,
  bestMonthSteps: 0,
  lifetimeSteps: 0,
  hasPrizeEntry: false,
  inGroup: false,
  charityName: null,
  recentMonthSteps: 0,
};
const reached = (facts: Partial<BadgeFacts>) =>
  BADGES.filter((badge) => reaches(badge.rule, { ...nothing, ...facts })).map((badge) => badge.name);

describe("badges", () => {
  it("has unique ids, and a charity's id from its name", () => {
    expect(new Set(BADGES.map((badge) => badge.id)).size).toBe(BADGES.length);
    expect(charityBadgeId("Crohn's & Colitis UK")).toBe("walked-for-crohn-s-colitis-uk");
  });

  it("reaches each badge at its threshold, not a step before", () => {
    expect(reached({})).toEqual([]);
    expect(
      reached({ bestDaySteps: 9_999, bestStreak: 2, bestMonthSteps: 99_999, lifetimeSteps: 999_999 }),
    ).toEqual([]);
    expect(reached({ bestDaySteps: 10_000, bestStreak: 7 })).toEqual([
      "First 10,000-step day",
      "3-day streak",
      "7-day streak",
    ]);
    expect(
      reached({ bestMonthSteps: 100_000, lifetimeSteps: 1_000_000, hasPrizeEntry: true, inGroup: true }),
    ).toEqual(["100,000 steps in a month", "1,000,000 steps", "First prize entry", "Joined a group"]);
  });

  it("gives the charity badge only for a recent month walked while supporting it", () => {
    expect(reached({ charityName: "Cancer Research UK", bestMonthSteps: 150_000 })).not.toContain(
      "Walked for Cancer Research UK",
    );
    expect(reached({ charityName: "Cancer Research UK", recentMonthSteps: 100_000 })).toEqual([
      "Walked for Cancer Research UK",
    ]);
  });

  it("shows the charity supported now, and any other earned before", () => {
    const names = (charity: Parameters<typeof badgesShown>[0], earned: [string, number][]) =>
      badgesShown(charity, new Map(earned))
        .map((badge) => badge.name)
        .filter((name) => name.startsWith("Walked for"));
    expect(names(null, [])).toEqual([]);
    expect(names("British Heart Foundation", [])).toEqual(["Walked for British Heart Foundation"]);
    expect(names("British Heart Foundation", [["walked-for-cancer-research-uk", 1]])).toEqual([
      "Walked for Cancer Research UK",
      "Walked for British Heart Foundation",
    ]);
  });
});
