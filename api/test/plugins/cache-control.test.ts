import { randomUUID } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { buildTestApp, createSignedInWalker, dialects, type TestApp } from "../helper.js";
import { TEST_TODAY, useTestClock } from "../support/clock.js";
import { manualForm, multipartBody, photo, stepsClient } from "../support/steps.js";

useTestClock();

/**
 * No cache keeps a walker's answers: after sign-out, nothing of theirs can be had back from the
 * browser's HTTP cache (the proof photo included). Routes that chose a policy keep it.
 */
describe.each(dialects)("Cache-Control on the API's answers (%s)", (dialect) => {
  let testApp: TestApp;
  beforeAll(async () => {
    testApp = await buildTestApp(dialect);
  });
  afterAll(async () => testApp.close());

  it("every signed-in read, and every refusal, says no-store", async () => {
    const walker = await createSignedInWalker(testApp.app, "Cached");
    const api = stepsClient(testApp.app, walker.cookie);
    const sync = await api.sync({ steps: 1200, date: TEST_TODAY, source: "device_motion" });
    expect(sync.headers["cache-control"]).toBe("no-store");
    for (const url of [
      "/api/auth/user",
      "/api/steps/today",
      "/api/steps/history",
      "/api/dashboard/stats",
      "/api/groups",
      "/api/charity/current",
      "/api/revenue/current",
    ]) {
      const response = await api.get(url);
      expect(response.statusCode, url).toBe(200);
      expect(response.headers["cache-control"], url).toBe("no-store");
    }
    for (const response of [
      await testApp.app.inject({ method: "GET", url: "/api/steps/today" }),
      await testApp.app.inject({ method: "GET", url: "/api/no-such-thing" }),
    ]) {
      expect(response.statusCode).toBeGreaterThanOrEqual(400);
      expect(response.headers["cache-control"]).toBe("no-store");
    }
  });

  it("a proof photo is not kept by the browser's cache either", async () => {
    const walker = await createSignedInWalker(testApp.app, "Photo");
    const { body, contentType } = multipartBody(
      manualForm({ steps: "2000", date: TEST_TODAY }, { bytes: await photo("png") }),
    );
    const entry = await testApp.app.inject({
      method: "POST",
      url: "/api/steps/add-manual-verified",
      headers: { cookie: walker.cookie, "content-type": contentType, "idempotency-key": randomUUID() },
      payload: body,
    });
    expect(entry.statusCode).toBe(201);
    const served = await stepsClient(testApp.app, walker.cookie).get(entry.json().entry.photoUrl);
    expect(served.statusCode).toBe(200);
    expect(served.headers["cache-control"]).toBe("no-store");
  });

  it("a route's own policy is kept", async () => {
    const openApi = await testApp.app.inject({ method: "GET", url: "/api/openapi.json" });
    // Its answer depends on who asks (operators see their routes): kept by the browser only.
    expect(openApi.headers["cache-control"]).toBe("private, no-cache");
  });
});
