import { requestBackgroundSync } from "@charity-steps/client-store/background-sync";
import type { DayCounter } from "@charity-steps/client-store/db";
import { addToBestCount } from "@charity-steps/client-store/local-steps";
import {
  enqueueSync,
  type ReplayOptions,
  type ReplaySummary,
  replayOutbox,
  type SyncSource,
  worthRetrying,
} from "@charity-steps/client-store/outbox";
import { type DayString, londonDay } from "@charity-steps/shared-types";

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

/**
 * Counts steps for today in `counter` and queues the day's new total in the outbox (one entry per
 * day and counter, the larger count kept), so steps counted just before the app closes still reach
 * the server through the service worker. Resolves to today's count.
 */
export async function recordSteps(counter: DayCounter, steps: number, now = Date.now()): Promise<number> {
  const day = londonDay(now);
  const total = await addToDay(day, counter, steps, now);
  const source: SyncSource = counter === "background" ? "background_device_motion" : "device_motion";
  await enqueueSync(day, total, source, now);
  return total;
}

/** Estimated steps for `awayMs` in the background, or 0 for a minute or less away. */
export function backgroundEstimate(awayMs: number, random: () => number = Math.random): number {
  if (awayMs <= BACKGROUND_MIN_AWAY_MS) return 0;
  const { min, max } = BACKGROUND_STEPS_PER_MINUTE;
  return Math.round((awayMs / 60_000) * (min + random() * (max - min)));
}

export interface RealtimeSyncOptions {
  /** For tests: the replay's fetch and clock. */
  replay?: ReplayOptions;
  /** Called after a replay the server took something from, so the screens refresh their totals. */
  onSent?: (summary: ReplaySummary) => void;
}

export interface RealtimeSync {
  /** `steps` were just counted: replays the outbox at every 10th step or after more than 60 s. */
  stepsCounted: (steps: number, now?: number) => Promise<ReplaySummary | null>;
  /** Replays the outbox now (a background estimate was just queued). */
  syncNow: () => Promise<ReplaySummary | null>;
}

/**
 * The real-time sync: counted steps are already queued in the outbox (with their London date, so a
 * count sent at 23:59:59 and received after midnight still lands on its own day), and the trigger
 * only asks for a replay of it. The outbox is the one path a count takes to the server, so a count
 * leaves it once, when the server has taken it. A replay that could not finish (offline, server
 * down) asks the service worker to finish it; a sign-out keeps the count queued for sign-in.
 */
export function createRealtimeSync({ replay = {}, onSent }: RealtimeSyncOptions = {}): RealtimeSync {
  let stepsSinceSync = 0;
  let lastSyncAt = 0;

  const syncNow = async (): Promise<ReplaySummary | null> => {
    try {
      const summary = await replayOutbox(replay);
      if (summary.sent > 0) onSent?.(summary);
      if (worthRetrying(summary)) await requestBackgroundSync();
      return summary;
    } catch (error) {
      // IndexedDB refused (a private mode's limit): the sync engine tries again on its own schedule.
      console.warn("Real-time step sync failed", error);
      return null;
    }
  };

  return {
    syncNow,
    async stepsCounted(steps, now = Date.now()) {
      stepsSinceSync += steps;
      if (stepsSinceSync < REALTIME_EVERY_STEPS && now - lastSyncAt <= REALTIME_EVERY_MS) return null;
      stepsSinceSync = 0;
      lastSyncAt = now;
      return syncNow();
    },
  };
}
