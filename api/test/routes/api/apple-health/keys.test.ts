import { HEALTH_KEYS_PATH, MAX_STEP_IMPORT_KEYS } from "@charity-steps/shared-types";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { hashStepImportKey } from "../../../../src/repositories/step-import-keys.js";
import { APPLE_HEALTH_MESSAGES } from "../../../../src/routes/api/apple-health/index.js";
import { buildTestApp, dialects, type TestApp } from "../../../helper.js";
import { healthWalker, importCall } from "../../../support/apple-health.js";

describe.each(dialects)("step-import keys (%s)", (dialect) => {
  let testApp: TestApp;
  beforeAll(async () => {
    testApp = await buildTestApp(dialect);
  });
  afterAll(async () => {
    await testApp.close();
  });

  const storedKeys = (userId: string) =>
    testApp.app.database.db
      .selectFrom("step_import_keys")
      .selectAll()
      .where("user_id", "=", userId)
      .execute();

  it("creates a key shown once, and stores only its hash", async () => {
    const walker = await healthWalker(testApp.app);
    const created = await walker.account.createKey("Ana's iPhone");
    expect(created.statusCode).toBe(201);
    const body = created.json();
    expect(Object.keys(body).sort()).toEqual(["createdAt", "id", "key", "name"]);
    expect(body.name).toBe("Ana's iPhone");
    // 32 random bytes after the prefix: 256 bits.
    expect(body.key).toMatch(/^csk_[A-Za-z0-9_-]{43}$/);
    expect(Number.isNaN(Date.parse(body.createdAt))).toBe(false);

    const rows = await storedKeys(walker.user.id);
    expect(rows).toHaveLength(1);
    expect(rows[0]?.key_hash).toBe(hashStepImportKey(body.key));
    // The secret itself is in no column of the row.
    expect(JSON.stringify(rows[0])).not.toContain(body.key.slice(4));

    // Listed without the secret or its hash, ever again.
    const listed = await walker.account.listKeys();
    expect(listed.statusCode).toBe(200);
    expect(listed.json()).toEqual([
      { id: body.id, name: "Ana's iPhone", createdAt: body.createdAt, lastUsedAt: null },
    ]);
    expect(listed.body).not.toContain(body.key.slice(4));
    expect(listed.body).not.toContain(rows[0]?.key_hash);
  });

  it("lists the walker's keys newest first, and only theirs", async () => {
    const ana = await healthWalker(testApp.app, "Ana");
    const ben = await healthWalker(testApp.app, "Ben");
    await ana.newKey("Old iPhone");
    await new Promise((resolve) => setTimeout(resolve, 5));
    await ana.newKey("New iPhone");
    await ben.newKey("Ben's iPhone");
    expect((await ana.account.listKeys()).json().map((key: { name: string }) => key.name)).toEqual([
      "New iPhone",
      "Old iPhone",
    ]);
    expect((await ben.account.listKeys()).json().map((key: { name: string }) => key.name)).toEqual([
      "Ben's iPhone",
    ]);
  });

  it(`allows ${MAX_STEP_IMPORT_KEYS} keys per walker, and a new one once one is removed`, async () => {
    const walker = await healthWalker(testApp.app);
    const keys = [];
    for (let index = 1; index <= MAX_STEP_IMPORT_KEYS; index++)
      keys.push(await walker.newKey(`Phone ${index}`));
    const sixth = await walker.account.createKey("Phone 6");
    expect(sixth.statusCode).toBe(409);
    expect(sixth.json().message).toBe(
      "You already have 5 step-import keys: remove one you no longer use first.",
    );
    expect(await storedKeys(walker.user.id)).toHaveLength(MAX_STEP_IMPORT_KEYS);

    expect((await walker.account.revokeKey(keys[0]?.id ?? "")).statusCode).toBe(204);
    expect((await walker.account.createKey("Phone 6")).statusCode).toBe(201);
  });

  it("does not let creations at once pass the limit", async () => {
    const walker = await healthWalker(testApp.app);
    const answers = await Promise.all(
      Array.from({ length: 12 }, (_, index) => walker.account.createKey(`Phone ${index}`)),
    );
    const statuses = answers.map((answer) => answer.statusCode).sort();
    expect(statuses.filter((status) => status === 201)).toHaveLength(MAX_STEP_IMPORT_KEYS);
    expect(statuses.filter((status) => status === 409)).toHaveLength(12 - MAX_STEP_IMPORT_KEYS);
    expect(await storedKeys(walker.user.id)).toHaveLength(MAX_STEP_IMPORT_KEYS);
  });

  it("refuses a name that is empty, too long, several lines or not text", async () => {
    const walker = await healthWalker(testApp.app);
    const cases: [unknown, string][] = [
      ["", "name must not be empty."],
      ["   ", "name must not be empty."],
      ["x".repeat(61), "name must be at most 60 characters."],
      ["Ana's\niPhone", "name must not contain control characters."],
      [42, "name must be text."],
    ];
    for (const [name, message] of cases) {
      const response = await testApp.app.inject({
        method: "POST",
        url: HEALTH_KEYS_PATH,
        headers: { cookie: walker.cookie, "content-type": "application/json" },
        payload: JSON.stringify({ name }),
      });
      expect(response.statusCode, JSON.stringify(name)).toBe(400);
      expect(response.json().message).toBe(message);
    }
    expect((await walker.account.createKey("x".repeat(60))).statusCode).toBe(201);
    expect(await storedKeys(walker.user.id)).toHaveLength(1);
  });

  it("revokes a key at once: its next import is refused", async () => {
    const walker = await healthWalker(testApp.app);
    const { id, key } = await walker.newKey();
    expect((await importCall(testApp.app, { steps: 100 }, { key })).statusCode).toBe(200);

    const revoked = await walker.account.revokeKey(id);
    expect(revoked.statusCode).toBe(204);
    expect(revoked.body).toBe("");
    expect(await storedKeys(walker.user.id)).toEqual([]);

    const after = await importCall(testApp.app, { steps: 200 }, { key });
    expect(after.statusCode).toBe(401);
    expect(after.json().message).toBe(APPLE_HEALTH_MESSAGES.keyNotValid);
    // A second removal finds nothing.
    expect((await walker.account.revokeKey(id)).statusCode).toBe(404);
  });

  it("answers 404 for another walker's key and for an unknown id, and removes nothing", async () => {
    const ana = await healthWalker(testApp.app, "Ana");
    const ben = await healthWalker(testApp.app, "Ben");
    const anas = await ana.newKey();

    const othersKey = await ben.account.revokeKey(anas.id);
    const unknown = await ben.account.revokeKey("7d0c3c59-3b43-4c8e-9d0e-6c4f0a2b9e11");
    expect(othersKey.statusCode).toBe(404);
    expect(unknown.statusCode).toBe(404);
    // The same answer either way: whether the key exists is not Ben's to learn.
    expect(othersKey.json()).toEqual(unknown.json());
    expect(await storedKeys(ana.user.id)).toHaveLength(1);
    expect((await importCall(testApp.app, { steps: 100 }, { key: anas.key })).statusCode).toBe(200);
  });

  it("needs a session for every key call", async () => {
    const walker = await healthWalker(testApp.app);
    const { id, key } = await walker.newKey();
    const calls = [
      { method: "GET" as const, url: HEALTH_KEYS_PATH },
      { method: "POST" as const, url: HEALTH_KEYS_PATH, payload: { name: "Stolen" } },
      { method: "DELETE" as const, url: `${HEALTH_KEYS_PATH}/${id}` },
    ];
    for (const call of calls) {
      for (const headers of [{}, { authorization: `Bearer ${key}` }]) {
        const response = await testApp.app.inject({
          method: call.method,
          url: call.url,
          headers: { ...headers, ...(call.payload ? { "content-type": "application/json" } : {}) },
          ...(call.payload ? { payload: JSON.stringify(call.payload) } : {}),
        });
        expect(response.statusCode, `${call.method} ${call.url}`).toBe(401);
      }
    }
    expect(await storedKeys(walker.user.id)).toHaveLength(1);
  });

  it("refuses a key creation or removal made from another site", async () => {
    const walker = await healthWalker(testApp.app);
    const { id } = await walker.newKey();
    const created = await walker.account.createKey("Evil", { "sec-fetch-site": "cross-site" });
    expect(created.statusCode).toBe(403);
    const removed = await testApp.app.inject({
      method: "DELETE",
      url: `${HEALTH_KEYS_PATH}/${id}`,
      headers: { cookie: walker.cookie, origin: "https://evil.example" },
    });
    expect(removed.statusCode).toBe(403);
    expect(await storedKeys(walker.user.id)).toHaveLength(1);
  });
});
