import { db } from "@charity-steps/client-store/db";
import { bestCount } from "@charity-steps/client-store/local-steps";
import { DAILY_STEP_MAX, londonDay, monthOfDay } from "@charity-steps/shared-types";
import { useLiveQuery } from "dexie-react-hooks";

export interface DeviceSteps {
  todaySteps: number;
  monthSteps: number;
  unsyncedToday: number;
  unsyncedMonth: number;
}

/** This device's counts for today and the month, and what the server has not acknowledged yet. */
export async function readDeviceSteps(now = Date.now()): Promise<DeviceSteps> {
  const today = londonDay(now);
  const month = monthOfDay(today);
  const days = await db.days.where("day").between(`${month}-01`, `${month}-31`, true, true).toArray();
  let monthSteps = 0;
  let unsyncedMonth = 0;
  let todaySteps = 0;
  let unsyncedToday = 0;
  for (const record of days) {
    const best = bestCount(record);
    const unsynced = Math.max(0, best - record.synced);
    monthSteps += best;
    unsyncedMonth += unsynced;
    if (record.day === today) {
      todaySteps = best;
      unsyncedToday = unsynced;
    }
  }
  return { todaySteps, monthSteps, unsyncedToday, unsyncedMonth };
}

/**
 * The numbers the dashboard shows, live from IndexedDB (DESIGN §7): the server's totals (every
 * device, manual entries) plus what this device counted and has not synced yet, and never less than
 * this device's own count, so a step shows the moment it is counted, online or not.
 */
export function useLiveSteps(server: { todaySteps: number; monthlySteps: number } | null | undefined) {
  const device = useLiveQuery(() => readDeviceSteps(), []);
  return mergeSteps(server, device);
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
