import { describe, expect, it } from "vitest";
import { addDays, daysBetween, isCalendarDay, londonDay, londonMonth, monthOfDay } from "../src/dates.js";

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
});
