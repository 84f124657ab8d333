import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { buildApp } from "../../src/app.js";
import { CROSS_SITE_MESSAGE } from "../../src/plugins/csrf.js";
import { SERVER_ERROR_MESSAGE, UNSUPPORTED_BODY_MESSAGE } from "../../src/plugins/errors.js";
import {
  buildTestApp,
  createSignedInWalker,
  createTestDatabase,
  dialects,
  type TestApp,
  testConfig,
} from "../helper.js";

describe.each(dialects)("health, errors, CSRF and headers (%s)", (dialect) => {
  let testApp: TestApp;
  beforeAll(async () => {
    testApp = await buildTestApp(dialect);
  });
  afterAll(async () => testApp.close());

  it("reports health with the database in use", async () => {
    const response = await testApp.app.inject({ method: "GET", url: "/api/health" });
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual({ status: "ok", database: dialect });
  });

  it("answers an unknown API route with a JSON 404", async () => {
    const response = await testApp.app.inject({ method: "GET", url: "/api/no-such-thing" });
    expect(response.statusCode).toBe(404);
    expect(response.json()).toEqual({ message: "There is nothing at GET /api/no-such-thing." });
  });

  it("answers broken JSON, wrong content types and oversize bodies with a 4xx message", async () => {
    const { cookie } = await createSignedInWalker(testApp.app);
    const post = (headers: Record<string, string>, payload: string) =>
      testApp.app.inject({
        method: "POST",
        url: "/auth/interaction/abc/login",
        headers: { cookie, ...headers },
        payload,
      });

    const broken = await post({ "content-type": "application/json" }, "{not json");
    expect(broken.statusCode).toBe(400);
    expect(broken.json().message).toMatch(/JSON/);

    const wrongType = await post({ "content-type": "application/x-unknown" }, "x");
    expect(wrongType.statusCode).toBe(415);
    expect(wrongType.json().message).toBe(UNSUPPORTED_BODY_MESSAGE);

    // JSON labelled as plain text is a type the API does not take, not a body of the wrong shape.
    const plain = await testApp.app.inject({
      method: "POST",
      url: "/api/steps/sync",
      headers: { cookie, "content-type": "text/plain" },
      payload: JSON.stringify({ date: "2026-11-21", steps: 10, source: "device_motion" }),
    });
    expect(plain.statusCode).toBe(415);
    expect(plain.json().message).toBe(wrongType.json().message);

    const huge = await post(
      { "content-type": "application/json" },
      JSON.stringify({ email: "x".repeat(2_000_000) }),
    );
    expect(huge.statusCode).toBe(413);
    expect(typeof huge.json().message).toBe("string");
  });

  it("refuses a state-changing request from another site (CSRF), before anything else", async () => {
    for (const headers of [
      { "sec-fetch-site": "cross-site" },
      { "sec-fetch-site": "same-site" },
      { origin: "https://evil.example" },
    ]) {
      const response = await testApp.app.inject({
        method: "POST",
        url: "/auth/interaction/abc/login",
        headers: { ...headers, "content-type": "application/x-www-form-urlencoded" },
        payload: "email=a%40b.c&password=whatever",
      });
      expect(response.statusCode).toBe(403);
      expect(response.json()).toEqual({ message: CROSS_SITE_MESSAGE });
    }
    const sameOrigin = await testApp.app.inject({
      method: "POST",
      url: "/auth/interaction/abc/login",
      headers: { "sec-fetch-site": "same-origin", "content-type": "application/x-www-form-urlencoded" },
      payload: "email=a%40b.c&password=whatever",
    });
    // Past the CSRF check: the (unknown) sign-in page itself answers.
    expect(sameOrigin.statusCode).toBe(400);
  });

  it("sends security headers with a CSP that forbids inline script and framing", async () => {
    const response = await testApp.app.inject({ method: "GET", url: "/api/health" });
    const csp = response.headers["content-security-policy"];
    expect(csp).toContain("script-src 'self'");
    expect(csp).toContain("frame-ancestors 'none'");
    expect(csp).not.toMatch(/script-src[^;]*unsafe-inline/);
    expect(response.headers["x-content-type-options"]).toBe("nosniff");
    expect(response.headers["referrer-policy"]).toBe("strict-origin-when-cross-origin");
  });
});

describe("a failure on our side", () => {
  it("answers 500 with a plain message and no internals", async () => {
    const database = await createTestDatabase("sqlite", { migrated: true });
    const app = await buildApp(testConfig({ DATABASE_URL: database.url }), { logger: false });
    app.get("/api/test-failure", async () => {
      throw new Error("secret internals: password=hunter2 at /srv/app.ts:12");
    });
    try {
      const response = await app.inject({ method: "GET", url: "/api/test-failure" });
      expect(response.statusCode).toBe(500);
      expect(response.json()).toEqual({ message: SERVER_ERROR_MESSAGE });
      expect(response.body).not.toContain("hunter2");
    } finally {
      await app.close();
      await database.drop();
    }
  });
});
