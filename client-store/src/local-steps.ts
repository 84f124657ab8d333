/**
 * The device's own step counts per London day: the only place that writes the day
 * counters, so the rules "0..50,000, only ever raised" and the month totals hold everywhere.
 *
 * Month rule: a month's steps on this device are the sum of the best counts of its days. The months
 * table stores that sum, rewritten in the same transaction as every day write, so it outlives the
 * 30-day day cleanup.
 */
import {
  addDays,
  DAILY_STEP_MAX,
  type DayString,
  londonDay,
  type MonthString,
  monthOfDay,
  STEP_HISTORY_DAYS,
} from "@charity-steps/shared-types";
import { liveQuery } from "dexie";
import { type DayRecord, db, isValidDailySteps, setMeta } from "./db";

export function emptyDay(day: DayString, now: number = Date.now()): DayRecord {
  return { day, motion: 0, synced: 0, updatedAt: now };
}

/** The day's count on this device; an out-of-range stored value counts as nothing. */
export function bestCount(record: DayRecord | undefined): number {
  return record && isValidDailySteps(record.motion) ? record.motion : 0;
}

export async function getDay(day: DayString): Promise<DayRecord | undefined> {
  return db.days.get(day);
}

/**
 * Adds `delta` counted steps to the day (capped at 50,000), read and written in one transaction, so
 * steps counted in two places at once both count; resolves to the day's new count.
 */
export function addSteps(day: DayString, delta: number, now: number = Date.now()): Promise<number> {
  if (!Number.isInteger(delta) || delta < 0)
    return Promise.reject(new RangeError(`Added steps must be a whole number from 0, got ${delta}.`));
  return db.transaction("rw", [db.days, db.months, db.meta], async () => {
    const existing = await db.days.get(day);
    const record = existing ?? emptyDay(day, now);
    const value = Math.min(bestCount(record) + delta, DAILY_STEP_MAX);
    if (!existing || value !== record.motion) {
      await db.days.put({ ...record, motion: value, updatedAt: now });
      await recomputeMonth(monthOfDay(day), now);
      await setMeta("lastUpdate", now);
    }
    return value;
  });
}

/** Records that the server acknowledged `steps` for `day` from this device (it only grows). */
export function markSynced(day: DayString, steps: number, now: number = Date.now()): Promise<void> {
  return db.transaction("rw", db.days, async () => {
    const record = await db.days.get(day);
    // A day already cleaned up needs no marker: it is outside the window the server accepts.
    if (!record || steps <= record.synced) return;
    await db.days.put({ ...record, synced: Math.min(steps, DAILY_STEP_MAX), updatedAt: now });
  });
}

/**
 * Rewrites a month's row as the sum of its days' best counts; call inside a transaction on days and
 * months. Days before the 30-day cleanup are gone from the days table, so the row never shrinks
 * unless `allowShrink` (only the resets, which zero counters on purpose, ask for that).
 */
export async function recomputeMonth(
  month: MonthString,
  now: number = Date.now(),
  { allowShrink = false }: { allowShrink?: boolean } = {},
): Promise<number> {
  const days = await db.days.where("day").between(`${month}-01`, `${month}-31`, true, true).toArray();
  const sum = days.reduce((total, record) => total + bestCount(record), 0);
  const existing = await db.months.get(month);
  const steps = allowShrink ? sum : Math.max(sum, existing?.steps ?? 0);
  await db.months.put({ month, steps, updatedAt: now });
  return steps;
}

export interface CleanupResult {
  daysRemoved: number;
}

/** Run at start: days more than 30 days back are removed (the server refuses them anyway). */
export async function cleanupOldSteps(now: Date | number = Date.now()): Promise<CleanupResult> {
  const oldestKept = addDays(londonDay(now), -STEP_HISTORY_DAYS);
  const daysRemoved = await db.days.where("day").below(oldestKept).delete();
  return { daysRemoved };
}

export interface DeviceSteps {
  todaySteps: number;
  /** This month's steps on this device (sum of its days' best counts). */
  monthSteps: number;
  /** Steps counted today that the server has not acknowledged yet. */
  unsyncedToday: number;
  unsyncedMonth: number;
  /** Each stored day of the last 30: this device's count and what the server has not had yet. */
  days: Map<DayString, { steps: number; unsynced: number }>;
}

/**
 * This device's counts for today and the month, and what the server has not acknowledged yet. Only
 * reads Dexie tables, so a live query of it (`watchDeviceSteps`) updates whenever a day is written.
 */
export async function readDeviceSteps(now: Date | number = Date.now()): Promise<DeviceSteps> {
  const today = londonDay(now);
  const month = monthOfDay(today);
  const from = [`${month}-01`, addDays(today, -(STEP_HISTORY_DAYS - 1))].sort()[0] as string;
  const days = await db.days.where("day").between(from, today, true, true).toArray();
  const byDay = new Map<DayString, { steps: number; unsynced: number }>();
  let monthSteps = 0;
  let unsyncedMonth = 0;
  let todaySteps = 0;
  let unsyncedToday = 0;
  for (const record of days) {
    const best = bestCount(record);
    const unsynced = Math.max(0, best - record.synced);
    byDay.set(record.day, { steps: best, unsynced });
    if (monthOfDay(record.day) !== month) continue;
    monthSteps += best;
    unsyncedMonth += unsynced;
    if (record.day === today) {
      todaySteps = best;
      unsyncedToday = unsynced;
    }
  }
  return { todaySteps, monthSteps, unsyncedToday, unsyncedMonth, days: byDay };
}

/**
 * Tells `listener` this device's steps (`readDeviceSteps`) at once and after every write to its days,
 * until unsubscribed.
 */
export function watchDeviceSteps(
  listener: (steps: DeviceSteps) => void,
  onError: (error: unknown) => void,
): { unsubscribe(): void } {
  return liveQuery(() => readDeviceSteps()).subscribe({ next: listener, error: onError });
}

/** Days whose best count is above 0 and above what the server acknowledged, within the sync window. */
export async function unsyncedDays(now: Date | number = Date.now()): Promise<DayRecord[]> {
  const today = londonDay(now);
  const oldest = addDays(today, -STEP_HISTORY_DAYS);
  const days = await db.days.where("day").between(oldest, today, true, true).toArray();
  return days.filter((record) => {
    const best = bestCount(record);
    return best > 0 && best > record.synced;
  });
}
