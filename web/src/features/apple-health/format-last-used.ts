import { isLondonToday, londonShortDay, londonTime } from "../../lib/london-time";

/** "3 Nov", or "3 Nov 2025" when the year is not this one. */
export function formatKeyDay(at: string, now: Date = new Date()): string {
  return londonShortDay(at, now);
}

/** "Last used 18:02 today", "Last used 3 Nov" or "Never used". */
export function formatLastUsed(lastUsedAt: string | null, now: Date = new Date()): string {
  if (lastUsedAt === null) return "Never used";
  if (isLondonToday(lastUsedAt, now)) return `Last used ${londonTime(lastUsedAt)} today`;
  return `Last used ${londonShortDay(lastUsedAt, now)}`;
}
