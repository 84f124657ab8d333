import { type Kysely, sql } from "kysely";
import type { Database } from "../db/database.js";
import type { DatabaseSchema } from "../db/schema/index.js";
import { ADD_TO_MONTH_ON_CONFLICT, countedDays, WRITE_DAY_ON_CONFLICT } from "./ledger-rule.js";

/**
 * On PostgreSQL, the step ledger's write path as two functions, so that a group of syncs costs one
 * round trip instead of eight (under load each round trip waits for a turn of the API's event loop).
 * The ledger installs them at every start (CREATE OR REPLACE), built from the day rule of
 * `ledger-rule.ts`: a change to the rule or to the functions ships with the code, and never needs a
 * migration. Migrations 0008 and 0009 first made them, under these same signatures, and are
 * replaced here.
 *
 * Both functions are VOLATILE, so each statement in them sees the database as it is when that
 * statement starts (READ COMMITTED): a recount that starts once its days are locked sees every
 * committed counter. Rows are locked in one global order (counters, then days, then months, each in
 * key order), so that groups running at once cannot deadlock. Each statement's plan is kept for the
 * connection (planning is a large share of the call), and sequential scans are off: every statement
 * reads and writes by key or by the manual entries' (walker, day) index, so a plan made while the
 * tables were near-empty still reads by key once they are large.
 */
function ledgerFunctions(db: Kysely<DatabaseSchema>): string[] {
  const settings = "set plan_cache_mode = force_generic_plan set enable_seqscan = off";
  const counted = countedDays(
    "postgres",
    sql`json_to_recordset(days) as r(user_id text, day text)`,
    sql`day_cap`,
  ).compile(db).sql;

  // Recounts days and moves each month's total by its days' change, and its latest day forward
  // when a later day (or the latest itself) changed. The caller must hold the days' locks already:
  // the statement writes the month rows (in key order) before the day rows, which is safe only
  // because writing a day it holds takes no new lock.
  const recountStepDays = `
    create or replace function recount_step_days(days json, at_ms bigint, day_cap integer) returns void
    language plpgsql volatile ${settings} as $$
    begin
      with counted as materialized (${counted}
      ), written as (
        insert into step_days
          (user_id, day, month, motion_steps, health_steps, manual_steps, total_steps, updated_at)
        select c.user_id, c.day, c.month, c.motion, c.health, c.manual, c.total, at_ms
        from counted c
        order by c.user_id, c.day
        ${WRITE_DAY_ON_CONFLICT}
      )
      insert into step_months (user_id, month, total_steps, last_day, last_day_steps, updated_at)
      select c.user_id, c.month, sum(c.total - c.before), max(c.day),
        (array_agg(c.total order by c.day desc))[1], at_ms
      from counted c
      where c.total <> c.before
      group by c.user_id, c.month
      order by c.user_id, c.month
      ${ADD_TO_MONTH_ON_CONFLICT};
    end
    $$`;

  // Max-merges counter readings (one per counter), locks the days of the counters that rose (made
  // if missing; an existing row is locked, not rewritten), recounts them, and answers each read
  // (numbered i) with its day's total, today's and the month's.
  const recordStepCounts = `
    create or replace function record_step_counts(counters json, reads json, at_ms bigint, day_cap integer)
    returns table (i integer, day_steps integer, today_steps integer, monthly_steps bigint)
    language plpgsql volatile ${settings} as $$
    declare
      raised_days json;
    begin
      with raised as (
        insert into step_counters (user_id, day, counter_id, kind, source, steps, updated_at)
        select r.user_id, r.day, r.counter_id, r.kind, r.source, r.steps, at_ms
        from json_to_recordset(counters)
          as r(user_id text, day text, counter_id text, kind text, source text, steps integer)
        order by r.user_id, r.day, r.counter_id
        on conflict (user_id, day, counter_id) do update
          set steps = excluded.steps, source = excluded.source, updated_at = excluded.updated_at
          where excluded.steps > step_counters.steps
        returning step_counters.user_id, step_counters.day
      ), raised_day as (
        select distinct r.user_id, r.day from raised r
      ), locked as (
        insert into step_days
          (user_id, day, month, motion_steps, health_steps, manual_steps, total_steps, updated_at)
        select d.user_id, d.day, left(d.day, 7), 0, 0, 0, 0, at_ms
        from raised_day d
        order by d.user_id, d.day
        on conflict (user_id, day) do update set updated_at = excluded.updated_at where false
      )
      select json_agg(d) into raised_days from raised_day d;
      if raised_days is not null then
        perform recount_step_days(raised_days, at_ms, day_cap);
      end if;
      return query
        select r.i,
          coalesce((select d.total_steps from step_days d
            where d.user_id = r.user_id and d.day = r.day), 0),
          coalesce((select d.total_steps from step_days d
            where d.user_id = r.user_id and d.day = r.today), 0),
          coalesce((select m.total_steps from step_months m
            where m.user_id = r.user_id and m.month = r.month), 0)
        from json_to_recordset(reads) as r(i integer, user_id text, day text, today text, month text);
    end
    $$`;

  return [recountStepDays, recordStepCounts];
}

/** On PostgreSQL, (re)installs the ledger's functions; SQLite runs the write path in this process. */
export async function installLedgerFunctions(database: Database): Promise<void> {
  if (database.dialect !== "postgres") return;
  await database.db.transaction().execute(async (trx) => {
    // Processes that start together install one after the other: two replacing one function at
    // once fail ("tuple concurrently updated").
    await sql`select pg_advisory_xact_lock(hashtext('charity-steps ledger functions'))`.execute(trx);
    for (const definition of ledgerFunctions(trx)) await sql.raw(definition).execute(trx);
  });
}
