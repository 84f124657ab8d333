import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { CROSS_SITE_MESSAGE } from "../../src/plugins/csrf.js";
import { buildTestApp, dialects, type TestApp } from "../helper.js";
import { groupsWalker } from "../support/groups.js";

/** What another site's page (or a sibling origin on the same site) says about its requests. */
const FROM_ELSEWHERE = [
  { "sec-fetch-site": "cross-site" },
  { "sec-fetch-site": "same-site" },
  { origin: "https://evil.example" },
  { origin: "null" },
];

/** Spellings of /api/groups a router may take for it (or that only a check on the raw text would miss). */
const SPELLINGS = [
  "/%61pi/groups",
  "/%61%70%69/groups",
  "/api/%67roups",
  "/%2561pi/groups",
  "//api/groups",
  "/api//groups",
  "/./api/groups",
  "/API/groups",
  "/Api/Groups",
  "/api/groups/",
  "/api/groups?x=/api/",
];

describe.each(dialects)("the cross-site check, however the path is written (%s)", (dialect) => {
  let testApp: TestApp;
  beforeAll(async () => {
    testApp = await buildTestApp(dialect);
  });
  afterAll(async () => testApp.close());

  const groupCount = async () =>
    Number(
      (
        await testApp.app.database.db
          .selectFrom("groups")
          .select((eb) => eb.fn.countAll().as("n"))
          .executeTakeFirstOrThrow()
      ).n,
    );

  it("the router takes an encoded path for the route it names (so the check cannot read the text)", async () => {
    const walker = await groupsWalker(testApp.app, "Encoded");
    const response = await testApp.app.inject({
      method: "POST",
      url: "/%61pi/groups",
      headers: { cookie: walker.cookie, "content-type": "application/json", "sec-fetch-site": "same-origin" },
      payload: JSON.stringify({ name: "Spelt oddly", description: "" }),
    });
    expect(response.statusCode).toBe(201);
  });

  it.each(SPELLINGS)("refuses a group made from another site at %s, and stores nothing", async (url) => {
    const walker = await groupsWalker(testApp.app, "Target");
    const before = await groupCount();
    for (const headers of FROM_ELSEWHERE) {
      const response = await testApp.app.inject({
        method: "POST",
        url,
        headers: { cookie: walker.cookie, "content-type": "application/json", ...headers },
        payload: JSON.stringify({ name: "Planted", description: "" }),
      });
      expect(response.statusCode, JSON.stringify(headers)).toBe(403);
      expect(response.json()).toEqual({ message: CROSS_SITE_MESSAGE });
    }
    expect(await groupCount()).toBe(before);
  });

  it("a no-cors request from a sibling origin cannot make a member leave, however the path is written", async () => {
    const admin = await groupsWalker(testApp.app, "Admin");
    const member = await groupsWalker(testApp.app, "Member");
    const group = (await admin.api.createGroup("Sibling walk", "")).json();
    expect((await member.api.join(group.joinCode)).statusCode).toBe(201);
    for (const url of [
      `/%61pi/groups/${group.id}/leave`,
      `/api/groups/${group.id}/%6Ceave`,
      // "%3" and the id's first digit is that digit encoded: %312 is 12.
      `/api/groups/%3${group.id}/leave`,
      `//api/groups/${group.id}/leave`,
      `/API/groups/${group.id}/leave`,
    ]) {
      // What fetch(url, { method: "POST", mode: "no-cors", credentials: "include" }) sends.
      const response = await testApp.app.inject({
        method: "POST",
        url,
        headers: { cookie: member.cookie, "sec-fetch-site": "same-site", "content-type": "text/plain" },
        payload: "",
      });
      expect(response.statusCode, url).toBe(403);
    }
    const members = await admin.api.get(`/api/groups/${group.id}/members`);
    // The admin and the member, still.
    expect(members.json()).toHaveLength(2);
  });

  it("refuses every state-changing method from another site on any path, the provider's included", async () => {
    for (const [method, url] of [
      ["DELETE", "/%61pi/groups/1"],
      ["PUT", "/api/groups/1"],
      ["PATCH", "/api/groups/1"],
      ["POST", "/oidc/token"],
      ["POST", "/%6Fidc/session/end/confirm"],
      ["POST", "/auth/interaction/abc/login"],
      ["POST", "/no-such-place"],
    ] as const) {
      const response = await testApp.app.inject({
        method,
        url,
        headers: { "sec-fetch-site": "cross-site" },
      });
      expect(response.statusCode, `${method} ${url}`).toBe(403);
    }
  });

  it("lets this origin's own pages, user-typed requests and non-browser clients through", async () => {
    const walker = await groupsWalker(testApp.app, "Own");
    for (const headers of [
      { "sec-fetch-site": "same-origin" },
      { "sec-fetch-site": "none" },
      { "sec-fetch-site": "same-origin", origin: "http://localhost:3000" },
      { origin: "http://localhost:3000" },
      {},
    ]) {
      const response = await testApp.app.inject({
        method: "POST",
        url: "/api/groups",
        headers: { cookie: walker.cookie, "content-type": "application/json", ...headers },
        payload: JSON.stringify({ name: "Our own", description: "" }),
      });
      expect(response.statusCode, JSON.stringify(headers)).toBe(201);
    }
  });
});
