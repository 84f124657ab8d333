/**
 * The names the page and the service worker agree on to replay the outbox, and the
 * page's request for a Background Sync, which lets the browser replay even after the tab closes.
 */

/** The Background Sync tag the service worker replays the outbox on. */
export const STEP_SYNC_TAG = "step_sync";
/** What the page posts to the controlling service worker when it comes back online. */
export const ONLINE_MESSAGE_TYPE = "ONLINE";

export interface OnlineMessage {
  type: typeof ONLINE_MESSAGE_TYPE;
}

export function isOnlineMessage(data: unknown): data is OnlineMessage {
  return (
    typeof data === "object" && data !== null && (data as { type?: unknown }).type === ONLINE_MESSAGE_TYPE
  );
}

// The Background Sync API is in no TypeScript lib yet.
interface SyncManagerLike {
  register(tag: string): Promise<void>;
}
interface RegistrationSource {
  getRegistration(): Promise<ServiceWorkerRegistration | undefined>;
}
type RegistrationWithSync = ServiceWorkerRegistration & { sync?: SyncManagerLike };

/**
 * Asks the browser to fire `sync` (tag `step_sync`) in the service worker once it is online.
 * Resolves to false where Background Sync is missing (Firefox, Safari) or no worker is registered:
 * those browsers are covered by the worker's start and the page's ONLINE message.
 */
export async function requestBackgroundSync(registration?: ServiceWorkerRegistration): Promise<boolean> {
  try {
    const target = (registration ?? (await currentRegistration())) as RegistrationWithSync | undefined;
    if (!target?.sync || typeof target.sync.register !== "function") return false;
    await target.sync.register(STEP_SYNC_TAG);
    return true;
  } catch (error) {
    // Permission refused or the worker went away: the other two replay paths still apply.
    console.warn("Background Sync registration failed", error);
    return false;
  }
}

async function currentRegistration(): Promise<ServiceWorkerRegistration | undefined> {
  // Typed structurally: this module is also compiled with the WebWorker lib, which has no Navigator.
  const container = (globalThis as { navigator?: { serviceWorker?: RegistrationSource } }).navigator
    ?.serviceWorker;
  // getRegistration, not `ready`: `ready` never settles when no worker is registered.
  return container ? container.getRegistration() : undefined;
}
