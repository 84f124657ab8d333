/** Days and months are calendar dates in Europe/London, on client and server alike. */

/** A London calendar day, `YYYY-MM-DD`. */
export type DayString = string;
/** A London calendar month, `YYYY-MM`. */
export type MonthString = string;

const HOUR_MS = 3_600_000;
const DAY_MS = 86_400_000;

/**
 * London's clocks are worked out from the UK's summer-time rule, not read from the platform's
 * time-zone data: in a browser a page's first `Intl` date format loads the locale's data, a long
 * task on a phone before the dashboard can draw (bench/HISTORY.md). The rule, in force since 1996
 * (the Summer Time Order 2002): British Summer Time, an hour ahead of GMT, runs from 01:00 GMT on
 * the last Sunday of March to 01:00 GMT on the last Sunday of October. The tests compare every
 * hour of the years around now with the platform's Europe/London, so a change in the law fails
 * them once the platform's data has it.
 */
const summerTimes = new Map<number, readonly [number, number]>();

/** 01:00 GMT on the last Sunday of the month (`monthIndex` 0-11) of `year`. */
function lastSundayAtOne(year: number, monthIndex: number): number {
  const lastDayAtOne = Date.UTC(year, monthIndex + 1, 0, 1);
  return lastDayAtOne - new Date(lastDayAtOne).getUTCDay() * DAY_MS;
}

/** London's offset from UTC at `at`, in milliseconds: 0 in winter (GMT), an hour in summer (BST). */
export function londonOffset(at: number): number {
  const year = new Date(at).getUTCFullYear();
  let summer = summerTimes.get(year);
  if (!summer) {
    summer = [lastSundayAtOne(year, 2), lastSundayAtOne(year, 9)];
    summerTimes.set(year, summer);
  }
  return at >= summer[0] && at < summer[1] ? HOUR_MS : 0;
}

/** What London's clocks and calendar read at an instant. */
export interface LondonReading {
  year: number;
  /** 1-12. */
  month: number;
  day: number;
  hour: number;
  minute: number;
  second: number;
  /** 0 is Sunday. */
  weekday: number;
  /** The London calendar day, `YYYY-MM-DD`. */
  date: DayString;
}

/** London's calendar and clocks at `at` (a `RangeError` for an invalid time, as `Intl` gives). */
export function londonReading(at: Date | number | string): LondonReading {
  const time = new Date(at).getTime();
  const wall = new Date(time + londonOffset(time));
  return {
    year: wall.getUTCFullYear(),
    month: wall.getUTCMonth() + 1,
    day: wall.getUTCDate(),
    hour: wall.getUTCHours(),
    minute: wall.getUTCMinutes(),
    second: wall.getUTCSeconds(),
    weekday: wall.getUTCDay(),
    date: wall.toISOString().slice(0, 10),
  };
}

// London midnight is 00:00 or 23:00 UTC and the clocks change at 01:00 UTC, so the London day is the
// same for a whole UTC hour: the last hour's answer is kept (a step sync asks for it many times).
let lastHour = Number.NaN;
let lastDay = "";

export function londonDay(at: Date | number = Date.now()): DayString {
  const time = typeof at === "number" ? at : at.getTime();
  const hour = Math.floor(time / HOUR_MS);
  if (hour !== lastHour) {
    lastDay = londonReading(time).date;
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
  // setUTCFullYear, not Date.UTC, which reads the years 0–99 as 1900–1999.
  const date = new Date(0);
  date.setUTCFullYear(y, m - 1, d);
  return date.getUTCFullYear() === y && date.getUTCMonth() === m - 1 && date.getUTCDate() === d;
}

/** Whole days from `from` to `to` (both `YYYY-MM-DD`); negative when `to` is earlier. */
export function daysBetween(from: DayString, to: DayString): number {
  return Math.round((Date.parse(`${to}T00:00:00Z`) - Date.parse(`${from}T00:00:00Z`)) / 86_400_000);
}

/**
 * The day `offset` days after `day` (negative goes back). Streaks step through days one at a
 * time, so this is built from numbers (`setUTCFullYear` rolls a day past the month's end over),
 * which costs less than parsing and printing an ISO string; not `Date.UTC`, which reads the years
 * 0–99 as 1900–1999.
 */
export function addDays(day: DayString, offset: number): DayString {
  const date = new Date(0);
  date.setUTCFullYear(+day.slice(0, 4), +day.slice(5, 7) - 1, +day.slice(8, 10) + offset);
  const year = String(date.getUTCFullYear()).padStart(4, "0");
  return `${year}-${twoDigits(date.getUTCMonth() + 1)}-${twoDigits(date.getUTCDate())}`;
}

/** The instant London's calendar day `day` begins (midnight, in GMT or in British Summer Time). */
export function londonDayStart(day: DayString): number {
  const utcMidnight = Date.parse(`${day}T00:00:00Z`);
  // In summer time London's midnight is 23:00 UTC the evening before.
  return londonDay(utcMidnight - 3_600_000) === day ? utcMidnight - 3_600_000 : utcMidnight;
}

/** The hour (0-23) on London's clocks at `at`. */
export function londonHour(at: Date | number = Date.now()): number {
  return londonReading(at).hour;
}

const twoDigits = (value: number) => String(value).padStart(2, "0");

/** London's clocks at `at`, `HH:MM`. */
export function londonClock(at: Date | number = Date.now()): string {
  const { hour, minute } = londonReading(at);
  return `${twoDigits(hour)}:${twoDigits(minute)}`;
}

/** Minutes past London midnight at `at` (0-1439), as London's clocks read. */
export function londonMinuteOfDay(at: Date | number = Date.now()): number {
  const { hour, minute } = londonReading(at);
  return hour * 60 + minute;
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

/** Months and weekdays as en-GB writes them, for dates written without `Intl` (see `londonOffset`). */
export const MONTH_NAMES = [
  "January",
  "February",
  "March",
  "April",
  "May",
  "June",
  "July",
  "August",
  "September",
  "October",
  "November",
  "December",
] as const;
export const MONTH_SHORT_NAMES = [
  "Jan",
  "Feb",
  "Mar",
  "Apr",
  "May",
  "Jun",
  "Jul",
  "Aug",
  "Sept",
  "Oct",
  "Nov",
  "Dec",
] as const;
export const WEEKDAY_SHORT_NAMES = ["Sun", "Mon", "Tue", "Wed", "Thu", "Fri", "Sat"] as const;

// Calendar days as a person reads them, written from their parts (see `londonOffset`).

/** A calendar day (YYYY-MM-DD) read as a UTC date, whose parts are that day's. */
const calendarDate = (day: DayString) => new Date(`${day}T00:00:00Z`);

/** A calendar day as a person reads it: "Sat, 21 Nov 2026". */
export function formatDay(day: DayString): string {
  const date = calendarDate(day);
  // The year as written (four digits), so that a date of the first millennium reads as one.
  return `${WEEKDAY_SHORT_NAMES[date.getUTCDay()]}, ${date.getUTCDate()} ${MONTH_SHORT_NAMES[date.getUTCMonth()]} ${day.slice(0, 4)}`;
}

/** A calendar day in few letters, where many stand side by side: "Sat 21 Nov". */
export function formatShortDay(day: DayString): string {
  const date = calendarDate(day);
  return `${WEEKDAY_SHORT_NAMES[date.getUTCDay()]} ${date.getUTCDate()} ${MONTH_SHORT_NAMES[date.getUTCMonth()]}`;
}

/** A calendar day in words, for certificates and letters: "5 September 2026". */
export function formatLongDay(day: DayString): string {
  const date = calendarDate(day);
  return `${date.getUTCDate()} ${MONTH_NAMES[date.getUTCMonth()]} ${day.slice(0, 4)}`;
}

/** A calendar month (YYYY-MM) as a person reads it: "November 2026". */
export function formatMonth(month: MonthString): string {
  const date = calendarDate(`${month}-15`);
  return `${MONTH_NAMES[date.getUTCMonth()]} ${month.slice(0, 4)}`;
}

/** A calendar day's date and short month: "5 Sept". */
export function formatDayAndMonth(day: DayString): string {
  const date = calendarDate(day);
  return `${date.getUTCDate()} ${MONTH_SHORT_NAMES[date.getUTCMonth()]}`;
}

/** A calendar day in few letters with its year: "5 Sept 2026". */
export function formatMediumDay(day: DayString): string {
  return `${formatDayAndMonth(day)} ${day.slice(0, 4)}`;
}

/**
 * Two calendar days as one period, each part said once: "21 – 30 Nov 2026", "28 Nov – 4 Dec 2026"
 * (thin spaces round the dash, as en-GB's ranges have them).
 */
export function formatPeriod(from: DayString, to: DayString): string {
  const dash = "\u2009–\u2009";
  if (from === to) return formatMediumDay(to);
  if (from.slice(0, 4) !== to.slice(0, 4)) return `${formatMediumDay(from)}${dash}${formatMediumDay(to)}`;
  if (from.slice(0, 7) !== to.slice(0, 7)) return `${formatDayAndMonth(from)}${dash}${formatMediumDay(to)}`;
  return `${calendarDate(from).getUTCDate()}${dash}${formatMediumDay(to)}`;
}

/** "25 November 2026": the London date of an instant, in words. */
export function londonLongDate(at: Date | number | string): string {
  return formatLongDay(londonReading(at).date);
}
