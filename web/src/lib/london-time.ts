import {
  formatDayAndMonth,
  formatMediumDay,
  londonClock,
  londonDay,
  londonReading,
} from "@charity-steps/shared-types";

// Times are the walker's London clock, like every day the app counts. They are written from
// London's reading, not by `Intl` (see `londonOffset` in shared-types).

/** "18:02", London time. */
export function londonTime(at: Date | string): string {
  return londonClock(new Date(at));
}

/** "3 Nov", or "3 Nov 2025" when the year is not this one. */
export function londonShortDay(at: Date | string, now: Date | number = Date.now()): string {
  const { date, year } = londonReading(at);
  return year === londonReading(now).year ? formatDayAndMonth(date) : formatMediumDay(date);
}

/** "5 Sept 2026", the London date of an instant in few letters. */
export function londonMediumDate(at: Date | string): string {
  return formatMediumDay(londonReading(at).date);
}

/** True when `at` falls on London's today. */
export function isLondonToday(at: Date | string, now: Date | number = Date.now()): boolean {
  return londonDay(new Date(at)) === londonDay(now);
}

/** "24 Nov 2026, 18:00", London time: when something happened, in the operator's lists. */
export function londonDayAndTime(at: Date | string): string {
  return `${londonMediumDate(at)}, ${londonTime(at)}`;
}
