import { DAILY_STEP_MAX } from "@charity-steps/shared-types";
import { type Kysely, sql } from "kysely";
import { rowsParam } from "../db/json-rows.js";
import type { DatabaseSchema } from "../db/schema/index.js";
import { ADD_TO_MONTH_ON_CONFLICT, countedDays, WRITE_DAY_ON_CONFLICT } from "./day-rule.js";
import { READING_R, STORED_C, stepsAbovePace } from "./pace-rule.js";
import type { CounterRecord, DayKey, LedgerWriter, RecordedRow, TotalsKey, TotalsRow } from "./writer.js";

/**
 * What `record_step_counts` answers, as PostgreSQL writes it back (`pg_get_function_result`).
 * CREATE OR REPLACE cannot change a function's answer, so a function answering otherwise (an older
 * version's) is dropped before it is made again.
 */
const RECORDED_ROWS =
  "TABLE(i integer, day_steps integer, today_steps integer, monthly_steps bigint, raised boolean)";

/**
 * The step ledger on PostgreSQL: its write path as functions in the database, so that a group of
 * syncs costs one round trip (under load each round trip waits for a turn of the API's event loop,
 * and on two cores wakes a database process that competes with the API). The writer installs them
 * at every start (CREATE OR REPLACE), built from the day rule and the pace rule: a change to either
 * ships with the code and never needs a migration.
 *
 * The functions are VOLATILE, so each statement in them sees the database as it is when that
 * statement starts (READ COMMITTED): a recount that starts once its days are locked sees every
 * committed counter. Each statement's plan is kept for the connection (planning is a large share of
 * a call), and sequential scans are off: every statement reads and writes by key or by the manual
 * entries' (walker, day) index, so a plan made while the tables were near-empty still reads by key
 * once they are large.
 */
function ledgerFunctions(db: Kysely<DatabaseSchema>): string[] {
  const settings = "set plan_cache_mode = force_generic_plan set enable_seqscan = off";
  const counted = countedDays(
    "postgres",
    sql`json_to_recordset(days) as r(user_id text, day text)`,
    sql`day_cap`,
  ).compile(db).sql;
  const aboveThePace = stepsAbovePace("postgres", READING_R, STORED_C, sql`at_ms`).compile(db).sql;

  // Inserts each day row that is missing (all zero) and locks each one that exists, until the
  // transaction ends: the update's WHERE is false, so an existing row is locked but not rewritten.
  const lockStepDays = `
    create or replace function lock_step_days(days json, at_ms bigint) returns void
    language plpgsql volatile ${settings} as $$
    begin
      insert into step_days
        (user_id, day, month, motion_steps, health_steps, manual_steps, total_steps, updated_at,
          first_reading_at)
      select d.user_id, d.day, left(d.day, 7), 0, 0, 0, 0, at_ms, at_ms
      from json_to_recordset(days) as d(user_id text, day text)
      order by d.user_id, d.day
      on conflict (user_id, day) do update set updated_at = excluded.updated_at where false;
    end
    $$`;

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
          (user_id, day, month, motion_steps, health_steps, manual_steps, total_steps, updated_at,
            first_reading_at)
        select c.user_id, c.day, c.month, c.motion, c.health, c.manual, c.total, at_ms, at_ms
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

  // For each read (numbered i): its day's total, today's and the month's, each by primary key, and
  // in a write whether its day rose (`raised`, an expression of the read `r`). The day's row is
  // read once and stands for today too when they are the same day, as they mostly are; `offset 0`
  // keeps that read a lookup by key per read, never a join planned over all of step_days. The write
  // returns these rows with the same text inline, not by calling read_step_totals, which would be
  // one more function call in every group's round trip.
  const totalsOfReads = (raised?: string) => `
        select r.i, coalesce(d.total_steps, 0),
          case when r.today = r.day then coalesce(d.total_steps, 0)
            else coalesce((select t.total_steps from step_days t
              where t.user_id = r.user_id and t.day = r.today), 0) end,
          coalesce((select m.total_steps from step_months m
            where m.user_id = r.user_id and m.month = r.month), 0)${raised ? `, ${raised}` : ""}
        from json_to_recordset(reads) as r(i integer, user_id text, day text, today text, month text)
        left join lateral (
          select d.total_steps from step_days d where d.user_id = r.user_id and d.day = r.day offset 0
        ) d on true`;
  const readStepTotals = `
    create or replace function read_step_totals(reads json)
    returns table (i integer, day_steps integer, today_steps integer, monthly_steps bigint)
    language plpgsql stable ${settings} as $$
    begin
      return query ${totalsOfReads()};
    end
    $$`;

  // Max-merges counter readings (one per counter), holding back from prizes the steps of each
  // raised counter above the pace (read from the counter as stored before the statement, which
  // every part of one statement sees alike), adds them to the counter's waiting review (made if
  // none waits), locks and recounts the days of the counters that rose, and answers the reads, each
  // saying whether its day was among them.
  const recordStepCounts = `
    create or replace function record_step_counts(counters json, reads json, at_ms bigint, day_cap integer)
    returns ${RECORDED_ROWS}
    language plpgsql volatile ${settings} as $$
    declare
      raised_days json;
    begin
      with reading as materialized (
        select r.user_id, r.day, r.counter_id, r.kind, r.source, r.steps, c.steps as stored,
          ${aboveThePace} as held
        from json_to_recordset(counters) as r(user_id text, day text, counter_id text, kind text,
          source text, steps integer, day_start bigint, day_end bigint)
        -- Each reading's counter by its key. A lateral subquery that cannot be pulled up (offset 0)
        -- keeps it a lookup: as a plain join, a plan kept from when the table was a few hundred
        -- rows long hashed the readings and read the whole counters index on every call.
        left join lateral (
          select c.steps, c.updated_at, c.created_at from step_counters c
          where c.user_id = r.user_id and c.day = r.day and c.counter_id = r.counter_id
          offset 0
        ) c on true
      ), raised as (
        insert into step_counters
          (user_id, day, counter_id, kind, source, steps, pending_steps, updated_at, created_at)
        select r.user_id, r.day, r.counter_id, r.kind, r.source, r.steps, r.held, at_ms, at_ms
        from reading r
        -- A counter only grows, so a reading at or below the counter as read cannot raise it: it is
        -- left out, rather than sent to the conflict, which would lock (and so write) the row.
        where r.stored is null or r.steps > r.stored
        order by r.user_id, r.day, r.counter_id
        on conflict (user_id, day, counter_id) do update
          set steps = excluded.steps, source = excluded.source, updated_at = excluded.updated_at,
            pending_steps = step_counters.pending_steps + excluded.pending_steps
          where excluded.steps > step_counters.steps
        returning step_counters.user_id, step_counters.day, step_counters.counter_id
      ), reviewed as (
        insert into pace_reviews (id, user_id, day, counter_id, steps, status, created_at)
        select gen_random_uuid()::text, r.user_id, r.day, r.counter_id, r.held, 'pending', at_ms
        from raised x
        join reading r on r.user_id = x.user_id and r.day = x.day and r.counter_id = x.counter_id
        where r.held > 0
        order by r.user_id, r.day, r.counter_id
        on conflict (user_id, day, counter_id) where status = 'pending'
        do update set steps = pace_reviews.steps + excluded.steps
      )
      select json_agg(d) into raised_days
      from (select distinct x.user_id, x.day from raised x) d;
      if raised_days is not null then
        perform lock_step_days(raised_days, at_ms);
        perform recount_step_days(raised_days, at_ms, day_cap);
      end if;
      return query ${totalsOfReads(
        `(r.user_id, r.day) in (select x.user_id, x.day
          from json_to_recordset(raised_days) as x(user_id text, day text))`,
      )};
    end
    $$`;

  return [lockStepDays, recountStepDays, readStepTotals, recordStepCounts];
}

/** The step ledger on PostgreSQL: each method one call of its functions. */
export class PostgresLedgerWriter implements LedgerWriter {
  /** Groups written at once, each one call on a connection of the pool (which has 10). */
  readonly groupsAtOnce = 4;

  private constructor(private readonly db: Kysely<DatabaseSchema>) {}

  /** (Re)installs the ledger's functions, then opens the writer. */
  static async install(db: Kysely<DatabaseSchema>): Promise<PostgresLedgerWriter> {
    await db.transaction().execute(async (trx) => {
      // Processes that start together install one after the other: two replacing one function at
      // once fail ("tuple concurrently updated").
      await sql`select pg_advisory_xact_lock(hashtext('charity-steps ledger functions'))`.execute(trx);
      // The drop and the new function commit together: a call meanwhile runs the old one.
      const { rows } = await sql<{ answer: string }>`
        select pg_get_function_result(p.oid) as answer from pg_proc p
        where p.oid = to_regprocedure('record_step_counts(json, json, bigint, integer)')`.execute(trx);
      if (rows.some((row) => row.answer !== RECORDED_ROWS)) {
        await sql`drop function record_step_counts(json, json, bigint, integer)`.execute(trx);
      }
      for (const definition of ledgerFunctions(trx)) await sql.raw(definition).execute(trx);
    });
    return new PostgresLedgerWriter(db);
  }

  async recordCounts(counters: CounterRecord[], reads: TotalsKey[], now: number): Promise<RecordedRow[]> {
    const { rows } = await sql<RecordedRow>`
      select i, day_steps, today_steps, monthly_steps, raised
      from record_step_counts(${rowsParam(counters)}::json, ${rowsParam(reads)}::json, ${now}, ${DAILY_STEP_MAX})`.execute(
      this.db,
    );
    return rows;
  }

  /**
   * Locks the walker's row until the transaction ends. FOR NO KEY UPDATE leaves it free for the
   * foreign-key checks that syncs make, so only changes that take this lock wait for each other.
   */
  async lockWalker(trx: Kysely<DatabaseSchema>, userId: string): Promise<void> {
    await trx.selectFrom("users").select("id").where("id", "=", userId).forNoKeyUpdate().execute();
  }

  async lockDays(trx: Kysely<DatabaseSchema>, days: DayKey[], now: number): Promise<void> {
    await sql`select lock_step_days(${rowsParam(days)}::json, ${now})`.execute(trx);
  }

  async recountDays(trx: Kysely<DatabaseSchema>, days: DayKey[], now: number): Promise<void> {
    await sql`select recount_step_days(${rowsParam(days)}::json, ${now}, ${DAILY_STEP_MAX})`.execute(trx);
  }

  async totals(db: Kysely<DatabaseSchema>, reads: TotalsKey[]): Promise<TotalsRow[]> {
    const { rows } = await sql<TotalsRow>`
      select i, day_steps, today_steps, monthly_steps from read_step_totals(${rowsParam(reads)}::json)`.execute(
      db,
    );
    return rows;
  }
}
