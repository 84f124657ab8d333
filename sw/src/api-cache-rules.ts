export { API_CACHE_NAME } from "@charity-steps/client-store/api-cache";

// Never cached: who is signed in (the page keeps that itself) and the sign-in/out redirects.
const NOT_CACHED = new Set(["/api/auth/user", "/api/login", "/api/logout", "/api/callback", "/api/health"]);

// Proof photos are private and large: the browser's own cache keeps them (`private`), not this one.
const NOT_CACHED_PREFIXES = ["/api/steps/photos/"];

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
