/**
 * The messages the page and the service worker agree on to replay the outbox. The worker owns the
 * Background Sync registration (a workbox-background-sync Queue whose replay is the outbox's own);
 * the page only asks it, by message, to replay now or to register a sync for later.
 */

/** The Queue's name: its Background Sync tag is `workbox-background-sync:step_sync`. */
export const STEP_SYNC_QUEUE = "step_sync";
/** What the page posts to the service worker when it comes back online: replay now. */
export const ONLINE_MESSAGE_TYPE = "ONLINE";
/** What the page posts when its own replay could not finish: replay by Background Sync later. */
export const SYNC_LATER_MESSAGE_TYPE = "STEP_SYNC_LATER";

export interface StepSyncMessage {
  type: typeof ONLINE_MESSAGE_TYPE | typeof SYNC_LATER_MESSAGE_TYPE;
}

function hasType(data: unknown, type: string): boolean {
  return typeof data === "object" && data !== null && (data as { type?: unknown }).type === type;
}

export function isOnlineMessage(data: unknown): data is StepSyncMessage {
  return hasType(data, ONLINE_MESSAGE_TYPE);
}

export function isSyncLaterMessage(data: unknown): data is StepSyncMessage {
  return hasType(data, SYNC_LATER_MESSAGE_TYPE);
}

interface ServiceWorkerSource {
  getRegistration(): Promise<{ active: { postMessage(message: unknown): void } | null } | undefined>;
}

/**
 * Asks the service worker to replay the outbox by Background Sync once the browser is online, even
 * after the tab closes. Where Background Sync is missing (Firefox, Safari) the worker replays on its
 * next start and on the page's ONLINE message instead. Resolves to false when no worker is active.
 */
export async function requestBackgroundSync(): Promise<boolean> {
  // Typed structurally: this module is also compiled with the WebWorker lib, which has no Navigator.
  const container = (globalThis as { navigator?: { serviceWorker?: ServiceWorkerSource } }).navigator
    ?.serviceWorker;
  try {
    // The registration's active worker, not `controller`: a page opened with a hard reload has no
    // controller, yet the worker is there.
    const worker = (await container?.getRegistration())?.active;
    if (!worker) return false;
    worker.postMessage({ type: SYNC_LATER_MESSAGE_TYPE } satisfies StepSyncMessage);
    return true;
  } catch (error) {
    console.warn("Could not ask the service worker for a Background Sync", error);
    return false;
  }
}
