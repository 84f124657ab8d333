/**
 * Noticing that the browser threw this app's IndexedDB away (storage eviction, "clear site data" for
 * storage only, a private-mode limit), so that the walker is told instead of seeing zeros.
 * A random marker is kept both in IndexedDB and in localStorage: a browser that clears one keeps
 * the other, so a marker left only in localStorage means the steps store was lost.
 */
import { getMeta, setMeta } from "./db";

export const STORE_MARKER_KEY = "charity-steps:store-marker";

export type StoreHealth =
  /** This browser's first visit (or everything was cleared): nothing to tell. */
  | "new"
  /** The store is the one this browser had. */
  | "intact"
  /** IndexedDB was emptied while localStorage kept the marker: unsynced steps may be gone. */
  | "lost";

export async function checkStoreHealth(
  storage: Pick<Storage, "getItem" | "setItem"> = localStorage,
): Promise<StoreHealth> {
  const inStore = await getMeta("storeMarker");
  const remembered = storage.getItem(STORE_MARKER_KEY);
  if (inStore !== undefined) {
    if (remembered !== inStore) storage.setItem(STORE_MARKER_KEY, inStore);
    return "intact";
  }
  const marker = crypto.randomUUID();
  await setMeta("storeMarker", marker);
  storage.setItem(STORE_MARKER_KEY, marker);
  return remembered === null ? "new" : "lost";
}

/**
 * Asks the browser to keep this app's storage under pressure (granted silently to installed PWAs
 * and sites used often); resolves to whether it is persisted.
 */
export async function requestPersistentStorage(): Promise<boolean> {
  // Asked after the store's check settles, which can be after the page has gone (a closed tab, a
  // test's torn-down page): with no navigator, there is nothing to persist.
  if (typeof navigator === "undefined" || !navigator.storage?.persist) return false;
  try {
    return (await navigator.storage.persisted()) || (await navigator.storage.persist());
  } catch {
    return false;
  }
}
