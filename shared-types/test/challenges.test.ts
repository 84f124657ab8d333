import { describe, expect, it } from "vitest";
import {
  type ChallengeItem,
  challengePace,
  challengeProgress,
  FUNDRAISING_HOSTS,
  isFundraisingUrl,
} from "../src/challenges.js";

const item = (overrides: Partial<ChallengeItem>): ChallengeItem => ({
  id: "c",
  name: "Ten days",
  description: "",
  charityName: null,
  kind: "total_steps",
  target: 100_000,
  dailyTarget: null,
  startsOn: "2026-11-21",
  endsOn: "2026-11-30",
  scope: "public",
  groupId: null,
  joined: true,
  progress: challengeProgress(0, 100_000),
  completedAt: null,
  ...overrides,
});

describe("a challenge's progress and pace", () => {
  it("rounds percent down and caps it at 100", () => {
    expect(challengeProgress(999, 1_000)).toEqual({ value: 999, target: 1_000, percent: 99 });
    expect(challengeProgress(2_500, 1_000).percent).toBe(100);
    expect(challengeProgress(0, 7).percent).toBe(0);
  });

  it("is on track at an even pace to the end of today, and says the steps a day that would finish it otherwise", () => {
    // The third of ten days: 30,000 by tonight is on track; 20,000 needs 80,000 over 8 days.
    expect(challengePace(item({ progress: challengeProgress(30_000, 100_000) }), "2026-11-23")).toEqual({
      daysLeft: 8,
      onTrack: true,
      stepsPerDay: 8_750,
    });
    expect(challengePace(item({ progress: challengeProgress(20_000, 100_000) }), "2026-11-23")).toEqual({
      daysLeft: 8,
      onTrack: false,
      stepsPerDay: 10_000,
    });
    // The last day, and after it.
    expect(challengePace(item({}), "2026-11-30")).toMatchObject({ daysLeft: 1, stepsPerDay: 100_000 });
    expect(challengePace(item({}), "2026-12-01")).toMatchObject({
      daysLeft: 0,
      onTrack: false,
      stepsPerDay: 0,
    });
    // Before it starts, every day is left.
    expect(challengePace(item({}), "2026-11-01").daysLeft).toBe(10);
  });

  it("counts days for a daily target: on track while the days left can still make it", () => {
    const daily = item({
      kind: "daily_target",
      dailyTarget: 8_000,
      target: 7,
      progress: challengeProgress(2, 7),
    });
    expect(challengePace(daily, "2026-11-25")).toEqual({ daysLeft: 6, onTrack: true, stepsPerDay: 8_000 });
    expect(challengePace(daily, "2026-11-27")).toEqual({ daysLeft: 4, onTrack: false, stepsPerDay: 8_000 });
  });
});

describe("fundraising pages", () => {
  it("takes https addresses on the listed sites and their subdomains, and nothing else", () => {
    for (const host of FUNDRAISING_HOSTS) {
      expect(isFundraisingUrl(`https://${host}/page`), host).toBe(true);
      expect(isFundraisingUrl(`https://www.${host}/page`), host).toBe(true);
      expect(isFundraisingUrl(`http://${host}/page`), host).toBe(false);
      expect(isFundraisingUrl(`https://${host}.example.org/page`), host).toBe(false);
      expect(isFundraisingUrl(`https://not${host}/page`), host).toBe(false);
    }
    expect(isFundraisingUrl("https://someone@justgiving.com/page")).toBe(false);
    expect(isFundraisingUrl("https://justgiving.com:444/page")).toBe(false);
    expect(isFundraisingUrl("javascript:alert(1)")).toBe(false);
    expect(isFundraisingUrl("")).toBe(false);
  });
});
