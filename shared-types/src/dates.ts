/** Days and months are calendar dates in Europe/London, on client and server alike. */

export const STEP_TIME_ZONE = "Europe/London";

/** A London calendar day, `YYYY-MM-DD`. */
export type DayString = string;
/** A London calendar month, `YYYY-MM`. */
export type MonthString = string;

// en-CA formats dates as YYYY-MM-DD; one formatter is reused because building one is costly.
const londonDateFormat = new Intl.DateTimeFormat("en-CA", {
  timeZone: STEP_TIME_ZONE,
  year: "numeric",
  month: "2-digit",
  day: "2-digit",
});

// London midnight is 00:00 or 23:00 UTC and the clocks change at 01:00 UTC, so the London day is the
// same for a whole UTC hour: the last hour's answer is kept (formatting costs more than a step sync's
// query).
let lastHour = Number.NaN;
let lastDay = "";

export function londonDay(at: Date | number = Date.now()): DayString {
  const time = typeof at === "number" ? at : at.getTime();
  const hour = Math.floor(time / 3_600_000);
  if (hour !== lastHour) {
    lastDay = londonDateFormat.format(time);
    lastHour = hour;
  }
  return lastDay;
}

export function londonMonth(at: Date | number = Date.now()): MonthString {
  return londonDay(at).slice(0, 7);
}

export function monthOfDay(day: DayString): MonthString {
  return day.slice(0, 7);
}

/** The month `offset` months after `month` (before it when negative): `addMonths("2026-01", -1)` is `2025-12`. */
export function addMonths(month: MonthString, offset: number): MonthString {
  const [year, number] = month.split("-").map(Number) as [number, number];
  const index = year * 12 + number - 1 + offset;
  return `${Math.floor(index / 12)}-${String((index % 12) + 1).padStart(2, "0")}`;
}

const DAY_PATTERN = /^(\d{4})-(\d{2})-(\d{2})$/;

/** True for a real calendar date written `YYYY-MM-DD` (rejects 2025-02-30). */
export function isCalendarDay(value: string): value is DayString {
  const match = DAY_PATTERN.exec(value);
  if (!match) return false;
  const [, y, m, d] = match.map(Number) as [number, number, number, number];
  const date = new Date(Date.UTC(y, m - 1, d));
  return date.getUTCFullYear() === y && date.getUTCMonth() === m - 1 && date.getUTCDate() === d;
}

/** Whole days from `from` to `to` (both `YYYY-MM-DD`); negative when `to` is earlier. */
export function daysBetween(from: DayString, to: DayString): number {
  return Math.round((Date.parse(`${to}T00:00:00Z`) - Date.parse(`${from}T00:00:00Z`)) / 86_400_000);
}

/** The day `offset` days after `day` (negative goes back). */
export function addDays(day: DayString, offset: number): DayString {
  const date = new Date(Date.parse(`${day}T00:00:00Z`) + offset * 86_400_000);
  return date.toISOString().slice(0, 10);
}

/** The instant London's calendar day `day` begins (midnight, in GMT or in British Summer Time). */
export function londonDayStart(day: DayString): number {
  const utcMidnight = Date.parse(`${day}T00:00:00Z`);
  // In summer time London's midnight is 23:00 UTC the evening before.
  return londonDay(utcMidnight - 3_600_000) === day ? utcMidnight - 3_600_000 : utcMidnight;
}

const hourFormat = new Intl.DateTimeFormat("en-GB", {
  timeZone: STEP_TIME_ZONE,
  hour: "numeric",
  hourCycle: "h23",
});

/** The hour (0-23) on London's clocks at `at`. */
export function londonHour(at: Date | number = Date.now()): number {
  return Number(hourFormat.format(new Date(at)));
}

const clockFormat = new Intl.DateTimeFormat("en-GB", {
  timeZone: STEP_TIME_ZONE,
  hour: "2-digit",
  minute: "2-digit",
  hourCycle: "h23",
});

/** London's clocks at `at`, `HH:MM`. */
export function londonClock(at: Date | number = Date.now()): string {
  return clockFormat.format(new Date(at));
}

/** Minutes past London midnight at `at` (0-1439), as London's clocks read. */
export function londonMinuteOfDay(at: Date | number = Date.now()): number {
  const [hours, minutes] = londonClock(at).split(":").map(Number) as [number, number];
  return hours * 60 + minutes;
}

/**
 * The instant London's clocks read `time` (`HH:MM`) on `day`. On the spring night the clocks skip
 * an hour, a time inside it is taken an hour later; on the autumn night an hour comes twice, and
 * the first is taken.
 */
export function londonTimeOn(day: DayString, time: string): number {
  const asUtc = Date.parse(`${day}T${time}:00Z`);
  // London is UTC or an hour ahead: the summer reading comes first when both match.
  for (const instant of [asUtc - 3_600_000, asUtc]) {
    if (londonDay(instant) === day && londonClock(instant) === time) return instant;
  }
  return asUtc;
}

/** The first instant after `after` at which London's clocks read `time`. */
export function nextLondonTime(after: number, time: string): number {
  const today = londonDay(after);
  const todays = londonTimeOn(today, time);
  return todays > after ? todays : londonTimeOn(addDays(today, 1), time);
}
