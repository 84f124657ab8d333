import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { CROSS_SITE_MESSAGE } from "../../../../src/plugins/csrf.js";
import { createSignedInWalker, dialects, type RunningServer, startTestServer } from "../../../helper.js";

/**
 * A link to /api/logout on another site must not sign a walker out behind their back: it gets a
 * page of this origin that asks, and only that page's button (a same-origin post) signs out. The
 * app's own Logout link and a typed URL still sign out at once.
 */
describe.each(dialects)("sign-out asked for by another site (%s)", (dialect) => {
  let server: RunningServer;
  beforeAll(async () => {
    // Listening: sign-out asks the built-in provider (this same server) where its own sign-out is.
    server = await startTestServer(dialect);
  });
  afterAll(async () => server.close());

  const stillSignedIn = async (cookie: string) =>
    (await server.app.inject({ method: "GET", url: "/api/auth/user", headers: { cookie } })).statusCode ===
    200;

  const logout = (method: "GET" | "POST", cookie: string, headers: Record<string, string>) =>
    server.app.inject({
      method,
      url: "/api/logout",
      headers: {
        cookie,
        ...(method === "POST" ? { "content-type": "application/x-www-form-urlencoded" } : {}),
        ...headers,
      },
      ...(method === "POST" ? { payload: "" } : {}),
    });

  it.each([
    ["a link on another site", { "sec-fetch-site": "cross-site" }],
    ["a link on a sibling origin", { "sec-fetch-site": "same-site" }],
    ["an older browser's link on another site", { referer: "https://evil.example/page" }],
  ])("%s gets a page asking to confirm, and the walker stays signed in", async (_label, headers) => {
    const walker = await createSignedInWalker(server.app, "Linked");
    const response = await logout("GET", walker.cookie, headers);
    expect(response.statusCode).toBe(200);
    expect(response.headers["content-type"]).toBe("text/html; charset=utf-8");
    expect(response.headers["cache-control"]).toBe("no-store");
    expect(response.headers["set-cookie"]).toBeUndefined();
    expect(response.body).toContain('<form method="post" action="/api/logout">');
    expect(response.body).toContain('<a href="/">Stay signed in</a>');
    // Under the app's CSP: no script at all.
    expect(response.body).not.toContain("<script");
    expect(response.headers["content-security-policy"]).toContain("script-src 'self'");
    expect(await stillSignedIn(walker.cookie)).toBe(true);
  });

  it.each([
    ["the app's Logout link", () => ({ "sec-fetch-site": "same-origin" })],
    ["a typed URL", () => ({ "sec-fetch-site": "none" })],
    ["an older browser's link on this site", () => ({ referer: `${server.origin}/dashboard` })],
    ["a client that is not a browser", () => ({})],
  ])("%s signs out at once", async (_label, headers) => {
    const walker = await createSignedInWalker(server.app, "Leaving");
    const response = await logout("GET", walker.cookie, headers());
    expect(response.statusCode).toBe(302);
    expect(await stillSignedIn(walker.cookie)).toBe(false);
  });

  it("the confirmation page's button signs out (a same-origin post)", async () => {
    const walker = await createSignedInWalker(server.app, "Confirming");
    const response = await logout("POST", walker.cookie, {
      "sec-fetch-site": "same-origin",
      origin: server.origin,
    });
    expect(response.statusCode).toBe(302);
    expect(response.headers["set-cookie"]).toMatch(/^cs_session=;/);
    expect(await stillSignedIn(walker.cookie)).toBe(false);
  });

  it("another site cannot post the sign-out itself", async () => {
    const walker = await createSignedInWalker(server.app, "Posted");
    const fromElsewhere: Record<string, string>[] = [
      { "sec-fetch-site": "cross-site" },
      { "sec-fetch-site": "same-site" },
      { origin: "https://evil.example" },
    ];
    for (const headers of fromElsewhere) {
      const response = await logout("POST", walker.cookie, headers);
      expect(response.statusCode).toBe(403);
      expect(response.json()).toEqual({ message: CROSS_SITE_MESSAGE });
    }
    expect(await stillSignedIn(walker.cookie)).toBe(true);
  });
});
