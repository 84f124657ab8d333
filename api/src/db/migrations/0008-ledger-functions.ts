import { type Kysely, PostgresAdapter, sql } from "kysely";

/**
 * Superseded: the step ledger's PostgreSQL writer (`api/src/ledger/postgres-writer.ts`) installs
 * these functions, and those it adds, at every start (CREATE OR REPLACE), built from the day rule and
 * the pace rule, so the bodies below last only until the first start after this migration. The
 * migration stays, unchanged in what it does, because a migration that has run must never change:
 * databases migrated before the writer installed its own functions ran it, and the migrations'
 * tests step through it.
 *
 * What it did: on PostgreSQL, put the step ledger's write path in two functions, so that a group of
 * syncs cost one round trip instead of eight. Both are VOLATILE, so each statement in them sees the
 * database as it is when that statement starts (READ COMMITTED): a recount that starts once its days
 * are locked sees every committed counter. Rows are locked in one global order (counters, then
 * days, then months, each in key order), so that groups running at once cannot deadlock. Each
 * statement was planned on every call; migration 0009 made them keep their plans.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  if (!(db.getExecutor().adapter instanceof PostgresAdapter)) return;

  // Recounts days (the larger of the motion devices' sum and the largest health source,
  // plus manual entries, capped at day_cap), and moves each month's total by its days' change, and
  // its latest day forward when a later day (or the latest itself) changed. The caller must hold
  // the days' locks already: the statement writes the month rows (in key order) before the day
  // rows, which is safe only because writing a day it holds takes no new lock.
  await sql`
    create function recount_step_days(days json, at_ms bigint, day_cap integer) returns void
    language plpgsql volatile set plan_cache_mode = force_custom_plan as $$
    begin
      with parts as materialized (
        select d.user_id, d.day, left(d.day, 7) as month,
          coalesce((select sum(c.steps) from step_counters c
            where c.user_id = d.user_id and c.day = d.day and c.kind = 'motion'), 0) as motion,
          coalesce((select max(c.steps) from step_counters c
            where c.user_id = d.user_id and c.day = d.day and c.kind = 'health'), 0) as health,
          coalesce((select sum(e.steps) from manual_step_entries e
            where e.user_id = d.user_id and e.day = d.day), 0) as manual,
          coalesce((select s.total_steps from step_days s
            where s.user_id = d.user_id and s.day = d.day), 0) as before
        from json_to_recordset(days) as d(user_id text, day text)
      ), counted as (
        select p.*, least(day_cap, greatest(p.motion, p.health) + p.manual) as total from parts p
      ), written as (
        insert into step_days
          (user_id, day, month, motion_steps, health_steps, manual_steps, total_steps, updated_at)
        select c.user_id, c.day, c.month, c.motion, c.health, c.manual, c.total, at_ms
        from counted c
        order by c.user_id, c.day
        on conflict (user_id, day) do update
          set motion_steps = excluded.motion_steps, health_steps = excluded.health_steps,
            manual_steps = excluded.manual_steps, total_steps = excluded.total_steps,
            updated_at = excluded.updated_at
      )
      insert into step_months (user_id, month, total_steps, last_day, last_day_steps, updated_at)
      select c.user_id, c.month, sum(c.total - c.before), max(c.day),
        (array_agg(c.total order by c.day desc))[1], at_ms
      from counted c
      where c.total <> c.before
      group by c.user_id, c.month
      order by c.user_id, c.month
      on conflict (user_id, month) do update
        set total_steps = step_months.total_steps + excluded.total_steps,
          last_day_steps = case when excluded.last_day >= step_months.last_day
            then excluded.last_day_steps else step_months.last_day_steps end,
          last_day = case when excluded.last_day >= step_months.last_day
            then excluded.last_day else step_months.last_day end,
          updated_at = excluded.updated_at;
    end
    $$
  `.execute(db);

  // Max-merges counter readings (one per counter), locks the days of the counters that rose (made
  // if missing; an existing row is locked, not rewritten), recounts them, and answers each read
  // (numbered i) with its day's total, today's and the month's.
  await sql`
    create function record_step_counts(counters json, reads json, at_ms bigint, day_cap integer)
    returns table (i integer, day_steps integer, today_steps integer, monthly_steps bigint)
    language plpgsql volatile set plan_cache_mode = force_custom_plan as $$
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
    $$
  `.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  if (!(db.getExecutor().adapter instanceof PostgresAdapter)) return;
  await sql`drop function record_step_counts(json, json, bigint, integer)`.execute(db);
  await sql`drop function recount_step_days(json, bigint, integer)`.execute(db);
}
