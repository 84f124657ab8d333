import { londonLongDate } from "@charity-steps/shared-types";
import { describe, expect, it } from "vitest";
import {
  isLondonToday,
  londonDayAndTime,
  londonMediumDate,
  londonShortDay,
  londonTime,
} from "../../src/lib/london-time";

// Instants written on London's clock, without `Intl`; each held to what en-GB's `Intl` writes.
const london = (options: Intl.DateTimeFormatOptions) =>
  new Intl.DateTimeFormat("en-GB", { ...options, timeZone: "Europe/London" });

/** Every 7 hours and 13 minutes through 2025 to 2027: all hours, both clock changes, most days. */
const instants = Array.from(
  { length: 3 * 1220 },
  (_, i) => new Date(Date.UTC(2025, 0, 1) + i * 433 * 60_000),
);

describe("London's time as a walker reads it", () => {
  it("writes times and dates as en-GB does in Europe/London", () => {
    const time = london({ hour: "2-digit", minute: "2-digit", hour12: false });
    const long = london({ day: "numeric", month: "long", year: "numeric" });
    const medium = london({ day: "numeric", month: "short", year: "numeric" });
    const dayAndTime = london({
      day: "numeric",
      month: "short",
      year: "numeric",
      hour: "2-digit",
      minute: "2-digit",
    });
    const wrong = instants.flatMap((at) => {
      const pairs: [string, string][] = [
        [londonTime(at), time.format(at)],
        [londonLongDate(at), long.format(at)],
        [londonMediumDate(at), medium.format(at)],
        [londonDayAndTime(at), dayAndTime.format(at)],
      ];
      return pairs
        .filter(([ours, theirs]) => ours !== theirs)
        .map(([ours, theirs]) => `${at.toISOString()}: ${ours}, not ${theirs}`);
    });
    expect(wrong.slice(0, 5)).toEqual([]);
    // 23:30 UTC on 30 June is 00:30 on 1 July in London.
    expect(londonDayAndTime("2026-06-30T23:30:00Z")).toBe("1 Jul 2026, 00:30");
  });

  it("gives a short day its year only when it is not this year's", () => {
    const now = Date.UTC(2026, 10, 18, 10);
    expect(londonShortDay("2026-11-03T09:00:00Z", now)).toBe("3 Nov");
    expect(londonShortDay("2025-11-03T09:00:00Z", now)).toBe("3 Nov 2025");
    // New Year's Eve 23:30 UTC is still that year in London (GMT).
    expect(londonShortDay("2025-12-31T23:30:00Z", Date.UTC(2026, 0, 1, 0, 30))).toBe("31 Dec 2025");
  });

  it("knows London's today across its midnight in summer time", () => {
    const now = Date.UTC(2026, 5, 30, 23, 30);
    expect(isLondonToday("2026-06-30T23:05:00Z", now)).toBe(true);
    expect(isLondonToday("2026-06-30T22:55:00Z", now)).toBe(false);
  });
});
