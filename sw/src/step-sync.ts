import {
  isOnlineMessage,
  requestBackgroundSync,
  STEP_SYNC_TAG,
} from "@charity-steps/client-store/background-sync";
import {
  type ReplayOptions,
  type ReplaySummary,
  replayOutbox,
  worthRetrying,
} from "@charity-steps/client-store/outbox";

declare const self: ServiceWorkerGlobalScope;

// The Background Sync API is in no TypeScript lib yet.
interface SyncEvent extends ExtendableEvent {
  readonly tag: string;
}

/**
 * Replays the step outbox from the service worker with the outbox's own rules (an
 * action leaves only after a 2xx), never Workbox's default background-sync replay, which drops a
 * request on any 4xx/5xx. Three triggers: the Background Sync `sync` event (tag `step_sync`), the
 * worker's own start, and the page's ONLINE message; the last two cover browsers without the Sync
 * API. Resolves when the start replay is done (for tests; the worker does not wait on it).
 */
export function registerStepSync(
  scope: ServiceWorkerGlobalScope = self,
  options: ReplayOptions = {},
): Promise<ReplaySummary | null> {
  scope.addEventListener("sync", (event: Event) => {
    const syncEvent = event as SyncEvent;
    if (syncEvent.tag !== STEP_SYNC_TAG) return;
    // Rejecting tells the browser to fire `sync` again later, with its own back-off.
    syncEvent.waitUntil(
      replayOutbox(options).then((summary) => {
        if (worthRetrying(summary))
          throw new Error(`Step sync kept ${summary.kept} action(s); retrying later.`);
      }),
    );
  });

  scope.addEventListener("message", (event: ExtendableMessageEvent) => {
    if (isOnlineMessage(event.data)) event.waitUntil(replayAndReschedule(scope, options));
  });

  return replayAndReschedule(scope, options);
}

/** A replay outside a `sync` event: if it could not finish, ask for a Background Sync to finish it. */
async function replayAndReschedule(
  scope: ServiceWorkerGlobalScope,
  options: ReplayOptions,
): Promise<ReplaySummary | null> {
  try {
    const summary = await replayOutbox(options);
    if (worthRetrying(summary)) await requestBackgroundSync(scope.registration);
    return summary;
  } catch (error) {
    console.warn("Step sync replay failed", error);
    return null;
  }
}
