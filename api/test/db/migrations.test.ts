import { Migrator, NO_MIGRATIONS, sql } from "kysely";
import { afterEach, describe, expect, it } from "vitest";
import { Database } from "../../src/db/database.js";
import { migrationProvider, migrations } from "../../src/db/migrations/index.js";
import { createTestDatabase, dialects, type TestDatabase } from "../helper.js";
import { queryWithPlans } from "../support/plans.js";

const TABLES = [
  "account_tokens",
  "app_secrets",
  "audit_log",
  "challenge_members",
  "challenges",
  "daily_goals",
  "day_reviews",
  "draw_prizes",
  "draw_tickets",
  "draws",
  "group_members",
  "groups",
  "idempotency_records",
  "local_accounts",
  "mail_outbox",
  "manual_step_entries",
  "notification_settings",
  "notifications",
  "oidc_payloads",
  "pace_reviews",
  "postal_entries",
  "push_outbox",
  "push_subscriptions",
  "sessions",
  "sign_in_devices",
  "sign_in_failures",
  "sign_up_attempts",
  "step_counters",
  "step_days",
  "step_import_calls",
  "step_import_keys",
  "step_months",
  "step_photos",
  "streak_reminder_checks",
  "subscription_payments",
  "user_badges",
  "users",
];

describe.each(dialects)("migrations (%s)", (dialect) => {
  let testDb: TestDatabase;
  let database: Database;
  afterEach(async () => {
    await database.close();
    await testDb.drop();
  });

  const appTables = async () =>
    (await database.db.introspection.getTables())
      .map((table) => table.name)
      .filter((name) => !name.startsWith("kysely_"))
      .sort();

  /** A walker row, for tables that refer to one. */
  const addWalker = (id: string) =>
    database.db
      .insertInto("users")
      .values({ id, issuer: "https://id.test", subject: id, created_at: 1, updated_at: 1 })
      .execute();

  it("creates every table on an empty database, and a second run changes nothing", async () => {
    testDb = await createTestDatabase(dialect);
    database = Database.connect(testDb.url);

    await database.migrateToLatest();
    expect(await appTables()).toEqual(TABLES);
    await database.migrateToLatest();

    const applied = await new Migrator({ db: database.db, provider: migrationProvider }).getMigrations();
    expect(applied.map((migration) => [migration.name, migration.executedAt !== undefined])).toEqual(
      Object.keys(migrations).map((name) => [name, true]),
    );
  });

  it("migrates down to nothing and up again", async () => {
    testDb = await createTestDatabase(dialect);
    database = Database.connect(testDb.url);
    await database.migrateToLatest();
    const migrator = new Migrator({ db: database.db, provider: migrationProvider });

    const down = await migrator.migrateTo(NO_MIGRATIONS);
    expect(down.error).toBeUndefined();
    expect(await appTables()).toEqual([]);

    await database.migrateToLatest();
    expect(await appTables()).toEqual(TABLES);
  });

  it("0008 puts the ledger's write path in PostgreSQL functions (none on SQLite), and takes them out again", async () => {
    testDb = await createTestDatabase(dialect);
    database = Database.connect(testDb.url);
    await database.migrateToLatest();
    const functions = async () => {
      if (dialect === "sqlite") return [];
      const { rows } = await sql<{ proname: string }>`
        select proname from pg_proc where pronamespace = 'public'::regnamespace order by proname
      `.execute(database.db);
      return rows.map((row) => row.proname);
    };
    // With them, 0015's trigger function that keeps the audit log append-only.
    expect(await functions()).toEqual(
      dialect === "postgres" ? ["audit_log_append_only", "record_step_counts", "recount_step_days"] : [],
    );

    const migrator = new Migrator({ db: database.db, provider: migrationProvider });
    expect((await migrator.migrateTo("0007-ledger-without-rowid")).error).toBeUndefined();
    expect(await functions()).toEqual([]);
    // Every table but those of later migrations (0010's sign-up throttle, 0011's step-import keys,
    // 0012's mail queue, 0013's account tokens, 0015's audit log and postal entries, 0016's draws, 0017's tickets and prizes, 0018's pace reviews, 0020's day reviews, 0021's daily goals, and the later ones' badges and notifications).
    const later = [
      "sign_up_attempts",
      "step_import_calls",
      "step_import_keys",
      "mail_outbox",
      "account_tokens",
      "audit_log",
      "postal_entries",
      "draws",
      "draw_tickets",
      "draw_prizes",
      "pace_reviews",
      "day_reviews",
      "daily_goals",
      "user_badges",
      "notifications",
      "notification_settings",
      "push_subscriptions",
      "push_outbox",
      "sign_in_devices",
      "streak_reminder_checks",
      "challenges",
      "challenge_members",
    ];
    expect(await appTables()).toEqual(TABLES.filter((table) => !later.includes(table)));
  });

  it("0009 keeps the ledger functions' plans for the connection, made to read by key even on near-empty tables", async () => {
    testDb = await createTestDatabase(dialect);
    database = Database.connect(testDb.url);
    await database.migrateToLatest();
    const migrator = new Migrator({ db: database.db, provider: migrationProvider });
    if (dialect === "sqlite") {
      // Nothing to change on SQLite: both ways succeed and leave the tables as they were.
      expect((await migrator.migrateTo("0008-ledger-functions")).error).toBeUndefined();
      expect((await migrator.migrateToLatest()).error).toBeUndefined();
      expect(await appTables()).toEqual(TABLES);
      return;
    }
    const settings = async () => {
      const { rows } = await sql<{ proname: string; proconfig: string[] }>`
        select proname, proconfig from pg_proc where pronamespace = 'public'::regnamespace order by proname
      `.execute(database.db);
      return rows.map((row) => [row.proname, row.proconfig]);
    };
    const kept = ["plan_cache_mode=force_generic_plan", "enable_seqscan=off"];
    expect(await settings()).toEqual([
      ["audit_log_append_only", null],
      ["record_step_counts", kept],
      ["recount_step_days", kept],
    ]);

    // The risky case: the plans are made while PostgreSQL knows the tables to be a page long, where
    // scanning a table whole is the cheapest way to find a day's counters, and then kept.
    const { db } = database;
    await addWalker("u1");
    const counter = {
      user_id: "u1",
      counter_id: "device:a",
      kind: "motion" as const,
      source: "iphone_motion",
    };
    await db
      .insertInto("step_counters")
      .values({ ...counter, day: "2026-11-01", steps: 10, updated_at: 1 })
      .execute();
    await sql`analyze`.execute(db);
    const counters = JSON.stringify([{ ...counter, day: "2026-11-02", steps: 20 }]);
    const reads = JSON.stringify([
      { i: 0, user_id: "u1", day: "2026-11-02", today: "2026-11-02", month: "2026-11" },
    ]);
    const { rows, plans } = await queryWithPlans(
      testDb.url,
      "select day_steps, monthly_steps from record_step_counts($1::json, $2::json, 1, 50000)",
      [counters, reads],
    );
    expect(rows).toEqual([{ day_steps: 20, monthly_steps: 20 }]);
    const ledgerPlans = plans.filter((plan) => /step_counters|step_days|step_months/.test(plan));
    expect(ledgerPlans.join("\n")).toMatch(/Index Scan using step_counters_pk on step_counters/);
    expect(ledgerPlans.filter((plan) => /Seq Scan/.test(plan))).toEqual([]);

    // Down to 0008: planned on every call again.
    expect((await migrator.migrateTo("0008-ledger-functions")).error).toBeUndefined();
    expect(await settings()).toEqual([
      ["record_step_counts", ["plan_cache_mode=force_custom_plan"]],
      ["recount_step_days", ["plan_cache_mode=force_custom_plan"]],
    ]);
  });

  it("0025 carries each week's summary already mailed over as a read notification, so that none is told twice", async () => {
    testDb = await createTestDatabase(dialect);
    database = Database.connect(testDb.url);
    const migrator = new Migrator({ db: database.db, provider: migrationProvider });
    expect((await migrator.migrateTo("0024-notifications")).error).toBeUndefined();
    await addWalker("u1");
    await sql`insert into weekly_summary_mails (user_id, week_start, queued_at)
      values ('u1', '2026-11-16', 1795417200000)`.execute(database.db);

    await database.migrateToLatest();

    const rows = await database.db
      .selectFrom("notifications")
      .select(["id", "user_id", "kind", "event_key", "url", "read_at", "pushed"])
      .execute();
    expect(rows.map((row) => ({ ...row, read_at: Number(row.read_at) }))).toEqual([
      {
        id: expect.stringMatching(/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/),
        user_id: "u1",
        kind: "weekly_summary",
        event_key: "2026-11-16",
        url: "/dashboard",
        read_at: 1795417200000,
        pushed: 0,
      },
    ]);
    expect(await appTables()).toEqual(TABLES);
  });

  it("0006 fills each walker's month totals from the day rows already stored, and 0007 keeps them all", async () => {
    testDb = await createTestDatabase(dialect);
    database = Database.connect(testDb.url);
    const migrator = new Migrator({ db: database.db, provider: migrationProvider });
    expect((await migrator.migrateTo("0005-sign-in-throttle")).error).toBeUndefined();
    const { db } = database;
    for (const id of ["u1", "u2"]) await addWalker(id);
    const day = (user_id: string, date: string, total_steps: number) => ({
      user_id,
      day: date,
      month: date.slice(0, 7),
      motion_steps: total_steps,
      health_steps: 0,
      manual_steps: 0,
      total_steps,
      updated_at: Number(date.slice(8, 10)),
    });
    await db
      .insertInto("step_days")
      .values([
        day("u1", "2026-10-31", 50_000),
        day("u1", "2026-11-01", 12_000),
        day("u1", "2026-11-20", 3_500),
        day("u2", "2026-11-02", 700),
      ])
      .execute();

    await database.migrateToLatest();

    const months = await db
      .selectFrom("step_months")
      .select(["user_id", "month", "total_steps", "last_day", "last_day_steps", "updated_at"])
      .orderBy("user_id")
      .orderBy("month")
      .execute();
    expect(months.map((row) => ({ ...row, total_steps: Number(row.total_steps) }))).toEqual([
      {
        user_id: "u1",
        month: "2026-10",
        total_steps: 50_000,
        last_day: "2026-10-31",
        last_day_steps: 50_000,
        updated_at: 31,
      },
      {
        user_id: "u1",
        month: "2026-11",
        total_steps: 15_500,
        last_day: "2026-11-20",
        last_day_steps: 3_500,
        updated_at: 20,
      },
      {
        user_id: "u2",
        month: "2026-11",
        total_steps: 700,
        last_day: "2026-11-02",
        last_day_steps: 700,
        updated_at: 2,
      },
    ]);
    // The day rows themselves are all still there (on SQLite, in their rebuilt table).
    expect(
      await db
        .selectFrom("step_days")
        .select(({ fn }) => fn.countAll<number>().as("n"))
        .executeTakeFirst(),
    ).toEqual({
      n: 4,
    });
    if (dialect === "sqlite") {
      const { rows } = await sql<{ name: string; sql: string }>`
        select name, sql from sqlite_master where name in ('step_counters', 'step_days', 'step_months') order by name
      `.execute(db);
      expect(rows.map((row) => [row.name, /without rowid$/i.test(row.sql)])).toEqual([
        ["step_counters", true],
        ["step_days", true],
        ["step_months", true],
      ]);
      // Constraints came along: a day over 50,000 is still refused.
      await expect(
        db
          .insertInto("step_days")
          .values(day("u2", "2026-11-03", 50_001))
          .execute(),
      ).rejects.toThrow();
    }
  });

  it("keeps one walker per issuer and subject, and removes their sessions with them", async () => {
    testDb = await createTestDatabase(dialect);
    database = Database.connect(testDb.url);
    await database.migrateToLatest();
    const { db } = database;
    const user = { issuer: "https://id.test", subject: "abc", created_at: 1, updated_at: 1 };
    await db
      .insertInto("users")
      .values({ id: "u1", ...user })
      .execute();
    await expect(
      db
        .insertInto("users")
        .values({ id: "u2", ...user })
        .execute(),
    ).rejects.toThrow();
    await db
      .insertInto("sessions")
      .values({ id_hash: "h", user_id: "u1", created_at: 1, expires_at: 2, renewed_at: 1 })
      .execute();
    await expect(
      db
        .insertInto("sessions")
        .values({ id_hash: "h2", user_id: "nobody", created_at: 1, expires_at: 2, renewed_at: 1 })
        .execute(),
    ).rejects.toThrow();

    await db.deleteFrom("users").where("id", "=", "u1").execute();
    expect(await db.selectFrom("sessions").selectAll().execute()).toEqual([]);
  });

  it("returns timestamps as numbers on both dialects", async () => {
    testDb = await createTestDatabase(dialect);
    database = Database.connect(testDb.url);
    await database.migrateToLatest();
    const at = Date.UTC(2026, 10, 21, 12);
    await database.db.insertInto("app_secrets").values({ name: "n", value: "v", created_at: at }).execute();
    const row = await database.db.selectFrom("app_secrets").selectAll().executeTakeFirstOrThrow();
    expect(row.created_at).toBe(at);
  });

  it("keeps step counters non-negative, days within 50,000 and one manual entry per key", async () => {
    testDb = await createTestDatabase(dialect);
    database = Database.connect(testDb.url);
    await database.migrateToLatest();
    const { db } = database;
    await addWalker("u1");
    const counter = {
      user_id: "u1",
      day: "2026-11-21",
      kind: "motion" as const,
      source: "device_motion",
      updated_at: 1,
    };
    await expect(
      db
        .insertInto("step_counters")
        .values({ ...counter, counter_id: "device:a", steps: -1 })
        .execute(),
    ).rejects.toThrow();
    await expect(
      db
        .insertInto("step_counters")
        .values({ ...counter, counter_id: "device:a", kind: "other" as never, steps: 1 })
        .execute(),
    ).rejects.toThrow();
    const day = {
      user_id: "u1",
      day: "2026-11-21",
      month: "2026-11",
      motion_steps: 0,
      health_steps: 0,
      manual_steps: 0,
      updated_at: 1,
    };
    await expect(
      db
        .insertInto("step_days")
        .values({ ...day, total_steps: 50_001 })
        .execute(),
    ).rejects.toThrow();

    const bytes = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x00, 0xff, 0x10]);
    await db
      .insertInto("step_photos")
      .values({
        id: "p1",
        user_id: "u1",
        content_type: "image/png",
        width: 1,
        height: 1,
        byte_size: 7,
        data: bytes,
        created_at: 1,
      })
      .execute();
    const stored = await db.selectFrom("step_photos").select("data").executeTakeFirstOrThrow();
    expect(Buffer.from(stored.data).equals(bytes)).toBe(true);
    const entry = {
      user_id: "u1",
      day: "2026-11-21",
      steps: 10,
      note: "",
      idempotency_key: "k1",
      photo_id: "p1",
      created_at: 1,
    };
    await db
      .insertInto("manual_step_entries")
      .values({ ...entry, id: "e1" })
      .execute();
    await expect(
      db
        .insertInto("manual_step_entries")
        .values({ ...entry, id: "e2" })
        .execute(),
    ).rejects.toThrow();
    await expect(
      db
        .insertInto("manual_step_entries")
        .values({ ...entry, id: "e3", idempotency_key: "k3", steps: 0 })
        .execute(),
    ).rejects.toThrow();

    const user = await db.selectFrom("users").select("charity_name").executeTakeFirstOrThrow();
    expect(user.charity_name).toBeNull();
  });

  it("keeps join codes unique, one membership per walker and group, and removes memberships with the group", async () => {
    testDb = await createTestDatabase(dialect);
    database = Database.connect(testDb.url);
    await database.migrateToLatest();
    const { db } = database;
    for (const id of ["u1", "u2"]) await addWalker(id);
    const group = { name: "Walkers", description: "", admin_user_id: "u1", created_at: 1 };
    const first = await db
      .insertInto("groups")
      .values({ ...group, join_code: "ABCDEFGH" })
      .returning("id")
      .executeTakeFirstOrThrow();
    const second = await db
      .insertInto("groups")
      .values({ ...group, join_code: "HGFEDCBA" })
      .returning("id")
      .executeTakeFirstOrThrow();
    expect(first.id).toBeGreaterThan(0);
    expect(second.id).toBeGreaterThan(first.id);
    await expect(
      db
        .insertInto("groups")
        .values({ ...group, join_code: "ABCDEFGH" })
        .execute(),
    ).rejects.toThrow();
    await expect(
      db
        .insertInto("groups")
        .values({ ...group, join_code: "KMNPQRST", admin_user_id: "nobody" })
        .execute(),
    ).rejects.toThrow();

    const membership = { group_id: first.id, user_id: "u2", joined_at: 1 };
    await db
      .insertInto("group_members")
      .values([membership, { ...membership, user_id: "u1" }, { ...membership, group_id: second.id }])
      .execute();
    await expect(db.insertInto("group_members").values(membership).execute()).rejects.toThrow();

    await db.deleteFrom("groups").where("id", "=", first.id).execute();
    const left = await db.selectFrom("group_members").select(["group_id", "user_id"]).execute();
    expect(left).toEqual([{ group_id: second.id, user_id: "u2" }]);
    await db.deleteFrom("users").where("id", "=", "u2").execute();
    expect(await db.selectFrom("group_members").selectAll().execute()).toEqual([]);

    // The newest group's id is not handed out again after it is deleted.
    await db.deleteFrom("groups").where("id", "=", second.id).execute();
    const third = await db
      .insertInto("groups")
      .values({ ...group, join_code: "ABCDEFGH" })
      .returning("id")
      .executeTakeFirstOrThrow();
    expect(third.id).toBeGreaterThan(second.id);
  });
});
