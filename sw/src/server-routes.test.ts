import { describe, expect, it } from "vitest";
import { isServerRoute } from "./server-routes";

describe("navigations the service worker leaves to the server", () => {
  it.each([
    "/api/login",
    "/api/logout",
    "/api/auth/user",
    "/api",
    "/oidc/auth",
    "/oidc",
    "/auth/interaction/abc123",
  ])("sends %s to the network", (path) => {
    expect(isServerRoute(path)).toBe(true);
  });

  it.each(["/", "/dashboard", "/groups/12", "/terms", "/apis", "/authors", "/subscribe"])(
    "serves the app shell for %s",
    (path) => {
      expect(isServerRoute(path)).toBe(false);
    },
  );
});
