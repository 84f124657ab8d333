import {
  ACCOUNT_PREFERENCES_PATH,
  CHARITY_IMPACT_PATH,
  NOTIFICATION_PREFERENCES_PATH,
  OPERATOR_API_PREFIX,
} from "@charity-steps/shared-types";

/*
 * What is cached where. The API answers every read `Cache-Control: no-store`, so the browser's HTTP
 * cache keeps none of them. This worker keeps its own copy of the reads below in Cache Storage for
 * offline use: a Cache Storage put does not look at `no-store` (Workbox's NetworkFirst stores any
 * 200), so these copies exist on purpose, are the walker's own, and are emptied at sign-out, when
 * another walker signs in on the device, and when any API answer is 401 (`apiRequest`, which both
 * the page and this worker call the API with).
 */

// Never cached: who is signed in (the page keeps that itself), the sign-in/out redirects, and the
// charities' public impact (everyone's numbers, not the walker's: a signed-out visitor's landing page
// asks for it too, and must leave nothing in the walker's cache).
const NOT_CACHED = new Set([
  "/api/auth/user",
  "/api/login",
  "/api/logout",
  "/api/callback",
  "/api/health",
  CHARITY_IMPACT_PATH,
]);

// Proof photos are private and large: kept by no cache at all, this one included. The same goes
// for the walker's data export, a ZIP of everything with all their photos, and for everything an
// operator reads (walkers' names, emails and photos in the review queue, postal entries, the draw's
// winners): an operator's device keeps none of it once the answer is shown.
const NOT_CACHED_PREFIXES = ["/api/steps/photos/", "/api/account/export", OPERATOR_API_PREFIX];

/** A photo, wherever it is served from (`…/photos/…`, `…/photo`). */
const PHOTO_PATH = /\/photos?(\/|$)/;

/** True for the API reads worth keeping for offline: same-origin GETs under /api/ with data. */
export function isCachedApiRead(url: URL, origin: string, method: string): boolean {
  return (
    method === "GET" &&
    url.origin === origin &&
    url.pathname.startsWith("/api/") &&
    !NOT_CACHED.has(url.pathname) &&
    !NOT_CACHED_PREFIXES.some((prefix) => url.pathname.startsWith(prefix)) &&
    !PHOTO_PATH.test(url.pathname)
  );
}

/**
 * Saves whose answer is all of what a read of the same address answers: the walker's settings
 * (goal, theme, emails) and their notification preferences. The screens show a save's answer
 * without reading again, so the worker keeps that answer as the read's copy; otherwise a visit with
 * no signal would show the settings as they were before the save.
 */
const SAVES_ANSWERING_THEIR_READ = new Set([ACCOUNT_PREFERENCES_PATH, NOTIFICATION_PREFERENCES_PATH]);

/** True for a same-origin save whose answer the worker keeps as the copy of its address's read. */
export function isSaveAnsweringItsRead(url: URL, origin: string, method: string): boolean {
  return (
    method === "PUT" &&
    url.origin === origin &&
    SAVES_ANSWERING_THEIR_READ.has(url.pathname) &&
    isCachedApiRead(url, origin, "GET")
  );
}
