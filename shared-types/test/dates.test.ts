import { describe, expect, it } from "vitest";
import {
  addDays,
  daysBetween,
  formatDay,
  formatLongDay,
  formatMonth,
  formatPeriod,
  formatShortDay,
  isCalendarDay,
  londonClock,
  londonDay,
  londonHour,
  londonMinuteOfDay,
  londonMonth,
  londonOffset,
  londonReading,
  londonTimeOn,
  MONTH_NAMES,
  MONTH_SHORT_NAMES,
  monthOfDay,
  WEEKDAY_SHORT_NAMES,
} from "../src/dates.js";
import { londonDateTime } from "../src/draws.js";

describe("London days and months", () => {
  it("uses the London calendar, not UTC, in summer time", () => {
    // 23:30 UTC on 30 June is 00:30 on 1 July in London (BST, UTC+1).
    const lateJune = Date.UTC(2026, 5, 30, 23, 30);
    expect(londonDay(lateJune)).toBe("2026-07-01");
    expect(londonMonth(lateJune)).toBe("2026-07");
  });

  it("answers every minute of a year as a fresh formatter does, in any order (its hour cache is safe)", () => {
    const fresh = new Intl.DateTimeFormat("en-CA", { timeZone: "Europe/London" });
    const start = Date.UTC(2026, 0, 1);
    // Every 7th minute of 2026 (both clock changes, every midnight), forwards then shuffled.
    const times = Array.from({ length: Math.floor((365 * 24 * 60) / 7) }, (_, i) => start + i * 7 * 60_000);
    const shuffled = times.map((time, i) => times[(i * 7919) % times.length] ?? time);
    // One assertion over all of them: an expect per minute would cost more than the answers checked.
    const wrong = [...times, ...shuffled]
      .filter((time) => londonDay(time) !== fresh.format(time))
      .map((time) => `${new Date(time).toISOString()}: ${londonDay(time)}, not ${fresh.format(time)}`);
    expect(wrong).toEqual([]);
    // Either side of the autumn change (01:00 UTC on 25 October 2026) and of a BST midnight.
    expect(londonDay(Date.UTC(2026, 9, 24, 22, 59))).toBe("2026-10-24");
    expect(londonDay(Date.UTC(2026, 9, 24, 23, 0))).toBe("2026-10-25");
    expect(londonDay(new Date(Date.UTC(2026, 9, 25, 23, 59)))).toBe("2026-10-25");
    expect(londonDay(Date.UTC(2026, 9, 26, 0, 0))).toBe("2026-10-26");
  });

  it("matches UTC in winter", () => {
    expect(londonDay(Date.UTC(2026, 11, 31, 23, 59))).toBe("2026-12-31");
    expect(londonDay(Date.UTC(2027, 0, 1, 0, 0))).toBe("2027-01-01");
  });

  it("crosses the clock changes on the right instant", () => {
    // Clocks go back at 01:00 UTC on 25 October 2026.
    expect(londonDay(Date.UTC(2026, 9, 24, 23, 0))).toBe("2026-10-25");
    expect(londonDay(Date.UTC(2026, 9, 25, 22, 59))).toBe("2026-10-25");
    expect(londonDay(Date.UTC(2026, 9, 25, 23, 0))).toBe("2026-10-25");
    expect(londonDay(Date.UTC(2026, 9, 26, 0, 0))).toBe("2026-10-26");
  });

  it("recognises real calendar dates only", () => {
    expect(isCalendarDay("2026-02-28")).toBe(true);
    expect(isCalendarDay("2028-02-29")).toBe(true);
    // The years 0–99 are real years, not 1900–1999.
    expect(isCalendarDay("0050-01-03")).toBe(true);
    expect(isCalendarDay("0000-02-29")).toBe(true);
    expect(isCalendarDay("0100-02-29")).toBe(false);
    for (const bad of [
      "2026-02-29",
      "2026-13-01",
      "2026-00-10",
      "2026-1-1",
      "26-01-01",
      "2026-01-01T00:00",
      "",
    ]) {
      expect(isCalendarDay(bad)).toBe(false);
    }
  });

  it("counts and steps whole days across month and year ends", () => {
    expect(daysBetween("2026-12-25", "2027-01-24")).toBe(30);
    expect(daysBetween("2026-03-01", "2026-02-28")).toBe(-1);
    expect(addDays("2026-12-31", 1)).toBe("2027-01-01");
    expect(addDays("2026-03-01", -1)).toBe("2026-02-28");
    expect(monthOfDay("2026-11-21")).toBe("2026-11");
  });

  it("steps days as UTC's calendar does, over leap years and across centuries", () => {
    const iso = (day: string, offset: number) =>
      new Date(Date.parse(`${day}T00:00:00Z`) + offset * 86_400_000).toISOString().slice(0, 10);
    for (const day of [
      "0005-06-15",
      "0099-12-31",
      "1999-12-31",
      "2000-02-28",
      "2024-02-29",
      "2026-11-30",
      "2100-02-28",
    ]) {
      for (let offset = -800; offset <= 800; offset += 7) expect(addDays(day, offset)).toBe(iso(day, offset));
    }
    expect(addDays("2024-02-28", 1)).toBe("2024-02-29");
    expect(addDays("2100-02-28", 1)).toBe("2100-03-01");
    // The first century's years are years, not the 1900s.
    expect(addDays("0050-12-31", 1)).toBe("0051-01-01");
  });
});

describe("London's clocks, worked out from the summer-time rule", () => {
  // The platform's own Europe/London, to compare with: what the helpers replace.
  const platform = new Intl.DateTimeFormat("en-GB", {
    timeZone: "Europe/London",
    hourCycle: "h23",
    weekday: "short",
    year: "numeric",
    month: "2-digit",
    day: "2-digit",
    hour: "2-digit",
    minute: "2-digit",
    second: "2-digit",
  });
  const platformReading = (at: number) => {
    const parts = Object.fromEntries(platform.formatToParts(at).map((part) => [part.type, part.value]));
    return {
      year: Number(parts.year),
      month: Number(parts.month),
      day: Number(parts.day),
      hour: Number(parts.hour),
      minute: Number(parts.minute),
      second: Number(parts.second),
      weekday: WEEKDAY_SHORT_NAMES.indexOf(parts.weekday as (typeof WEEKDAY_SHORT_NAMES)[number]),
      date: `${parts.year}-${parts.month}-${parts.day}`,
    };
  };

  it("reads London as the platform's time-zone data does, on every day from 1996 to 2040", () => {
    // Each day on either side of 01:00 UTC (when the clocks change) and of 23:00 UTC (London's
    // midnight in summer), and every hour of 2026.
    const instants: number[] = [];
    for (let day = Date.UTC(1996, 0, 1); day < Date.UTC(2041, 0, 1); day += 86_400_000) {
      instants.push(day, day + 3_599_999, day + 3_600_000, day + 82_799_999, day + 82_800_000);
    }
    for (let hour = Date.UTC(2026, 0, 1); hour < Date.UTC(2027, 0, 1); hour += 3_600_000) instants.push(hour);
    const wrong: string[] = [];
    for (const at of instants) {
      const ours = JSON.stringify(londonReading(at));
      const theirs = JSON.stringify(platformReading(at));
      if (ours !== theirs) wrong.push(`${new Date(at).toISOString()}: ${ours}, not ${theirs}`);
    }
    expect(wrong.slice(0, 5)).toEqual([]);
  }, 30_000);

  it("changes the clocks at 01:00 UTC on the last Sundays of March and October", () => {
    // 2026: 29 March and 25 October.
    expect(londonOffset(Date.UTC(2026, 2, 29, 0, 59, 59, 999))).toBe(0);
    expect(londonOffset(Date.UTC(2026, 2, 29, 1))).toBe(3_600_000);
    expect(londonOffset(Date.UTC(2026, 9, 25, 0, 59, 59, 999))).toBe(3_600_000);
    expect(londonOffset(Date.UTC(2026, 9, 25, 1))).toBe(0);
    expect(londonClock(Date.UTC(2026, 2, 29, 1))).toBe("02:00");
    expect(londonHour(Date.UTC(2026, 9, 25, 0, 30))).toBe(1);
    expect(londonHour(Date.UTC(2026, 9, 25, 1, 30))).toBe(1);
    expect(londonMinuteOfDay(Date.UTC(2026, 9, 24, 23, 30))).toBe(30);
  });

  it("finds the instant a London time falls on, across both clock changes", () => {
    expect(londonTimeOn("2026-07-01", "00:30")).toBe(Date.UTC(2026, 5, 30, 23, 30));
    expect(londonTimeOn("2026-12-01", "00:30")).toBe(Date.UTC(2026, 11, 1, 0, 30));
    // 01:30 comes twice on 25 October 2026: the first, in summer time, is taken.
    expect(londonTimeOn("2026-10-25", "01:30")).toBe(Date.UTC(2026, 9, 25, 0, 30));
    // 01:30 never comes on 29 March 2026: it is taken an hour later, 02:30 summer time.
    expect(londonTimeOn("2026-03-29", "01:30")).toBe(Date.UTC(2026, 2, 29, 1, 30));
  });

  it("rejects an invalid time as the platform's format did", () => {
    expect(() => londonReading(Number.NaN)).toThrow(RangeError);
    expect(() => londonDay(Number.NaN)).toThrow(RangeError);
  });

  it("names months and weekdays as en-GB does", () => {
    const long = new Intl.DateTimeFormat("en-GB", { month: "long", timeZone: "UTC" });
    const short = new Intl.DateTimeFormat("en-GB", { month: "short", timeZone: "UTC" });
    const weekday = new Intl.DateTimeFormat("en-GB", { weekday: "short", timeZone: "UTC" });
    expect(MONTH_NAMES.map((_, i) => long.format(Date.UTC(2026, i, 5)))).toEqual([...MONTH_NAMES]);
    expect(MONTH_SHORT_NAMES.map((_, i) => short.format(Date.UTC(2026, i, 5)))).toEqual([
      ...MONTH_SHORT_NAMES,
    ]);
    // 1 November 2026 is a Sunday.
    expect(WEEKDAY_SHORT_NAMES.map((_, i) => weekday.format(Date.UTC(2026, 10, 1 + i)))).toEqual([
      ...WEEKDAY_SHORT_NAMES,
    ]);
  });

  it("writes a draw's deadlines in London's words", () => {
    expect(londonDateTime(Date.UTC(2026, 11, 3, 12))).toBe("3 December 2026 at 12:00");
    expect(londonDateTime(new Date(Date.UTC(2026, 5, 30, 23, 5)))).toBe("1 July 2026 at 00:05");
    expect(londonDateTime("2026-09-05T08:00:00.000Z")).toBe("5 September 2026 at 09:00");
  });
});

// The formatters write dates from their parts, without `Intl`; each is held to what en-GB's `Intl`
// writes for the same day.
const at = (day: string) => new Date(`${day}T00:00:00Z`);
const intl = (options: Intl.DateTimeFormatOptions) =>
  new Intl.DateTimeFormat("en-GB", { ...options, timeZone: "UTC" });

/** Every day from 2024 to 2030: every weekday in every month, two leap years. */
const everyDay = Array.from({ length: 7 * 366 }, (_, i) => addDays("2024-01-01", i));

describe("calendar days as a walker reads them", () => {
  it("writes a day, a short day and a month as en-GB does", () => {
    const day = intl({ weekday: "short", day: "numeric", month: "short", year: "numeric" });
    const shortDay = intl({ weekday: "short", day: "numeric", month: "short" });
    const month = intl({ month: "long", year: "numeric" });
    const wrong = everyDay.flatMap((d) => {
      const pairs: [string, string][] = [
        [formatDay(d), day.format(at(d))],
        [formatShortDay(d), shortDay.format(at(d)).replace(",", "")],
        [formatMonth(d.slice(0, 7)), month.format(at(d))],
      ];
      return pairs
        .filter(([ours, theirs]) => ours !== theirs)
        .map(([ours, theirs]) => `${d}: ${ours}, not ${theirs}`);
    });
    expect(wrong.slice(0, 5)).toEqual([]);
    expect(formatDay("2026-11-21")).toBe("Sat, 21 Nov 2026");
    expect(formatDay("0000-01-01")).toBe("Sat, 1 Jan 0000");
    expect(formatMonth("0050-03")).toBe("March 0050");
    expect(formatShortDay("2026-09-05")).toBe("Sat 5 Sept");
    expect(formatMonth("2026-11")).toBe("November 2026");
    expect(formatLongDay("2026-09-05")).toBe("5 September 2026");
  });

  it("writes a period as en-GB's ranges do, each part said once", () => {
    const range = intl({ day: "numeric", month: "short", year: "numeric" });
    const wrong: string[] = [];
    for (const from of everyDay.filter((_, i) => i % 5 === 0)) {
      for (const length of [0, 1, 6, 13, 40, 400]) {
        const to = addDays(from, length);
        const theirs = range.formatRange(at(from), at(to));
        if (formatPeriod(from, to) !== theirs)
          wrong.push(`${from}–${to}: ${formatPeriod(from, to)}, not ${theirs}`);
      }
    }
    expect(wrong.slice(0, 5)).toEqual([]);
    expect(formatPeriod("2026-11-21", "2026-11-30")).toBe("21\u2009–\u200930 Nov 2026");
    expect(formatPeriod("2026-12-28", "2027-01-03")).toBe("28 Dec 2026\u2009–\u20093 Jan 2027");
  });
});
