import { clearApiCache } from "@charity-steps/client-store/api-cache";
import { LOGOUT_PATH } from "@charity-steps/shared-types";
import { registerRoute } from "workbox-routing";
import { NetworkFirst } from "workbox-strategies";
import { API_CACHE_NAME, isCachedApiRead } from "./api-cache-rules";

/**
 * API reads go to the network first and fall back to the last answer when it fails, so the
 * charity, prize, groups and dashboard screens show what they last had. Signing out empties the
 * cache, so the next walker on the device never sees the last one's data.
 */
export function registerApiCache(
  scope: ServiceWorkerGlobalScope = self as unknown as ServiceWorkerGlobalScope,
): void {
  registerRoute(
    ({ url, request }) => isCachedApiRead(url, scope.location.origin, request.method),
    new NetworkFirst({ cacheName: API_CACHE_NAME }),
  );
  scope.addEventListener("fetch", (event) => {
    if (new URL(event.request.url).pathname === LOGOUT_PATH) event.waitUntil(clearApiCache());
  });
}
