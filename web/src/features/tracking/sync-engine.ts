import type { FetchLike } from "@charity-steps/client-store/api-client";
import { ONLINE_MESSAGE_TYPE, requestBackgroundSync } from "@charity-steps/client-store/background-sync";
import {
  enqueueUnsyncedDays,
  pendingSyncs,
  type ReplaySummary,
  replayOutbox,
} from "@charity-steps/client-store/outbox";

/** Every 5 minutes, at most once in 10 s, 3 retries 2 s × n apart. */
export const SYNC_INTERVAL_MS = 5 * 60_000;
export const SYNC_THROTTLE_MS = 10_000;
export const SYNC_MAX_RETRIES = 3;
export const SYNC_RETRY_STEP_MS = 2_000;

export type SyncTrigger = "start" | "focus" | "visible" | "online" | "interval" | "manual";

export type SyncRunResult =
  | { status: "done"; summary: ReplaySummary }
  | { status: "signed-out"; summary: ReplaySummary }
  | { status: "gave-up"; error: unknown }
  | { status: "skipped"; reason: "throttled" | "running" | "stopped" }
  | { status: "offline" };

export interface SyncEngineOptions {
  fetch?: FetchLike;
  /** Called after a replay that the server took something from: refresh the server queries here. */
  onSynced?: (summary: ReplaySummary) => void;
  /** The clock for the 10 s throttle and for which London day it is. */
  now?: () => number;
  log?: Pick<Console, "info" | "warn">;
}

export interface SyncEngine {
  start: () => void;
  stop: () => void;
  /** One run (subject to the throttle), as the triggers do. */
  syncNow: (trigger?: SyncTrigger) => Promise<SyncRunResult>;
}

/**
 * The page's step sync: queue the days whose best local count the server has not
 * acknowledged, then replay the outbox (which records what the server acknowledged on each day).
 * Triggered at start, on focus, when the tab becomes visible, when the browser comes online and
 * every 5 minutes while visible and online. When the page comes online it also tells the service
 * worker, which replays the same outbox even after the tab closes.
 */
export function createSyncEngine({
  fetch: fetchFn,
  onSynced,
  now = Date.now,
  log = console,
}: SyncEngineOptions = {}): SyncEngine {
  let started = false;
  let stopped = false;
  let running = false;
  let lastRunAt: number | null = null;
  let interval: ReturnType<typeof setInterval> | undefined;
  let deferredOnline: ReturnType<typeof setTimeout> | undefined;

  const isOnline = () => navigator.onLine;
  const isVisible = () => document.visibilityState === "visible";

  async function runOnce(): Promise<ReplaySummary> {
    await enqueueUnsyncedDays(now());
    const queued = (await pendingSyncs()).length;
    const summary = await replayOutbox(fetchFn ? { fetch: fetchFn } : {});
    // The service worker may have sent the queue while this replay waited for the outbox lock: the
    // server's totals changed all the same.
    if (summary.sent > 0 || (await pendingSyncs()).length < queued) onSynced?.(summary);
    return summary;
  }

  async function syncNow(trigger: SyncTrigger = "manual"): Promise<SyncRunResult> {
    if (stopped) return { status: "skipped", reason: "stopped" };
    if (!isOnline()) {
      log.info(`Step sync paused while offline (${trigger})`);
      return { status: "offline" };
    }
    if (running) return { status: "skipped", reason: "running" };
    if (lastRunAt !== null && now() - lastRunAt < SYNC_THROTTLE_MS)
      return { status: "skipped", reason: "throttled" };

    running = true;
    lastRunAt = now();
    try {
      for (let retry = 0; ; retry += 1) {
        try {
          const summary = await runOnce();
          if (summary.signedOut) return { status: "signed-out", summary };
          if (!summary.networkFailed && !summary.serverFailed) return { status: "done", summary };
          throw new Error(`Step sync kept ${summary.kept} action(s) after a failed request`);
        } catch (error) {
          if (retry >= SYNC_MAX_RETRIES || stopped) {
            log.warn("Step sync gave up; the service worker will try again", error);
            void requestBackgroundSync();
            return { status: "gave-up", error };
          }
          await delay(SYNC_RETRY_STEP_MS * (retry + 1));
          if (stopped) return { status: "skipped", reason: "stopped" };
          if (!isOnline()) {
            log.info("Step sync paused while offline");
            void requestBackgroundSync();
            return { status: "offline" };
          }
        }
      }
    } finally {
      running = false;
    }
  }

  const run = (trigger: SyncTrigger) => {
    void syncNow(trigger);
  };
  const onFocus = () => run("focus");
  const onVisibilityChange = () => {
    if (isVisible()) run("visible");
  };
  // Coming back online is when queued steps can go at last: a return within the throttle of the
  // last run waits for the throttle to pass instead of being dropped (a page without a service
  // worker, or with one not yet installed, has no other sender until the next trigger).
  const onOnline = () => {
    navigator.serviceWorker?.controller?.postMessage({ type: ONLINE_MESSAGE_TYPE });
    void syncNow("online").then((result) => {
      if (result.status !== "skipped" || result.reason !== "throttled" || deferredOnline) return;
      const wait = Math.max(0, (lastRunAt ?? 0) + SYNC_THROTTLE_MS - now());
      deferredOnline = setTimeout(() => {
        deferredOnline = undefined;
        run("online");
      }, wait);
    });
  };
  const onOffline = () => log.info("Step sync paused while offline");

  return {
    syncNow,
    start() {
      if (started || stopped) return;
      started = true;
      window.addEventListener("focus", onFocus);
      document.addEventListener("visibilitychange", onVisibilityChange);
      window.addEventListener("online", onOnline);
      window.addEventListener("offline", onOffline);
      interval = setInterval(() => {
        if (isVisible() && isOnline()) run("interval");
      }, SYNC_INTERVAL_MS);
      run("start");
    },
    stop() {
      stopped = true;
      window.removeEventListener("focus", onFocus);
      document.removeEventListener("visibilitychange", onVisibilityChange);
      window.removeEventListener("online", onOnline);
      window.removeEventListener("offline", onOffline);
      clearInterval(interval);
      clearTimeout(deferredOnline);
    },
  };
}

/** Starts the page's step sync; returns the function that stops it. */
export function startSyncEngine(options: SyncEngineOptions = {}): () => void {
  const engine = createSyncEngine(options);
  engine.start();
  return engine.stop;
}

function delay(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}
