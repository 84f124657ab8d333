import { randomUUID } from "node:crypto";
import {
  ACCOUNT_MESSAGES,
  ACCOUNT_SESSIONS_PATH,
  type AccountSession,
  END_OTHER_SESSIONS_PATH,
} from "@charity-steps/shared-types";
import { Migrator } from "kysely";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { SESSION_TTL_MS } from "../../../../src/auth/sessions.js";
import { Database } from "../../../../src/db/database.js";
import { migrationProvider, migrations } from "../../../../src/db/migrations/index.js";
import {
  buildTestApp,
  createSignedInWalker,
  createTestDatabase,
  dialects,
  type TestApp,
} from "../../../helper.js";
import { accountClient } from "../../../support/account-data.js";

const ANDROID_CHROME =
  "Mozilla/5.0 (Linux; Android 14; Pixel 8) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/124.0.0.0 Mobile Safari/537.36";
const IPHONE_SAFARI =
  "Mozilla/5.0 (iPhone; CPU iPhone OS 17_4 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.4 Mobile/15E148 Safari/604.1";

describe.each(dialects)("signed-in devices (%s)", (dialect) => {
  let testApp: TestApp;
  beforeAll(async () => {
    testApp = await buildTestApp(dialect);
  });
  afterAll(async () => testApp?.close());

  /** A walker signed in on three browsers: this one (Chrome on Android), an iPhone, and one unknown. */
  const walkerOnThreeDevices = async () => {
    const { app } = testApp;
    const walker = await createSignedInWalker(app, "Devi");
    await app.database.db
      .updateTable("sessions")
      .set({ user_agent: ANDROID_CHROME })
      .where("user_id", "=", walker.user.id)
      .execute();
    const iphone = await app.repositories.sessions.open(
      walker.user.id,
      SESSION_TTL_MS,
      Date.now(),
      IPHONE_SAFARI,
    );
    const unknown = await app.repositories.sessions.open(walker.user.id, SESSION_TTL_MS, Date.now(), null);
    return {
      ...walker,
      api: accountClient(app, walker.cookie),
      iphone: accountClient(app, `cs_session=${iphone.token}`),
      unknown: accountClient(app, `cs_session=${unknown.token}`),
    };
  };

  it("lists the walker's sessions by public id and browser, this device marked; never the cookie's hash", async () => {
    const walker = await walkerOnThreeDevices();
    const response = await walker.api.get(ACCOUNT_SESSIONS_PATH);
    expect(response.statusCode, response.body).toBe(200);
    const list = response.json() as AccountSession[];
    expect(
      list
        .map(({ browser, current }) => ({ browser, current }))
        .sort((a, b) => a.browser.localeCompare(b.browser)),
    ).toEqual([
      { browser: "Chrome on Android", current: true },
      { browser: "Safari on iOS", current: false },
      { browser: "Unknown browser", current: false },
    ]);
    const hashes = await testApp.app.database.db
      .selectFrom("sessions")
      .select("id_hash")
      .where("user_id", "=", walker.user.id)
      .execute();
    for (const { id_hash } of hashes) expect(response.body).not.toContain(id_hash);
    for (const session of list) {
      expect(session.id).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/);
      expect(Date.parse(session.createdAt)).not.toBeNaN();
      expect(Date.parse(session.lastSeenAt)).not.toBeNaN();
    }
  });

  it("keeps the browser's User-Agent at sign-in, at most 256 characters", async () => {
    const { app } = testApp;
    const walker = await createSignedInWalker(app, "Long");
    await app.repositories.sessions.open(
      walker.user.id,
      SESSION_TTL_MS,
      Date.now(),
      `${ANDROID_CHROME} ${"x".repeat(1000)}`,
    );
    const stored = await app.database.db
      .selectFrom("sessions")
      .select("user_agent")
      .where("user_id", "=", walker.user.id)
      .where("user_agent", "is not", null)
      .executeTakeFirstOrThrow();
    expect(stored.user_agent).toHaveLength(256);
  });

  it("ends one device: its cookie gets 401 at once; another walker's id is 404", async () => {
    const walker = await walkerOnThreeDevices();
    const stranger = await walkerOnThreeDevices();
    const list = (await walker.api.get(ACCOUNT_SESSIONS_PATH)).json() as AccountSession[];
    const iphone = list.find((session) => session.browser === "Safari on iOS");
    if (!iphone) throw new Error("no iPhone session");

    const refused = await stranger.api.delete(`${ACCOUNT_SESSIONS_PATH}/${iphone.id}`);
    expect(refused.statusCode).toBe(404);
    expect(refused.json()).toEqual({ message: ACCOUNT_MESSAGES.sessionNotFound });
    expect((await walker.iphone.get("/api/auth/user")).statusCode).toBe(200);
    expect((await walker.api.delete(`${ACCOUNT_SESSIONS_PATH}/${randomUUID()}`)).statusCode).toBe(404);

    const ended = await walker.api.delete(`${ACCOUNT_SESSIONS_PATH}/${iphone.id}`);
    expect(ended.statusCode).toBe(204);
    expect((await walker.iphone.get("/api/auth/user")).statusCode).toBe(401);
    expect((await walker.api.get("/api/auth/user")).statusCode).toBe(200);
    expect((await walker.unknown.get("/api/auth/user")).statusCode).toBe(200);
    expect((await walker.api.delete(`${ACCOUNT_SESSIONS_PATH}/${iphone.id}`)).statusCode).toBe(404);
    expect((await walker.api.delete(`${ACCOUNT_SESSIONS_PATH}/not-an-id`)).statusCode).toBe(400);
  });

  it("signs out everywhere else: the others get 401, this device stays, the stranger's stay", async () => {
    const walker = await walkerOnThreeDevices();
    const stranger = await walkerOnThreeDevices();
    const response = await walker.api.post(END_OTHER_SESSIONS_PATH);
    expect(response.statusCode, response.body).toBe(200);
    expect(response.json()).toEqual({ ended: 2 });
    expect((await walker.iphone.get("/api/auth/user")).statusCode).toBe(401);
    expect((await walker.unknown.get("/api/auth/user")).statusCode).toBe(401);
    expect((await walker.api.get("/api/auth/user")).statusCode).toBe(200);
    expect((await stranger.iphone.get("/api/auth/user")).statusCode).toBe(200);
    const list = (await walker.api.get(ACCOUNT_SESSIONS_PATH)).json() as AccountSession[];
    expect(list).toHaveLength(1);
    expect((await walker.api.post(END_OTHER_SESSIONS_PATH)).json()).toEqual({ ended: 0 });
  });

  it("records the last use at most every few minutes, with no write in between and none on a refusal", async () => {
    const { app } = testApp;
    const walker = await createSignedInWalker(app, "Seen");
    const lastSeen = async () =>
      Number(
        (
          await app.database.db
            .selectFrom("sessions")
            .select("last_seen_at")
            .where("user_id", "=", walker.user.id)
            .executeTakeFirstOrThrow()
        ).last_seen_at,
      );
    const setLastSeen = (at: number) =>
      app.database.db
        .updateTable("sessions")
        .set({ last_seen_at: at })
        .where("user_id", "=", walker.user.id)
        .execute();
    const me = () => app.inject({ method: "GET", url: "/api/auth/user", headers: { cookie: walker.cookie } });

    const aMinuteAgo = Date.now() - 60_000;
    await setLastSeen(aMinuteAgo);
    expect((await me()).statusCode).toBe(200);
    expect(await lastSeen()).toBe(aMinuteAgo);

    const tenMinutesAgo = Date.now() - 10 * 60_000;
    await setLastSeen(tenMinutesAgo);
    // A refused request changes nothing stored, the last use included.
    const refused = await app.inject({
      method: "POST",
      url: "/api/groups",
      headers: { cookie: walker.cookie, "content-type": "application/json", "sec-fetch-site": "same-origin" },
      payload: JSON.stringify({ name: "" }),
    });
    expect(refused.statusCode).toBe(400);
    expect(await lastSeen()).toBe(tenMinutesAgo);
    const before = Date.now();
    expect((await me()).statusCode).toBe(200);
    expect(await lastSeen()).toBeGreaterThanOrEqual(before);
    // Only the last use moved: the rolling expiry is renewed on its own, hourly, schedule.
    const { renewed_at, created_at } = await app.database.db
      .selectFrom("sessions")
      .select(["renewed_at", "created_at"])
      .where("user_id", "=", walker.user.id)
      .executeTakeFirstOrThrow();
    expect(Number(renewed_at)).toBe(Number(created_at));
  });

  it("refuses a walker who is not signed in", async () => {
    const { app } = testApp;
    expect((await app.inject({ method: "GET", url: ACCOUNT_SESSIONS_PATH })).statusCode).toBe(401);
    expect(
      (
        await app.inject({
          method: "POST",
          url: END_OTHER_SESSIONS_PATH,
          headers: { "sec-fetch-site": "same-origin" },
        })
      ).statusCode,
    ).toBe(401);
  });
});

describe.each(dialects)("migration 0014 on sessions already open (%s)", (dialect) => {
  it("gives each its own public id and its last renewal as its last use, and goes down again", async () => {
    const testDatabase = await createTestDatabase(dialect);
    const database = Database.connect(testDatabase.url);
    try {
      const names = Object.keys(migrations).sort();
      const previous = names[names.indexOf("0014-session-devices") - 1];
      if (!previous) throw new Error("no migration before 0014");
      const migrator = new Migrator({ db: database.db, provider: migrationProvider });
      expect((await migrator.migrateTo(previous)).error).toBeUndefined();
      const db = database.db.withoutPlugins();
      await db
        .insertInto("users")
        .values({ id: "u1", issuer: "i", subject: "s", created_at: 1, updated_at: 1 })
        .execute();
      for (const [hash, renewed] of [
        ["h1", 1_000],
        ["h2", 2_000],
      ] as const) {
        await db
          .insertInto("sessions")
          .values({
            id_hash: hash,
            user_id: "u1",
            created_at: 1,
            expires_at: 9_999,
            renewed_at: renewed,
          } as never)
          .execute();
      }
      expect((await migrator.migrateTo("0014-session-devices")).error).toBeUndefined();
      const rows = await db
        .selectFrom("sessions")
        .select(["id_hash", "public_id", "last_seen_at", "user_agent"])
        .orderBy("id_hash")
        .execute();
      expect(rows.map((row) => [row.id_hash, Number(row.last_seen_at), row.user_agent])).toEqual([
        ["h1", 1_000, null],
        ["h2", 2_000, null],
      ]);
      const ids = rows.map((row) => row.public_id);
      for (const id of ids)
        expect(id).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
      expect(new Set(ids).size).toBe(2);

      expect((await migrator.migrateTo(previous)).error).toBeUndefined();
      expect((await migrator.migrateToLatest()).error).toBeUndefined();
    } finally {
      await database.close();
      await testDatabase.drop();
    }
  });
});
