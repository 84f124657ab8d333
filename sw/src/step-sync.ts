import {
  isOnlineMessage,
  isSyncLaterMessage,
  STEP_SYNC_QUEUE,
} from "@charity-steps/client-store/background-sync";
import {
  type ReplayOptions,
  type ReplaySummary,
  replayOutbox,
  worthRetrying,
} from "@charity-steps/client-store/outbox";
import { Queue } from "workbox-background-sync";

declare const self: ServiceWorkerGlobalScope;

/**
 * Replays the step outbox from the service worker. workbox-background-sync's Queue owns the
 * Background Sync registration and, where the browser has no Background Sync (Firefox, Safari),
 * replays when the worker starts; its `onSync` drains OUR outbox with the outbox's rules (an action
 * leaves only after a 2xx, a refusal goes to dead letters), never Workbox's default replay, which
 * drops a request on any 4xx/5xx. The queue itself never holds a request. The page's messages add
 * two triggers: ONLINE replays now, STEP_SYNC_LATER registers a sync for when the browser is online.
 */
export function registerStepSync(options: ReplayOptions = {}): Queue {
  const drain = async () => {
    const summary = await replayOutbox(options);
    // Rejecting a sync event tells the browser to fire it again later, with its own back-off.
    if (worthRetrying(summary)) throw new Error(`Step sync kept ${summary.kept} action(s); retrying later.`);
  };
  const queue = new Queue(STEP_SYNC_QUEUE, {
    // Without Background Sync the Queue runs this once as the worker starts, where nothing would
    // catch a rejection: the page's ONLINE message and the next start try again.
    onSync:
      "sync" in self.registration
        ? drain
        : () => drain().catch((error: unknown) => console.warn("Step sync replay at start failed", error)),
  });

  self.addEventListener("message", (event: ExtendableMessageEvent) => {
    if (isOnlineMessage(event.data)) event.waitUntil(replayAndReschedule(queue, options));
    else if (isSyncLaterMessage(event.data)) event.waitUntil(queue.registerSync());
  });
  return queue;
}

/** A replay outside a `sync` event: if it could not finish, a Background Sync finishes it. */
async function replayAndReschedule(queue: Queue, options: ReplayOptions): Promise<ReplaySummary | null> {
  try {
    const summary = await replayOutbox(options);
    if (worthRetrying(summary)) await queue.registerSync();
    return summary;
  } catch (error) {
    console.warn("Step sync replay failed", error);
    return null;
  }
}
