import { randomBytes, randomUUID } from "node:crypto";
import { IMPORT_CALLS_PER_MINUTE } from "@charity-steps/shared-types";
import type { FastifyInstance } from "fastify";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { buildApp } from "../../../../src/app.js";
import { CROSS_SITE_MESSAGE } from "../../../../src/plugins/csrf.js";
import { BAD_KEY_CALLS_PER_MINUTE } from "../../../../src/repositories/step-import-keys.js";
import { APPLE_HEALTH_MESSAGES } from "../../../../src/routes/api/apple-health/index.js";
import { buildTestApp, dialects, type TestApp, testConfig } from "../../../helper.js";
import { healthWalker, importCall, someAddress } from "../../../support/apple-health.js";

const NOW = new Date("2026-11-21T12:00:00Z");

describe.each(dialects)("the import route's credentials (%s)", (dialect) => {
  let testApp: TestApp;
  /** A second API process on the same database, as behind a load balancer. */
  let second: FastifyInstance;
  beforeAll(async () => {
    vi.useFakeTimers({ toFake: ["Date"] });
    vi.setSystemTime(NOW);
    testApp = await buildTestApp(dialect);
    second = await buildApp(testConfig({ DATABASE_URL: testApp.database.url }), { logger: false });
    await second.ready();
  });
  afterAll(async () => {
    await second.close();
    await testApp.close();
    vi.useRealTimers();
  });

  const storedSteps = async (userId: string) =>
    (
      await testApp.app.database.db
        .selectFrom("step_counters")
        .select("steps")
        .where("user_id", "=", userId)
        .execute()
    ).map((row) => row.steps);

  it("refuses a call without a working key, with a message that says where to get one", async () => {
    const walker = await healthWalker(testApp.app);
    const { key } = await walker.newKey();
    const { keyRequired, keyNotValid } = APPLE_HEALTH_MESSAGES;
    // No key at all says where to get one; a key that is wrong says so, and since a key is shown
    // only once, that the way on is a new one.
    expect(keyNotValid).toBe(
      "This step-import key is not valid: it was removed, or not pasted whole. Create a new key on the Account page (a key is shown only once) and paste it into the shortcut.",
    );
    const cases: Record<string, [Record<string, string>, string]> = {
      "no Authorization": [{}, keyRequired],
      "an empty Bearer": [{ authorization: "Bearer " }, keyRequired],
      "a key in another scheme": [{ authorization: `Basic ${key}` }, keyRequired],
      "the key alone": [{ authorization: key }, keyRequired],
      "the walker's session cookie": [{ cookie: walker.cookie }, keyRequired],
      "a malformed key": [{ authorization: "Bearer not-a-key" }, keyNotValid],
      "a key one character off": [
        { authorization: `Bearer ${key.slice(0, -1)}${key.endsWith("A") ? "B" : "A"}` },
        keyNotValid,
      ],
      "a key nobody holds": [
        { authorization: `Bearer csk_${randomBytes(32).toString("base64url")}` },
        keyNotValid,
      ],
    };
    for (const [label, [headers, message]] of Object.entries(cases)) {
      const response = await importCall(testApp.app, { steps: 500 }, { headers });
      expect(response.statusCode, label).toBe(401);
      expect(response.json(), label).toEqual({ message });
    }
    expect(await storedSteps(walker.user.id)).toEqual([]);
    // The scheme is read case-insensitively, as HTTP says.
    expect(
      (await importCall(testApp.app, { steps: 500 }, { headers: { authorization: `bearer ${key}` } }))
        .statusCode,
    ).toBe(200);
  });

  it("opens no other route with a key", async () => {
    const walker = await healthWalker(testApp.app);
    const { key } = await walker.newKey();
    const authorization = `Bearer ${key}`;
    const calls = [
      {
        method: "POST" as const,
        url: "/api/steps/sync",
        payload: { steps: 10, date: "2026-11-21", source: "apple_health" },
      },
      { method: "GET" as const, url: "/api/steps/today" },
      { method: "GET" as const, url: "/api/dashboard/stats" },
      { method: "GET" as const, url: "/api/auth/user" },
      { method: "GET" as const, url: "/api/health/keys" },
      { method: "POST" as const, url: "/api/health/keys", payload: { name: "Another" } },
    ];
    for (const call of calls) {
      const response = await testApp.app.inject({
        method: call.method,
        url: call.url,
        headers: { authorization, ...(call.payload ? { "content-type": "application/json" } : {}) },
        ...(call.payload ? { payload: JSON.stringify(call.payload) } : {}),
      });
      expect(response.statusCode, `${call.method} ${call.url}`).toBe(401);
    }
    expect(await storedSteps(walker.user.id)).toEqual([]);
    expect((await walker.account.listKeys()).json()).toHaveLength(1);
  });

  it("lets a Shortcut's call through (no Origin, no Sec-Fetch-Site), and refuses one a page of another site makes", async () => {
    const walker = await healthWalker(testApp.app);
    const { key } = await walker.newKey();
    expect((await importCall(testApp.app, { steps: 700 }, { key })).statusCode).toBe(200);
    const fromPages: Record<string, string>[] = [
      { "sec-fetch-site": "cross-site" },
      { "sec-fetch-site": "same-site" },
      { origin: "https://evil.example" },
    ];
    for (const headers of fromPages) {
      const response = await importCall(testApp.app, { steps: 9_000 }, { key, headers });
      expect(response.statusCode, JSON.stringify(headers)).toBe(403);
      expect(response.json().message).toBe(CROSS_SITE_MESSAGE);
    }
    expect(await storedSteps(walker.user.id)).toEqual([700]);
  });

  it(`stops a key past ${IMPORT_CALLS_PER_MINUTE} calls a minute, counted across API processes`, async () => {
    const walker = await healthWalker(testApp.app);
    const { key } = await walker.newKey();
    const other = await walker.newKey("Ana's iPad");
    // Half the calls to each process.
    for (let call = 1; call <= IMPORT_CALLS_PER_MINUTE; call++) {
      const app = call % 2 === 0 ? testApp.app : second;
      const response = await importCall(app, { steps: call }, { key });
      expect(response.statusCode, `call ${call}`).toBe(200);
    }
    const over = await importCall(second, { steps: 9_999 }, { key });
    expect(over.statusCode).toBe(429);
    expect(over.headers["retry-after"]).toBe("60");
    expect(over.json().message).toBe(APPLE_HEALTH_MESSAGES.tooManyCalls(60));
    expect(await storedSteps(walker.user.id)).toEqual([IMPORT_CALLS_PER_MINUTE]);
    // Another key of the walker's has its own count.
    expect((await importCall(testApp.app, { steps: 100 }, { key: other.key })).statusCode).toBe(200);

    vi.setSystemTime(new Date(NOW.getTime() + 20_000));
    try {
      const waiting = await importCall(testApp.app, { steps: 9_999 }, { key });
      expect(waiting.statusCode).toBe(429);
      expect(waiting.headers["retry-after"]).toBe("40");
      // The minute over, the key imports again.
      vi.setSystemTime(new Date(NOW.getTime() + 60_000));
      expect((await importCall(testApp.app, { steps: 9_999 }, { key })).statusCode).toBe(200);
    } finally {
      vi.setSystemTime(NOW);
    }
    // Housekeeping drops the windows that have ended, and only those.
    vi.setSystemTime(new Date(NOW.getTime() + 61_000));
    try {
      const dropped = await testApp.app.repositories.stepImportKeys.deleteExpiredCalls();
      expect(dropped).toBeGreaterThan(0);
      expect((await importCall(testApp.app, { steps: 10 }, { key })).statusCode).toBe(200);
    } finally {
      vi.setSystemTime(NOW);
    }
  });

  it(`stops an address past ${BAD_KEY_CALLS_PER_MINUTE} bad-key calls a minute, before looking keys up`, async () => {
    const walker = await healthWalker(testApp.app);
    const { key } = await walker.newKey();
    const address = someAddress();
    const guess = () => `csk_${randomBytes(32).toString("base64url")}`;
    // Good calls from the address do not count against it.
    for (let call = 0; call < 5; call++) {
      expect(
        (await importCall(testApp.app, { steps: 100 }, { key, remoteAddress: address })).statusCode,
      ).toBe(200);
    }
    for (let call = 1; call <= BAD_KEY_CALLS_PER_MINUTE; call++) {
      const app = call % 2 === 0 ? testApp.app : second;
      expect((await importCall(app, { steps: 1 }, { key: guess(), remoteAddress: address })).statusCode).toBe(
        401,
      );
    }
    const lookups = vi.spyOn(testApp.app.repositories.stepImportKeys, "findHolder");
    try {
      const stopped = await importCall(testApp.app, { steps: 1 }, { key: guess(), remoteAddress: address });
      expect(stopped.statusCode).toBe(429);
      expect(stopped.headers["retry-after"]).toBe("60");
      expect(stopped.json().message).toBe(APPLE_HEALTH_MESSAGES.tooManyBadKeys(60));
      // Even a good key waits from that address for the rest of the minute; elsewhere it works.
      expect(
        (await importCall(testApp.app, { steps: 200 }, { key, remoteAddress: address })).statusCode,
      ).toBe(429);
      expect(lookups).not.toHaveBeenCalled();
    } finally {
      lookups.mockRestore();
    }
    expect(
      (await importCall(testApp.app, { steps: 300 }, { key, remoteAddress: someAddress() })).statusCode,
    ).toBe(200);
    expect(await storedSteps(walker.user.id)).toEqual([300]);

    vi.setSystemTime(new Date(NOW.getTime() + 60_000));
    try {
      expect(
        (await importCall(testApp.app, { steps: 400 }, { key, remoteAddress: address })).statusCode,
      ).toBe(200);
    } finally {
      vi.setSystemTime(NOW);
    }
  });

  it("never refuses a burst of good calls from one address for bad keys, and counts a key removed meanwhile as not valid", async () => {
    const walker = await healthWalker(testApp.app);
    const { key } = await walker.newKey();
    const address = someAddress();
    // More good calls at once than the address may send bad ones in a minute.
    const answers = await Promise.all(
      Array.from({ length: BAD_KEY_CALLS_PER_MINUTE + 10 }, (_, call) =>
        importCall(testApp.app, { steps: 100 + call }, { key, remoteAddress: address }),
      ),
    );
    expect(answers.map((answer) => answer.statusCode)).toEqual(answers.map(() => 200));
    // A key removed between its look-up and its count is as unknown as one never made.
    expect(await testApp.app.repositories.stepImportKeys.countCall(randomUUID(), 60)).toBeNull();
  });
});
