import { db } from "@charity-steps/client-store/db";
import { bestCount } from "@charity-steps/client-store/local-steps";
import {
  addDays,
  DAILY_STEP_MAX,
  londonDay,
  monthOfDay,
  STEP_HISTORY_DAYS,
} from "@charity-steps/shared-types";
import { useLiveQuery } from "dexie-react-hooks";
import { useLondonDay } from "./use-london-day";

export interface DeviceSteps {
  todaySteps: number;
  monthSteps: number;
  unsyncedToday: number;
  unsyncedMonth: number;
  /** Each stored day of the last 30: this device's count and what the server has not had yet. */
  days: Map<string, { steps: number; unsynced: number }>;
}

/** This device's counts for today and the month, and what the server has not acknowledged yet. */
export async function readDeviceSteps(now = Date.now()): Promise<DeviceSteps> {
  const today = londonDay(now);
  const month = monthOfDay(today);
  const from = [`${month}-01`, addDays(today, -(STEP_HISTORY_DAYS - 1))].sort()[0] as string;
  const days = await db.days.where("day").between(from, today, true, true).toArray();
  const byDay = new Map<string, { steps: number; unsynced: number }>();
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
 * The numbers the dashboard shows, live from IndexedDB: the server's totals (every
 * device, manual entries) plus what this device counted and has not synced yet, and never less than
 * this device's own count, so a step shows the moment it is counted, online or not.
 */
export function useLiveSteps(server: { todaySteps: number; monthlySteps: number } | null | undefined) {
  // Keyed by the day: after midnight the query must watch the new day's row, not yesterday's.
  const day = useLondonDay();
  const device = useLiveQuery(() => readDeviceSteps(), [day]);
  return { ...mergeSteps(server, device), device };
}

/** The 30-day history with the days this device counted but has not synced yet added in. */
export function mergeHistory(
  days: { date: string; steps: number }[],
  device: DeviceSteps | undefined,
): { date: string; steps: number }[] {
  if (!device) return days;
  return days.map((day) => {
    const local = device.days.get(day.date);
    if (!local) return day;
    return { ...day, steps: Math.min(DAILY_STEP_MAX, Math.max(day.steps + local.unsynced, local.steps)) };
  });
}

export function mergeSteps(
  server: { todaySteps: number; monthlySteps: number } | null | undefined,
  device: DeviceSteps | undefined,
): { todaySteps: number; monthSteps: number } {
  const serverToday = server?.todaySteps ?? 0;
  const serverMonth = server?.monthlySteps ?? 0;
  if (!device) return { todaySteps: serverToday, monthSteps: serverMonth };
  return {
    todaySteps: Math.min(DAILY_STEP_MAX, Math.max(serverToday + device.unsyncedToday, device.todaySteps)),
    monthSteps: Math.max(serverMonth + device.unsyncedMonth, device.monthSteps),
  };
}
