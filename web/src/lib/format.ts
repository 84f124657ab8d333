import { formatNumber } from "@charity-steps/shared-types";

/** A count of steps as a person reads it: "12,345". */
export const formatSteps = (steps: number) => formatNumber(steps);

const dayFormat = new Intl.DateTimeFormat("en-GB", {
  weekday: "short",
  day: "numeric",
  month: "short",
  year: "numeric",
  timeZone: "UTC",
});

/** A calendar day (YYYY-MM-DD) as a person reads it: "Sat, 21 Nov 2026". */
export function formatDay(date: string): string {
  return dayFormat.format(new Date(`${date}T00:00:00Z`));
}

const shortDayFormat = new Intl.DateTimeFormat("en-GB", {
  weekday: "short",
  day: "numeric",
  month: "short",
  timeZone: "UTC",
});

/** A calendar day in few letters, where many stand side by side: "Sat 21 Nov". */
export function formatShortDay(date: string): string {
  return shortDayFormat.format(new Date(`${date}T00:00:00Z`)).replace(",", "");
}

const monthFormat = new Intl.DateTimeFormat("en-GB", { month: "long", year: "numeric", timeZone: "UTC" });

/** A calendar month (YYYY-MM) as a person reads it: "November 2026". */
export function formatMonth(month: string): string {
  return monthFormat.format(new Date(`${month}-01T00:00:00Z`));
}

const periodFormat = new Intl.DateTimeFormat("en-GB", {
  day: "numeric",
  month: "short",
  year: "numeric",
  timeZone: "UTC",
});

/** Two calendar days as one period, each part said once: "21 – 30 Nov 2026", "28 Nov – 4 Dec 2026". */
export function formatPeriod(from: string, to: string): string {
  return periodFormat.formatRange(new Date(`${from}T00:00:00Z`), new Date(`${to}T00:00:00Z`));
}
