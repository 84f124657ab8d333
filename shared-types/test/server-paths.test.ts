import { describe, expect, it } from "vitest";
import { isServerPath } from "../src/server-paths.js";

describe("paths the server answers itself (never the app shell)", () => {
  it.each([
    "/api/login",
    "/api/logout",
    "/api/auth/user",
    "/api",
    "/oidc/auth",
    "/oidc",
    "/auth/interaction/abc123",
  ])("sends %s to the network", (path) => {
    expect(isServerPath(path)).toBe(true);
  });

  it.each(["/", "/dashboard", "/groups/12", "/terms", "/apis", "/authors", "/subscribe"])(
    "serves the app shell for %s",
    (path) => {
      expect(isServerPath(path)).toBe(false);
    },
  );
});
