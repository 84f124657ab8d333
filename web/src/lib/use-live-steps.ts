import type { DeviceSteps } from "@charity-steps/client-store/local-steps";
import { DAILY_STEP_MAX } from "@charity-steps/shared-types";
import { useEffect, useState } from "react";
import { afterPaint } from "./after-paint";
import { useLondonDay } from "./use-london-day";

/**
 * The numbers the dashboard shows, live from IndexedDB: the server's totals (every
 * device, manual entries) plus what this device counted and has not synced yet, and never less than
 * this device's own count, so a step shows the moment it is counted, online or not.
 *
 * The IndexedDB library loads once the page has shown rather than before it: the server's numbers
 * show at once, and this device's steps join them as soon as they are read (a moment later).
 */
export function useLiveSteps(server: { todaySteps: number; monthlySteps: number } | null | undefined) {
  // Keyed by the day: after midnight the query must watch the new day's row, not yesterday's.
  const day = useLondonDay();
  const [device, setDevice] = useState<DeviceSteps>();
  // biome-ignore lint/correctness/useExhaustiveDependencies: each London day is watched afresh (today's rows are new ones).
  useEffect(() => {
    let stopped = false;
    let watch: { unsubscribe(): void } | undefined;
    const failed = (error: unknown) => console.warn("This phone's steps could not be read", error);
    const cancel = afterPaint(() =>
      import("@charity-steps/client-store/local-steps").then(({ watchDeviceSteps }) => {
        if (!stopped) watch = watchDeviceSteps(setDevice, failed);
      }, failed),
    );
    return () => {
      stopped = true;
      cancel();
      watch?.unsubscribe();
    };
  }, [day]);
  return { ...mergeSteps(server, device), device };
}

/** The 30-day history with the days this device counted but has not synced yet added in. */
export function mergeHistory<Day extends { date: string; steps: number }>(
  days: Day[],
  device: DeviceSteps | undefined,
): Day[] {
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
