import { dayTotal } from "@charity-steps/shared-types";
import type { FastifyInstance } from "fastify";
import { sql } from "kysely";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { buildApp } from "../../src/app.js";
import { Database } from "../../src/db/database.js";
import { PostgresLedgerWriter } from "../../src/ledger/postgres-writer.js";
import { buildTestApp, createSignedInWalker, dialects, type TestApp, testConfig } from "../helper.js";
import { TEST_TODAY, useTestClock } from "../support/clock.js";
import { queryWithPlans } from "../support/plans.js";
import { manualForm, photo, stepsClient } from "../support/steps.js";

/** Every piece of the speed machinery switched off, as the bench runs the API to measure them. */
const WITHOUT_SPEED_MACHINERY = {
  groupCommit: false,
  statementCache: false,
  walCheckpointer: false,
  sessionBatches: false,
};

useTestClock();

describe.each(dialects)("the ledger's day rule (%s)", (dialect) => {
  let testApp: TestApp;
  let plain: FastifyInstance;
  beforeAll(async () => {
    testApp = await buildTestApp(dialect);
    plain = await buildApp(testConfig({ DATABASE_URL: testApp.database.url }), {
      logger: false,
      speed: WITHOUT_SPEED_MACHINERY,
    });
    await plain.ready();
  });
  afterAll(async () => {
    await plain.close();
    await testApp.close();
  });

  it("counts a day as shared-types' dayTotal does, with or without the speed machinery", async () => {
    const today = TEST_TODAY;
    for (const app of [testApp.app, plain]) {
      const { cookie } = await createSignedInWalker(testApp.app);
      const api = stepsClient(app, cookie);
      const steps = async (response: Promise<{ json(): { daySteps: number } }>) =>
        (await response).json().daySteps;

      // Two devices' motion add up; the larger health source counts instead when it is larger.
      await api.sync({ steps: 3_000, date: today, source: "device_motion" }, "phone");
      expect(await steps(api.sync({ steps: 2_500, date: today, source: "device_motion" }, "watch"))).toBe(
        dayTotal({ motion: 5_500, health: 0, manual: 0 }),
      );
      expect(await steps(api.sync({ steps: 4_000, date: today, source: "apple_health" }))).toBe(
        dayTotal({ motion: 5_500, health: 4_000, manual: 0 }),
      );
      expect(await steps(api.sync({ steps: 9_000, date: today, source: "google_fit" }))).toBe(
        dayTotal({ motion: 5_500, health: 9_000, manual: 0 }),
      );
      // Manual entries add on top.
      const form = async (count: number) =>
        manualForm(
          { steps: String(count), date: today },
          { bytes: await photo("png"), filename: "proof.png", contentType: "image/png" },
        );
      expect(await steps(api.addManual(await form(1_000)))).toBe(
        dayTotal({ motion: 5_500, health: 9_000, manual: 1_000 }),
      );
      // An entry that would take the day past the cap is refused; one that reaches it is taken.
      const past = await api.addManual(await form(40_001));
      expect(past.statusCode).toBe(400);
      expect(past.json().message).toContain("at most 40,000 more steps");
      expect(await steps(api.addManual(await form(40_000)))).toBe(
        dayTotal({ motion: 5_500, health: 9_000, manual: 41_000 }),
      );
      // Counters still grow afterwards, and the day stays at the cap.
      expect(await steps(api.sync({ steps: 12_000, date: today, source: "google_fit" }))).toBe(
        dayTotal({ motion: 5_500, health: 12_000, manual: 41_000 }),
      );
    }
  });

  // Only PostgreSQL has the ledger functions: SQLite's run of this file has no such test at all.
  (dialect === "postgres" ? it : () => {})(
    "installs PostgreSQL's ledger functions at every start, built from the rule, keeping their plans",
    async () => {
      const functions = async () =>
        (
          await sql<{ proname: string; proconfig: string[]; prosrc: string }>`
            select proname, proconfig, prosrc from pg_proc
            where pronamespace = 'public'::regnamespace
              and proname in ('record_step_counts', 'recount_step_days')
            order by proname
          `.execute(testApp.app.database.db)
        ).rows;
      const kept = ["plan_cache_mode=force_generic_plan", "enable_seqscan=off"];
      const installed = await functions();
      expect(installed.map(({ proname, proconfig }) => [proname, proconfig])).toEqual([
        ["record_step_counts", kept],
        ["recount_step_days", kept],
      ]);
      const recount = installed.find((fn) => fn.proname === "recount_step_days")?.prosrc ?? "";
      expect(recount).toContain("least(day_cap, greatest(p.motion, p.health) + p.manual)");

      // Processes that start together each install them, one after the other.
      const databases = [0, 1, 2].map(() => Database.connect(testApp.database.url));
      try {
        await Promise.all(databases.map((database) => PostgresLedgerWriter.install(database.db)));
      } finally {
        await Promise.all(databases.map((database) => database.close()));
      }
      expect(await functions()).toEqual(installed);

      // A version answering without whether each read's day rose (as migration 0008 made it) is
      // dropped and made again; one answering as it should is replaced where it stands.
      const { db } = testApp.app.database;
      const answer = async () =>
        (
          await sql<{ oid: number; answer: string }>`
            select oid::int, pg_get_function_result(oid) as answer from pg_proc
            where oid = to_regprocedure('record_step_counts(json, json, bigint, integer)')`.execute(db)
        ).rows[0];
      const current = await answer();
      await PostgresLedgerWriter.install(db);
      expect(await answer()).toEqual(current);
      await sql`drop function record_step_counts(json, json, bigint, integer)`.execute(db);
      await sql`
        create function record_step_counts(counters json, reads json, at_ms bigint, day_cap integer)
        returns table (i integer, day_steps integer, today_steps integer, monthly_steps bigint)
        language sql as 'select 0, 0, 0, 0::bigint'`.execute(db);
      await PostgresLedgerWriter.install(db);
      expect((await answer())?.answer).toBe(current?.answer);
      expect(await functions()).toEqual(installed);
    },
  );

  (dialect === "postgres" ? it : () => {})(
    "reads each counter a group raises by its key, even with a plan kept from when the counters were few",
    async () => {
      // A few hundred counters, analysed: where hashing a group's readings and reading the whole
      // counters index once looks cheaper than a lookup per reading, and costs more with every row.
      const { db } = testApp.app.database;
      const owner = await createSignedInWalker(testApp.app, "Plan");
      const counter = { user_id: owner.user.id, kind: "motion" as const, source: "iphone_motion" };
      await db
        .insertInto("step_counters")
        .values(
          Array.from({ length: 400 }, (_, index) => ({
            ...counter,
            counter_id: `device:${index}`,
            day: "2026-01-15",
            steps: 10,
            updated_at: 1,
          })),
        )
        .execute();
      await sql`analyze step_counters`.execute(db);
      const readings = ["a", "b", "c", "d", "e", "f", "g", "h"].map((device) => ({
        ...counter,
        counter_id: `device:${device}`,
        day: "2026-01-16",
        steps: 100,
        day_start: 0,
        day_end: 1,
      }));
      const reads = [
        { i: 0, user_id: owner.user.id, day: "2026-01-16", today: "2026-01-16", month: "2026-01" },
      ];
      const { rows, plans } = await queryWithPlans(
        testApp.database.url,
        "select day_steps from record_step_counts($1::json, $2::json, 2, 50000)",
        [JSON.stringify(readings), JSON.stringify(reads)],
      );
      expect(rows).toEqual([{ day_steps: 800 }]);
      const lines = plans.join("\n").split("\n");
      const counterReads = lines.filter((line) => /Scan using \w+ on step_counters/.test(line));
      expect(counterReads.length).toBeGreaterThan(0);
      // An index read without a condition is read whole: a scan by another name.
      const wholeIndexReads = lines.filter(
        (line, index) =>
          /Scan using \w+ on step_counters/.test(line) && !/Index Cond/.test(lines[index + 1] ?? ""),
      );
      expect(wholeIndexReads).toEqual([]);
    },
  );
});
