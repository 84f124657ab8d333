import { API_CACHE_NAME, clearApiCache } from "@charity-steps/client-store/api-cache";
import { LOGOUT_PATH } from "@charity-steps/shared-types";
import { registerRoute } from "workbox-routing";
import { NetworkFirst } from "workbox-strategies";
import { isCachedApiRead, isSaveAnsweringItsRead } from "./api-cache-rules";

/**
 * API reads go to the network first and fall back to the last answer when it fails, so the
 * charity, prize, groups and dashboard screens show what they last had; a save that answers what
 * its address reads (the walker's settings) replaces that read's copy. Signing out empties the
 * cache, so the next walker on the device never sees the last one's data.
 */
export function registerApiCache(
  scope: ServiceWorkerGlobalScope = self as unknown as ServiceWorkerGlobalScope,
): void {
  registerRoute(
    ({ url, request }) => isCachedApiRead(url, scope.location.origin, request.method),
    new NetworkFirst({ cacheName: API_CACHE_NAME }),
  );
  registerRoute(
    ({ url, request }) => isSaveAnsweringItsRead(url, scope.location.origin, request.method),
    async ({ request, event }) => {
      const response = await fetch(request);
      if (response.ok) {
        // Kept under the read's address (a GET), where NetworkFirst keeps the read's own answers.
        const copy = response.clone();
        event.waitUntil(caches.open(API_CACHE_NAME).then((cache) => cache.put(request.url, copy)));
      }
      return response;
    },
    "PUT",
  );
  scope.addEventListener("fetch", (event) => {
    if (new URL(event.request.url).pathname !== LOGOUT_PATH) return;
    // Emptied only when the server signs the walker out, which it answers with a redirect: a link
    // from another site gets a confirmation page instead, and the walker may stay signed in.
    event.respondWith(
      fetch(event.request).then((response) => {
        if (signsOut(response)) event.waitUntil(clearApiCache());
        return response;
      }),
    );
  });
}

/** A navigation's redirect reaches the worker opaque (status 0); a script's fetch follows it. */
function signsOut(response: Response): boolean {
  return (
    response.type === "opaqueredirect" ||
    response.redirected ||
    (response.status >= 300 && response.status < 400)
  );
}
