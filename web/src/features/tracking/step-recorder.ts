import { requestBackgroundSync } from "@charity-steps/client-store/background-sync";
import { addSteps } from "@charity-steps/client-store/local-steps";
import {
  enqueueSync,
  type ReplayOptions,
  type ReplaySummary,
  replayOutbox,
  worthRetrying,
} from "@charity-steps/client-store/outbox";
import { londonDay } from "@charity-steps/shared-types";

/** A real-time sync at every 10th step or after more than 60 s. */
export const REALTIME_EVERY_STEPS = 10;
export const REALTIME_EVERY_MS = 60_000;

/**
 * Counts `steps` the motion detector counted today and queues the day's new total in the outbox
 * (one entry per day and counter, the larger count kept), so steps counted just before the app
 * closes still reach the server through the service worker. Resolves to today's count.
 */
export async function recordSteps(steps: number, now = Date.now()): Promise<number> {
  const day = londonDay(now);
  const total = await addSteps(day, steps, now);
  await enqueueSync(day, total, "device_motion", now);
  return total;
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
  /** Replays the outbox now. */
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
