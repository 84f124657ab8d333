/**
 * The service worker keeps the walker's last API answers under this cache name, for the screens to
 * show offline; it is emptied when the walker signs out or another walker signs in.
 */
export const API_CACHE_NAME = "charity-steps-api";

/** Empties the cached API answers (the page or the worker; nothing happens without Cache Storage). */
export async function clearApiCache(): Promise<void> {
  const storage = (globalThis as { caches?: CacheStorage }).caches;
  await storage?.delete(API_CACHE_NAME);
}
