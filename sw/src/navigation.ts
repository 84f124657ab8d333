import { createHandlerBoundToURL } from "workbox-precaching";
import { NavigationRoute, registerRoute } from "workbox-routing";
import { SERVER_ROUTE_DENYLIST } from "./server-routes";

/** Every in-app navigation gets the precached shell, so the app opens offline on any route. */
export function registerNavigationFallback(): void {
  registerRoute(
    new NavigationRoute(createHandlerBoundToURL("/index.html"), {
      denylist: [...SERVER_ROUTE_DENYLIST],
    }),
  );
}
