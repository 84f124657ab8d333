import { SERVER_PATH_PATTERNS } from "@charity-steps/shared-types";
import { createHandlerBoundToURL } from "workbox-precaching";
import { NavigationRoute, registerRoute } from "workbox-routing";

/** Every in-app navigation gets the precached shell, so the app opens offline on any route. */
export function registerNavigationFallback(): void {
  registerRoute(
    new NavigationRoute(createHandlerBoundToURL("/index.html"), {
      denylist: [...SERVER_PATH_PATTERNS],
    }),
  );
}
