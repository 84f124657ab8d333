import { londonDay, STEP_TIME_ZONE } from "@charity-steps/shared-types";

// Times are the walker's London clock, like every day the app counts.
const timeFormat = new Intl.DateTimeFormat("en-GB", {
  timeZone: STEP_TIME_ZONE,
  hour: "2-digit",
  minute: "2-digit",
  hour12: false,
});
const dayFormat = new Intl.DateTimeFormat("en-GB", {
  timeZone: STEP_TIME_ZONE,
  day: "numeric",
  month: "short",
});
const dayYearFormat = new Intl.DateTimeFormat("en-GB", {
  timeZone: STEP_TIME_ZONE,
  day: "numeric",
  month: "short",
  year: "numeric",
});

/** "18:02", London time. */
export function londonTime(at: Date | string): string {
  return timeFormat.format(new Date(at));
}

/** "3 Nov", or "3 Nov 2025" when the year is not this one. */
export function londonShortDay(at: Date | string, now: Date | number = Date.now()): string {
  const when = new Date(at);
  return londonDay(when).slice(0, 4) === londonDay(now).slice(0, 4)
    ? dayFormat.format(when)
    : dayYearFormat.format(when);
}

/** True when `at` falls on London's today. */
export function isLondonToday(at: Date | string, now: Date | number = Date.now()): boolean {
  return londonDay(new Date(at)) === londonDay(now);
}

const dayAndTimeFormat = new Intl.DateTimeFormat("en-GB", {
  timeZone: STEP_TIME_ZONE,
  day: "numeric",
  month: "short",
  year: "numeric",
  hour: "2-digit",
  minute: "2-digit",
});

/** "24 Nov 2026, 18:00", London time: when something happened, in the operator's lists. */
export function londonDayAndTime(at: Date | string): string {
  return dayAndTimeFormat.format(new Date(at));
}

const weekdayFormat = new Intl.DateTimeFormat("en-GB", {
  timeZone: "UTC",
  weekday: "short",
  day: "numeric",
  month: "short",
});

/** "Fri 27 Nov": a calendar day (YYYY-MM-DD) with its weekday. */
export function weekdayAndDay(day: string): string {
  return weekdayFormat.format(new Date(`${day}T12:00:00Z`));
}
