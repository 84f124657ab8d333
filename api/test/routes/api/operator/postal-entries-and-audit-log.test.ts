import {
  addDays,
  addMonths,
  OPERATOR_AUDIT_LOG_PATH,
  OPERATOR_MESSAGES,
  OPERATOR_POSTAL_ENTRIES_PATH,
  POSTAL_ENTRIES_PER_OPERATOR_PER_DAY,
} from "@charity-steps/shared-types";
import { sql } from "kysely";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { postalEntryRefusal } from "../../../../src/routes/api/operator/index.js";
import { buildTestApp, dialects, type TestApp } from "../../../helper.js";
import { TEST_MONTH, TEST_NOW, TEST_TODAY, useTestClock } from "../../../support/clock.js";
import {
  OPERATOR_EMAIL,
  OPERATOR_ENV,
  UNCONFIRMED_OPERATOR_EMAIL,
  walkerWithEmail,
} from "../../../support/operators.js";

useTestClock();
const thisMonth = TEST_MONTH;
const today = TEST_TODAY;
const lastMonth = addMonths(thisMonth, -1);
const twoMonthsAgo = addMonths(thisMonth, -2);

const entry = (overrides: Record<string, unknown> = {}) => ({
  month: lastMonth,
  fullName: "Mary O'Brien",
  address: "1 High Street\nLittle Walking\nWK1 2AB",
  email: "mary@example.org",
  receivedOn: `${lastMonth}-10`,
  ...overrides,
});

describe("postalEntryRefusal", () => {
  // 12:00 UTC on 10 March 2026: London's month is March.
  const now = Date.parse("2026-03-10T12:00:00Z");
  it.each([
    ["2026-03", "2026-03-01", null],
    ["2026-02", "2026-02-25", null],
    ["2026-02", "2026-02-26", OPERATOR_MESSAGES.receivedAfterClose],
    ["2026-03", "2026-03-11", OPERATOR_MESSAGES.receivedInFuture],
    ["2026-03", "2026-02-28", OPERATOR_MESSAGES.receivedBeforeMonth],
    ["2026-01", "2026-01-05", OPERATOR_MESSAGES.monthTooOld],
    ["2026-04", "2026-03-05", OPERATOR_MESSAGES.monthInFuture],
  ])("an entry for %s received on %s: %s", (month, receivedOn, reason) => {
    expect(postalEntryRefusal(month, receivedOn, now)).toBe(reason);
  });

  it("takes January's previous month to be December", () => {
    const january = Date.parse("2027-01-05T12:00:00Z");
    expect(postalEntryRefusal("2026-12", "2026-12-20", january)).toBeNull();
    expect(postalEntryRefusal("2026-11", "2026-11-20", january)).toBe(OPERATOR_MESSAGES.monthTooOld);
  });
});

describe.each(dialects)("operators (%s)", (dialect) => {
  let testApp: TestApp;
  let operator: Awaited<ReturnType<typeof walkerWithEmail>>;
  let unconfirmed: Awaited<ReturnType<typeof walkerWithEmail>>;
  let walker: Awaited<ReturnType<typeof walkerWithEmail>>;

  beforeAll(async () => {
    testApp = await buildTestApp(dialect, OPERATOR_ENV);
    operator = await walkerWithEmail(testApp.app, OPERATOR_EMAIL, true);
    unconfirmed = await walkerWithEmail(testApp.app, UNCONFIRMED_OPERATOR_EMAIL, false);
    walker = await walkerWithEmail(testApp.app, "walt.walker@example.org", true);
    // Last month's draw, still open: the entries below are for it. (Past its close with no draw at
    // all, an entry would be in none: see the last test.)
    await testApp.app.database.db
      .insertInto("draws")
      .values({
        month: lastMonth,
        seed: "00",
        commitment: "00",
        status: "open",
        created_at: TEST_NOW.getTime(),
      })
      .execute();
  });
  afterAll(async () => testApp?.close());

  const post = (cookie: string | null, body: unknown) =>
    testApp.app.inject({
      method: "POST",
      url: OPERATOR_POSTAL_ENTRIES_PATH,
      headers: { ...(cookie ? { cookie } : {}), "content-type": "application/json" },
      payload: JSON.stringify(body),
    });
  const get = (cookie: string | null, url: string) =>
    testApp.app.inject({ method: "GET", url, headers: cookie ? { cookie } : {} });
  const count = async (table: "audit_log" | "postal_entries") =>
    Number(
      (
        await testApp.app.database.db
          .selectFrom(table)
          .select((eb) => eb.fn.countAll().as("n"))
          .executeTakeFirstOrThrow()
      ).n,
    );

  it("says on /api/auth/user who is an operator: a listed email, confirmed, any case", async () => {
    const me = async (cookie: string) => (await get(cookie, "/api/auth/user")).json();
    expect(await me(operator.cookie)).toMatchObject({ isOperator: true, emailVerified: true });
    // Listed, but nobody has proved they own it.
    expect(await me(unconfirmed.cookie)).toMatchObject({ isOperator: false, emailVerified: false });
    expect(await me(walker.cookie)).toMatchObject({ isOperator: false, emailVerified: true });
  });

  const routes = [
    { method: "GET", url: `${OPERATOR_POSTAL_ENTRIES_PATH}?month=${thisMonth}` },
    { method: "POST", url: OPERATOR_POSTAL_ENTRIES_PATH },
    { method: "GET", url: OPERATOR_AUDIT_LOG_PATH },
  ] as const;

  it.each(routes)("$method $url: 401 signed out, 404 for walkers who are not operators", async (route) => {
    const call = (cookie: string | null) =>
      testApp.app.inject({
        method: route.method,
        url: route.url,
        headers: { ...(cookie ? { cookie } : {}), "content-type": "application/json" },
        ...(route.method === "POST" ? { payload: JSON.stringify(entry()) } : {}),
      });
    const before = await count("postal_entries");
    expect((await call(null)).statusCode).toBe(401);
    for (const cookie of [walker.cookie, unconfirmed.cookie]) {
      const answer = await call(cookie);
      expect(answer.statusCode).toBe(404);
      expect(answer.json()).toEqual({ message: "Not found" });
    }
    expect(await count("postal_entries")).toBe(before);
  });

  it("records a postal entry (201) with its audit entry, and lists the month's entries", async () => {
    const auditBefore = await count("audit_log");
    const answer = await post(operator.cookie, entry({ fullName: "Ada Lovelace", email: null }));
    expect(answer.statusCode, answer.body).toBe(201);
    const created = answer.json();
    expect(created).toMatchObject({
      month: lastMonth,
      fullName: "Ada Lovelace",
      address: "1 High Street\nLittle Walking\nWK1 2AB",
      email: null,
      receivedOn: `${lastMonth}-10`,
      recordedBy: operator.user.id,
      possibleDuplicate: false,
      duplicateOf: null,
    });
    expect(await count("audit_log")).toBe(auditBefore + 1);
    const log = (await get(operator.cookie, `${OPERATOR_AUDIT_LOG_PATH}?limit=1`)).json();
    expect(log.entries[0]).toMatchObject({
      operatorUserId: operator.user.id,
      operatorEmail: OPERATOR_EMAIL,
      action: "postal_entry.create",
      subject: `postal_entry:${created.id}`,
      before: null,
      after: created,
    });
    const list = (await get(operator.cookie, `${OPERATOR_POSTAL_ENTRIES_PATH}?month=${lastMonth}`)).json();
    expect(list.truncated).toBe(false);
    expect(list.entries).toContainEqual(created);
    const none = (await get(operator.cookie, `${OPERATOR_POSTAL_ENTRIES_PATH}?month=2001-01`)).json();
    expect(none).toEqual({ month: "2001-01", entries: [], truncated: false });
  });

  it.each([
    [
      "received after the 25th",
      entry({ receivedOn: `${lastMonth}-26` }),
      OPERATOR_MESSAGES.receivedAfterClose,
    ],
    [
      "received in the future",
      entry({ month: thisMonth, receivedOn: addDays(today, 1) }),
      OPERATOR_MESSAGES.receivedInFuture,
    ],
    [
      "received before its month",
      entry({ month: thisMonth, receivedOn: `${lastMonth}-20` }),
      OPERATOR_MESSAGES.receivedBeforeMonth,
    ],
    [
      "for a month long closed",
      entry({ month: twoMonthsAgo, receivedOn: `${twoMonthsAgo}-05` }),
      OPERATOR_MESSAGES.monthTooOld,
    ],
  ])("refuses an entry %s with 422 and its reason, writing nothing", async (_label, body, reason) => {
    const before = { entries: await count("postal_entries"), audit: await count("audit_log") };
    const answer = await post(operator.cookie, body);
    expect(answer.statusCode, answer.body).toBe(422);
    expect(answer.json()).toEqual({ message: reason });
    expect({ entries: await count("postal_entries"), audit: await count("audit_log") }).toEqual(before);
  });

  it.each([
    ["a month that is no month", entry({ month: "2026-13" })],
    ["a month in another form", entry({ month: "March 2026" })],
    ["a day that is no day", entry({ receivedOn: `${lastMonth}-32` })],
    ["a name too long", entry({ fullName: "A".repeat(121) })],
    ["a blank name", entry({ fullName: "   " })],
    ["a name of zero-width characters", entry({ fullName: "\u200B\u200B" })],
    ["a name on two lines", entry({ fullName: "Mary\nO'Brien" })],
    ["an address too long", entry({ address: "A".repeat(501) })],
    ["an address with a control character", entry({ address: "1 High Street\u0007" })],
    ["an email that is no email", entry({ email: "mary at example" })],
    ["an unknown field", { ...entry(), winner: true }],
    ["no name", { ...entry(), fullName: undefined }],
  ])("refuses %s with 400, writing nothing", async (_label, body) => {
    const before = { entries: await count("postal_entries"), audit: await count("audit_log") };
    const answer = await post(operator.cookie, body);
    expect(answer.statusCode, answer.body).toBe(400);
    expect({ entries: await count("postal_entries"), audit: await count("audit_log") }).toEqual(before);
  });

  it("flags likely duplicates (same name or same email, same day, same month) but keeps them", async () => {
    const day = `${lastMonth}-12`;
    const first = (
      await post(
        operator.cookie,
        entry({ fullName: "Grace Hopper", email: "grace@example.org", receivedOn: day }),
      )
    ).json();
    expect(first.possibleDuplicate).toBe(false);
    // The same name, typed differently.
    const sameName = await post(
      operator.cookie,
      entry({ fullName: "  grace   HOPPER ", email: null, receivedOn: day }),
    );
    expect(sameName.statusCode).toBe(201);
    expect(sameName.json()).toMatchObject({ possibleDuplicate: true, duplicateOf: first.id });
    const sameEmail = await post(
      operator.cookie,
      entry({ fullName: "G. Hopper", email: "GRACE@example.org", receivedOn: day }),
    );
    expect(sameEmail.json()).toMatchObject({ possibleDuplicate: true, duplicateOf: first.id });
    // Another day: another envelope, not a duplicate.
    const anotherDay = await post(
      operator.cookie,
      entry({ fullName: "Grace Hopper", email: "grace@example.org", receivedOn: `${lastMonth}-13` }),
    );
    expect(anotherDay.json()).toMatchObject({ possibleDuplicate: false, duplicateOf: null });
    const list = (await get(operator.cookie, `${OPERATOR_POSTAL_ENTRIES_PATH}?month=${lastMonth}`)).json();
    const flagged = list.entries.filter(
      (listed: { duplicateOf: string | null }) => listed.duplicateOf === first.id,
    );
    expect(flagged).toHaveLength(2);
  });

  it("pages the audit log newest first, with a bounded page size", async () => {
    for (const name of ["Page One", "Page Two", "Page Three"]) {
      expect((await post(operator.cookie, entry({ fullName: name, email: null }))).statusCode).toBe(201);
    }
    const first = (await get(operator.cookie, `${OPERATOR_AUDIT_LOG_PATH}?limit=2`)).json();
    expect(first.entries.map((logged: { after: { fullName: string } }) => logged.after.fullName)).toEqual([
      "Page Three",
      "Page Two",
    ]);
    expect(first.nextBefore).toBe(first.entries[1].id);
    const second = (
      await get(operator.cookie, `${OPERATOR_AUDIT_LOG_PATH}?limit=2&before=${first.nextBefore}`)
    ).json();
    expect(second.entries[0].after.fullName).toBe("Page One");
    expect(second.entries[0].id).toBeLessThan(first.entries[1].id);
    const all = (await get(operator.cookie, `${OPERATOR_AUDIT_LOG_PATH}?limit=100`)).json();
    expect(all.nextBefore).toBeNull();
    const ids = all.entries.map((logged: { id: number }) => logged.id);
    expect(ids).toEqual([...ids].sort((a, b) => b - a));
    for (const query of ["limit=101", "limit=0", "before=0", "before=abc", "extra=1"]) {
      expect((await get(operator.cookie, `${OPERATOR_AUDIT_LOG_PATH}?${query}`)).statusCode, query).toBe(400);
    }
  });

  it("refuses UPDATE and DELETE on the audit log in the database itself", async () => {
    expect((await post(operator.cookie, entry({ fullName: "Kept For Ever", email: null }))).statusCode).toBe(
      201,
    );
    const { db } = testApp.app.database;
    const before = await db.selectFrom("audit_log").selectAll().orderBy("id").execute();
    expect(before.length).toBeGreaterThan(0);
    await expect(db.updateTable("audit_log").set({ action: "nothing happened" }).execute()).rejects.toThrow(
      /append-only/,
    );
    await expect(db.deleteFrom("audit_log").execute()).rejects.toThrow(/append-only/);
    if (dialect === "postgres") {
      await expect(sql`truncate audit_log`.execute(db)).rejects.toThrow(/append-only/);
    }
    expect(await db.selectFrom("audit_log").selectAll().orderBy("id").execute()).toEqual(before);
  });

  it("writes the entry and its audit record in one transaction: when the record fails, so does the entry", async () => {
    const { db } = testApp.app.database;
    if (dialect === "postgres") {
      await sql`create function refuse_audit() returns trigger language plpgsql as $$
        begin raise exception 'audit refused'; end $$`.execute(db);
      await sql`create trigger refuse_audit before insert on audit_log
        for each row execute function refuse_audit()`.execute(db);
    } else {
      await sql`create trigger refuse_audit before insert on audit_log
        begin select raise(abort, 'audit refused'); end`.execute(db);
    }
    try {
      const before = await count("postal_entries");
      const answer = await post(operator.cookie, entry({ fullName: "Never Stored", email: null }));
      expect(answer.statusCode).toBe(500);
      expect(await count("postal_entries")).toBe(before);
    } finally {
      await sql`drop trigger refuse_audit${sql.raw(dialect === "postgres" ? " on audit_log" : "")}`.execute(
        db,
      );
      if (dialect === "postgres") await sql`drop function refuse_audit()`.execute(db);
    }
  });

  it(`bounds one operator to ${POSTAL_ENTRIES_PER_OPERATOR_PER_DAY} entries a day (429, nothing written)`, async () => {
    const busy = await walkerWithEmail(testApp.app, OPERATOR_EMAIL.toUpperCase(), true);
    // Another account with the same confirmed email: an operator too, with its own count.
    const { db } = testApp.app.database;
    const now = Date.now();
    const rows = Array.from({ length: POSTAL_ENTRIES_PER_OPERATOR_PER_DAY }, (_, index) => ({
      id: `bulk-${dialect}-${index}`,
      month: lastMonth,
      full_name: `Bulk ${index}`,
      name_key: `bulk ${index}`,
      address: "Somewhere",
      email: null,
      email_key: null,
      received_on: `${lastMonth}-02`,
      recorded_by: busy.user.id,
      duplicate_of: null,
      created_at: now - 60_000,
    }));
    for (let start = 0; start < rows.length; start += 100) {
      await db
        .insertInto("postal_entries")
        .values(rows.slice(start, start + 100))
        .execute();
    }
    const audit = await count("audit_log");
    const answer = await post(busy.cookie, entry({ fullName: "One Too Many", email: null }));
    expect(answer.statusCode).toBe(429);
    expect(answer.json()).toEqual({ message: OPERATOR_MESSAGES.tooManyEntries });
    expect(await count("audit_log")).toBe(audit);
    // Another operator is not held back by it.
    expect((await post(operator.cookie, entry({ fullName: "Still Welcome", email: null }))).statusCode).toBe(
      201,
    );
  });

  it.each(["closed", "drawn"])(
    "refuses (409, nothing written) an entry for a month whose draw is %s: its tickets are counted",
    async (status) => {
      const { db } = testApp.app.database;
      await db.updateTable("draws").set({ status }).where("month", "=", lastMonth).execute();
      try {
        const [entries, audit] = [await count("postal_entries"), await count("audit_log")];
        const answer = await post(operator.cookie, entry({ fullName: "Too Late", email: null }));
        expect(answer.statusCode).toBe(409);
        expect(answer.json()).toEqual({ message: OPERATOR_MESSAGES.monthCounted });
        expect([await count("postal_entries"), await count("audit_log")]).toEqual([entries, audit]);
      } finally {
        await db.updateTable("draws").set({ status: "open" }).where("month", "=", lastMonth).execute();
      }
      // An open draw takes entries again.
      expect((await post(operator.cookie, entry({ fullName: "In Time", email: null }))).statusCode).toBe(201);
    },
  );

  it("refuses (409, nothing written) an entry for a month past its close that never had a draw", async () => {
    const { db } = testApp.app.database;
    const draw = await db
      .selectFrom("draws")
      .selectAll()
      .where("month", "=", lastMonth)
      .executeTakeFirstOrThrow();
    await db.deleteFrom("draws").where("month", "=", lastMonth).execute();
    try {
      const [entries, audit] = [await count("postal_entries"), await count("audit_log")];
      const answer = await post(operator.cookie, entry({ fullName: "No Draw", email: null }));
      expect(answer.statusCode).toBe(409);
      expect(answer.json()).toEqual({ message: OPERATOR_MESSAGES.monthHadNoDraw });
      expect([await count("postal_entries"), await count("audit_log")]).toEqual([entries, audit]);
    } finally {
      await db.insertInto("draws").values(draw).execute();
    }
    // This month's draw, not yet set up, is still to come: its entries are taken.
    expect(
      (await post(operator.cookie, entry({ month: thisMonth, receivedOn: today, fullName: "Early" })))
        .statusCode,
    ).toBe(201);
  });
});
