export { API_CACHE_NAME } from "@charity-steps/client-store/api-cache";

/*
 * What is cached where. The API answers every read `Cache-Control: no-store`, so the browser's HTTP
 * cache keeps none of them. This worker keeps its own copy of the reads below in Cache Storage for
 * offline use: a Cache Storage put does not look at `no-store` (Workbox's NetworkFirst stores any
 * 200), so these copies exist on purpose, are the walker's own, and are emptied at sign-out and when
 * another walker signs in on the device.
 */

// Never cached: who is signed in (the page keeps that itself) and the sign-in/out redirects.
const NOT_CACHED = new Set(["/api/auth/user", "/api/login", "/api/logout", "/api/callback", "/api/health"]);

// Proof photos are private and large: kept by no cache at all, this one included. The same goes
// for the walker's data export, a ZIP of everything with all their photos.
const NOT_CACHED_PREFIXES = ["/api/steps/photos/", "/api/account/export"];

/** True for the API reads worth keeping for offline: same-origin GETs under /api/ with data. */
export function isCachedApiRead(url: URL, origin: string, method: string): boolean {
  return (
    method === "GET" &&
    url.origin === origin &&
    url.pathname.startsWith("/api/") &&
    !NOT_CACHED.has(url.pathname) &&
    !NOT_CACHED_PREFIXES.some((prefix) => url.pathname.startsWith(prefix))
  );
}
