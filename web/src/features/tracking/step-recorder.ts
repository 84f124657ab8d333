import { requestBackgroundSync } from "@charity-steps/client-store/background-sync";
import { type DayCounter, getDeviceId } from "@charity-steps/client-store/db";
import { addToBestCount, bestCount, getDay, markSynced } from "@charity-steps/client-store/local-steps";
import { enqueueSync, type SyncSource } from "@charity-steps/client-store/outbox";
import {
  type DayString,
  DEVICE_ID_HEADER,
  londonDay,
  type StepSyncResponse,
} from "@charity-steps/shared-types";

/** A real-time sync at every 10th step or after more than 60 s. */
export const REALTIME_EVERY_STEPS = 10;
export const REALTIME_EVERY_MS = 60_000;
/** Away for more than a minute, 1.5–4.5 estimated steps a minute are added on return. */
export const BACKGROUND_MIN_AWAY_MS = 60_000;
export const BACKGROUND_STEPS_PER_MINUTE = { min: 1.5, max: 4.5 } as const;

/**
 * Adds `steps` on top of the day's best count, in `counter`: the device's count only grows,
 * whichever counter (live, background) last raised it.
 */
export function addToDay(day: DayString, counter: DayCounter, steps: number, now = Date.now()) {
  return addToBestCount(day, counter, steps, now);
}

/** Estimated steps for `awayMs` in the background, or 0 for a minute or less away. */
export function backgroundEstimate(awayMs: number, random: () => number = Math.random): number {
  if (awayMs <= BACKGROUND_MIN_AWAY_MS) return 0;
  const { min, max } = BACKGROUND_STEPS_PER_MINUTE;
  return Math.round((awayMs / 60_000) * (min + random() * (max - min)));
}

/**
 * The real-time sync: today's count, sent as it is counted. It goes to `POST
 * /api/steps/sync` with its London date rather than to `/api/steps/realtime`, which files a count
 * under the server's today: a count sent at 23:59:59 and received after midnight would otherwise
 * land on the wrong day. A failure (offline, signed out, server down) leaves the count queued in
 * the outbox for the sync engine and the service worker.
 */
export async function sendRealtime(
  source: SyncSource,
  now = Date.now(),
  fetchFn: typeof fetch = fetch,
): Promise<StepSyncResponse | null> {
  const day = londonDay(now);
  const steps = bestCount(await getDay(day));
  if (steps === 0) return null;
  try {
    const response = await fetchFn("/api/steps/sync", {
      method: "POST",
      credentials: "include",
      headers: { "Content-Type": "application/json", [DEVICE_ID_HEADER]: await getDeviceId() },
      body: JSON.stringify({ steps, date: day, source }),
    });
    if (!response.ok) throw new Error(`${response.status}`);
    const body = (await response.json()) as StepSyncResponse;
    await markSynced(day, steps, now);
    return body;
  } catch {
    await enqueueSync(day, steps, source, now);
    await requestBackgroundSync().catch(() => false);
    return null;
  }
}
