import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { buildTestApp, createSignedInWalker, type TestApp } from "../helper.js";

const APP_PAGE = "<!doctype html><title>app</title><div id=root></div>";
const LANDING_PAGE = "<!doctype html><title>landing</title><h1>Every step you walk helps a charity</h1>";

/**
 * What a browser is sent at `/`: the landing page's HTML when it holds no session, the app when it
 * does. The choice reads only the request's cookie, so one database shows it.
 */
describe("the web app's home page", () => {
  let testApp: TestApp;
  let dist: string;
  beforeAll(async () => {
    dist = mkdtempSync(join(tmpdir(), "web-dist-"));
    writeFileSync(join(dist, "index.html"), APP_PAGE);
    writeFileSync(join(dist, "landing.html"), LANDING_PAGE);
    testApp = await buildTestApp("sqlite", { WEB_DIST_DIR: dist });
  });
  afterAll(async () => {
    await testApp.close();
    rmSync(dist, { recursive: true, force: true });
  });

  const home = (cookie?: string, method: "GET" | "HEAD" = "GET") =>
    testApp.app.inject({ method, url: "/", headers: { accept: "text/html", ...(cookie ? { cookie } : {}) } });

  it("sends a browser with no session the landing page's HTML, never kept stale", async () => {
    const response = await home();
    expect(response.statusCode).toBe(200);
    expect(response.headers["content-type"]).toContain("text/html");
    expect(response.body).toBe(LANDING_PAGE);
    expect(response.headers["cache-control"]).toBe("no-cache");
    // A cache must not hand a signed-in walker the page it kept for a visitor, or the other way.
    expect(response.headers.vary).toContain("Cookie");
    expect((await home(undefined, "HEAD")).statusCode).toBe(200);
  });

  it("sends a signed-in walker the app, and a lapsed session too (the app shows it the landing page)", async () => {
    const walker = await createSignedInWalker(testApp.app, "Home");
    const signedIn = await home(walker.cookie);
    expect(signedIn.statusCode).toBe(200);
    expect(signedIn.body).toBe(APP_PAGE);
    expect(signedIn.headers.vary).toContain("Cookie");
    expect((await home("cs_session=not-a-session-anyone-holds")).body).toBe(APP_PAGE);
    // Another site's cookies are no session.
    expect((await home("theme=dark; other=1")).body).toBe(LANDING_PAGE);
  });

  it("sends the app for every other page, whoever asks", async () => {
    for (const url of ["/dashboard", "/terms", "/groups/join/ABC123"]) {
      const response = await testApp.app.inject({ method: "GET", url, headers: { accept: "text/html" } });
      expect(response.statusCode, url).toBe(200);
      expect(response.body, url).toBe(APP_PAGE);
    }
  });
});

describe("the web app's home page before the build has drawn the landing page", () => {
  it("is the app, as before", async () => {
    const dist = mkdtempSync(join(tmpdir(), "web-dist-"));
    writeFileSync(join(dist, "index.html"), APP_PAGE);
    const testApp = await buildTestApp("sqlite", { WEB_DIST_DIR: dist });
    try {
      const response = await testApp.app.inject({
        method: "GET",
        url: "/",
        headers: { accept: "text/html" },
      });
      expect(response.statusCode).toBe(200);
      expect(response.body).toBe(APP_PAGE);
    } finally {
      await testApp.close();
      rmSync(dist, { recursive: true, force: true });
    }
  });
});
