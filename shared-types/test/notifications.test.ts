import { describe, expect, it } from "vitest";
import { londonClock, londonTimeOn, nextLondonTime } from "../src/dates.js";
import {
  clockMinutes,
  defaultNotificationPreferences,
  EMAIL_BY_DEFAULT_KINDS,
  inQuietHours,
  NOTIFICATION_KINDS,
} from "../src/notifications.js";

describe("quiet hours", () => {
  const overnight = { start: "21:00", end: "08:00" };
  it.each([
    ["20:59", false],
    ["21:00", true],
    ["23:30", true],
    ["00:00", true],
    ["07:59", true],
    ["08:00", false],
    ["12:00", false],
  ])("21:00–08:00 holds a push at %s: %s", (time, quiet) => {
    expect(inQuietHours(clockMinutes(time), overnight)).toBe(quiet);
  });

  it("holds pushes within the day when the start comes before the end, and none when they are equal", () => {
    const afternoon = { start: "13:00", end: "15:30" };
    expect(inQuietHours(clockMinutes("12:59"), afternoon)).toBe(false);
    expect(inQuietHours(clockMinutes("13:00"), afternoon)).toBe(true);
    expect(inQuietHours(clockMinutes("15:30"), afternoon)).toBe(false);
    for (const time of ["00:00", "22:00", "22:01"]) {
      expect(inQuietHours(clockMinutes(time), { start: "22:00", end: "22:00" })).toBe(false);
    }
  });
});

describe("London clock times", () => {
  it("finds the instant London's clocks read a time, in winter and in summer", () => {
    expect(new Date(londonTimeOn("2026-11-22", "08:00")).toISOString()).toBe("2026-11-22T08:00:00.000Z");
    expect(new Date(londonTimeOn("2026-07-01", "08:00")).toISOString()).toBe("2026-07-01T07:00:00.000Z");
  });

  it("takes a time the spring change skips an hour later, and the first of the autumn's two", () => {
    // 29 March 2026: 01:00 GMT becomes 02:00 BST, so 01:30 never shows.
    expect(new Date(londonTimeOn("2026-03-29", "01:30")).toISOString()).toBe("2026-03-29T01:30:00.000Z");
    expect(londonClock(londonTimeOn("2026-03-29", "01:30"))).toBe("02:30");
    // 25 October 2026: 02:00 BST becomes 01:00 GMT, so 01:30 shows twice; the first is 00:30 UTC.
    expect(new Date(londonTimeOn("2026-10-25", "01:30")).toISOString()).toBe("2026-10-25T00:30:00.000Z");
  });

  it("answers the next such instant: later today, or tomorrow once it has passed", () => {
    const evening = Date.parse("2026-11-21T22:30:00Z");
    expect(new Date(nextLondonTime(evening, "08:00")).toISOString()).toBe("2026-11-22T08:00:00.000Z");
    const early = Date.parse("2026-11-21T06:00:00Z");
    expect(new Date(nextLondonTime(early, "08:00")).toISOString()).toBe("2026-11-21T08:00:00.000Z");
    // The morning after the clocks go back, in London's time.
    const night = Date.parse("2026-10-24T22:30:00Z");
    expect(new Date(nextLondonTime(night, "08:00")).toISOString()).toBe("2026-10-25T08:00:00.000Z");
  });
});

describe("default notification preferences", () => {
  it("list every kind, push on for all, email on for the four that matter most", () => {
    const preferences = defaultNotificationPreferences();
    expect(Object.keys(preferences.kinds)).toEqual([...NOTIFICATION_KINDS]);
    for (const kind of NOTIFICATION_KINDS) {
      expect(preferences.kinds[kind]).toEqual({ push: true, email: EMAIL_BY_DEFAULT_KINDS.includes(kind) });
    }
    expect(preferences.reminderTime).toBe("19:00");
    expect(preferences.quietHours).toEqual({ start: "21:00", end: "08:00" });
  });
});
