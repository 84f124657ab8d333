import { requestBackgroundSync } from "@charity-steps/client-store/background-sync";
import { getDeviceId } from "@charity-steps/client-store/db";
import { bestCount, getDay, markSynced, setDaySteps } from "@charity-steps/client-store/local-steps";
import { enqueueSync, type SyncSource } from "@charity-steps/client-store/outbox";
import {
  type DayString,
  DEVICE_ID_HEADER,
  londonDay,
  type RealtimeStepsResponse,
} from "@charity-steps/shared-types";

/** Spec §9: a real-time sync at every 10th step or after more than 60 s. */
export const REALTIME_EVERY_STEPS = 10;
export const REALTIME_EVERY_MS = 60_000;
/** Spec §9: away for more than a minute, 1.5–4.5 estimated steps a minute are added on return. */
export const BACKGROUND_MIN_AWAY_MS = 60_000;
export const BACKGROUND_STEPS_PER_MINUTE = { min: 1.5, max: 4.5 } as const;

/**
 * Raises one counter of `day` to the day's best count plus `steps`: the device's count only grows,
 * whichever counter (live, background) last raised it.
 */
export async function addToDay(
  day: DayString,
  counter: "real" | "background",
  steps: number,
  now = Date.now(),
): Promise<number> {
  const best = bestCount(await getDay(day));
  return setDaySteps(day, counter, best + steps, now);
}

/** Estimated steps for `awayMs` in the background, or 0 for a minute or less away. */
export function backgroundEstimate(awayMs: number, random: () => number = Math.random): number {
  if (awayMs <= BACKGROUND_MIN_AWAY_MS) return 0;
  const { min, max } = BACKGROUND_STEPS_PER_MINUTE;
  return Math.round((awayMs / 60_000) * (min + random() * (max - min)));
}

/**
 * Sends today's count to `POST /api/steps/realtime`. A failure (offline, signed out, server down)
 * queues the same count in the outbox for the sync engine and the service worker.
 */
export async function sendRealtime(
  source: SyncSource,
  now = Date.now(),
  fetchFn: typeof fetch = fetch,
): Promise<RealtimeStepsResponse | null> {
  const day = londonDay(now);
  const steps = bestCount(await getDay(day));
  if (steps === 0) return null;
  try {
    const response = await fetchFn("/api/steps/realtime", {
      method: "POST",
      credentials: "include",
      headers: { "Content-Type": "application/json", [DEVICE_ID_HEADER]: await getDeviceId() },
      body: JSON.stringify({ steps, source }),
    });
    if (!response.ok) throw new Error(`${response.status}`);
    const body = (await response.json()) as RealtimeStepsResponse;
    await markSynced(day, steps, now);
    return body;
  } catch {
    await enqueueSync(day, steps, source, now);
    await requestBackgroundSync().catch(() => false);
    return null;
  }
}
