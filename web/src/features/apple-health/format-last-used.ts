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

/** "3 Nov", or "3 Nov 2025" when the year is not this one. */
export function formatKeyDay(at: string, now: Date = new Date()): string {
  const when = new Date(at);
  return londonDay(when).slice(0, 4) === londonDay(now).slice(0, 4)
    ? dayFormat.format(when)
    : dayYearFormat.format(when);
}

/** "Last used 18:02 today", "Last used 3 Nov" or "Never used". */
export function formatLastUsed(lastUsedAt: string | null, now: Date = new Date()): string {
  if (lastUsedAt === null) return "Never used";
  const when = new Date(lastUsedAt);
  if (londonDay(when) === londonDay(now)) return `Last used ${timeFormat.format(when)} today`;
  return `Last used ${formatKeyDay(lastUsedAt, now)}`;
}
