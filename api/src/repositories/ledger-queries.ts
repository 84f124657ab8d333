import type { DayString, MonthString } from "@charity-steps/shared-types";
import { type Kysely, sql } from "kysely";
import type { DialectName } from "../db/database.js";
import { type JsonColumn, jsonRows } from "../db/json-rows.js";
import { type Param, prepareQuery } from "../db/prepared-query.js";
import type { DatabaseSchema } from "../db/schema/index.js";

/** One counter reading to max-merge. */
export interface CounterRecord {
  user_id: string;
  day: DayString;
  counter_id: string;
  kind: "motion" | "health";
  source: string;
  steps: number;
}

export interface DayKey {
  user_id: string;
  day: DayString;
}

export interface DayParts extends DayKey {
  motion: number;
  health: number;
  manual: number;
}

export interface CountedDay extends DayParts {
  total: number;
}

export interface MonthChange {
  user_id: string;
  month: MonthString;
  /** How much the month's days grew. */
  steps: number;
  /** The latest of those days, and its new total. */
  last_day: DayString;
  last_day_steps: number;
}

/** Whose totals to read: the synced day, London today and its month, for the `i`-th reading. */
export interface TotalsKey {
  i: number;
  user_id: string;
  day: DayString;
  today: DayString;
  month: MonthString;
}

/**
 * The statements of the step ledger's write path, built and compiled once (`PreparedQuery`). Each
 * takes a whole group of rows as one JSON parameter, so a group of syncs costs the same six round
 * trips to the database however many walkers it holds (issue 6). The statements lock rows in
 * key order (ORDER BY), which is what keeps groups running at once on PostgreSQL from deadlocking.
 */
export function ledgerQueries(db: Kysely<DatabaseSchema>, dialect: DialectName) {
  type Rows = { rows: string; now: number };

  const records = (json: string, columns: Record<string, JsonColumn>) => jsonRows(dialect, json, columns);

  /** For the reads of correlated rows (by key, once per row of the group): see `planEachRun`. */
  const replannedAsTablesGrow = { planEachRun: true };

  return {
    /** Raises each counter whose reading is higher; returns the days of the counters that rose. */
    raiseCounters: prepareQuery(
      db,
      (_db, param: Param<Rows>) => sql<DayKey>`
        insert into step_counters (user_id, day, counter_id, kind, source, steps, updated_at)
        select r.user_id, r.day, r.counter_id, r.kind, r.source, r.steps, ${param("now")}
        from ${records(param("rows"), { user_id: "text", day: "text", counter_id: "text", kind: "text", source: "text", steps: "integer" })}
        where true
        order by r.user_id, r.day, r.counter_id
        on conflict (user_id, day, counter_id) do update
          set steps = excluded.steps, source = excluded.source, updated_at = excluded.updated_at
          where excluded.steps > step_counters.steps
        returning user_id, day`,
    ),

    /**
     * Inserts each day row or touches it: either way the row is locked until the transaction ends.
     * Returns each day's total as it stands (0 for a new row).
     */
    lockDays: prepareQuery(
      db,
      (_db, param: Param<Rows>) => sql<DayKey & { total_steps: number }>`
        insert into step_days
          (user_id, day, month, motion_steps, health_steps, manual_steps, total_steps, updated_at)
        select r.user_id, r.day, r.month, 0, 0, 0, 0, ${param("now")}
        from ${records(param("rows"), { user_id: "text", day: "text", month: "text" })}
        where true
        order by r.user_id, r.day
        on conflict (user_id, day) do update set updated_at = excluded.updated_at
        returning user_id, day, total_steps`,
    ),

    /** Each day's parts: motion the sum of the devices, health the largest source, manual the sum. */
    dayParts: prepareQuery(
      db,
      (_db, param: Param<{ rows: string }>) => sql<DayParts>`
        select r.user_id, r.day,
          coalesce((select sum(c.steps) from step_counters c
            where c.user_id = r.user_id and c.day = r.day and c.kind = 'motion'), 0) as motion,
          coalesce((select max(c.steps) from step_counters c
            where c.user_id = r.user_id and c.day = r.day and c.kind = 'health'), 0) as health,
          coalesce((select sum(e.steps) from manual_step_entries e
            where e.user_id = r.user_id and e.day = r.day), 0) as manual
        from ${records(param("rows"), { user_id: "text", day: "text" })}`,
      replannedAsTablesGrow,
    ),

    /**
     * Writes each (locked, so existing) day's recount. Written as an upsert so that each row is
     * found through the primary key: an UPDATE … FROM joins the rows instead, and PostgreSQL, which
     * guesses 100 of them, chose to scan the whole table while it was small (issue 6).
     */
    writeDays: prepareQuery(
      db,
      (_db, param: Param<Rows>) => sql<never>`
        insert into step_days
          (user_id, day, month, motion_steps, health_steps, manual_steps, total_steps, updated_at)
        select r.user_id, r.day, r.month, r.motion, r.health, r.manual, r.total, ${param("now")}
        from ${records(param("rows"), { user_id: "text", day: "text", month: "text", motion: "integer", health: "integer", manual: "integer", total: "integer" })}
        where true
        order by r.user_id, r.day
        on conflict (user_id, day) do update
          set motion_steps = excluded.motion_steps, health_steps = excluded.health_steps,
            manual_steps = excluded.manual_steps, total_steps = excluded.total_steps,
            updated_at = excluded.updated_at`,
    ),

    /**
     * Adds each day's change to its month's total, and moves the month's latest day forward when
     * a later day (or the latest day itself) changed (month rows locked in key order).
     */
    addToMonths: prepareQuery(
      db,
      (_db, param: Param<Rows>) => sql<never>`
        insert into step_months (user_id, month, total_steps, last_day, last_day_steps, updated_at)
        select r.user_id, r.month, r.steps, r.last_day, r.last_day_steps, ${param("now")}
        from ${records(param("rows"), { user_id: "text", month: "text", steps: "bigint", last_day: "text", last_day_steps: "integer" })}
        where true
        order by r.user_id, r.month
        on conflict (user_id, month) do update
          set total_steps = step_months.total_steps + excluded.total_steps,
            last_day_steps = case when excluded.last_day >= step_months.last_day
              then excluded.last_day_steps else step_months.last_day_steps end,
            last_day = case when excluded.last_day >= step_months.last_day
              then excluded.last_day else step_months.last_day end,
            updated_at = excluded.updated_at`,
    ),

    /** For each key: the day's total, today's and the month's, each read by primary key. */
    totals: prepareQuery(
      db,
      (_db, param: Param<{ rows: string }>) => sql<{
        i: number;
        day_steps: number;
        today_steps: number;
        monthly_steps: number;
      }>`
        select r.i,
          coalesce((select d.total_steps from step_days d
            where d.user_id = r.user_id and d.day = r.day), 0) as day_steps,
          coalesce((select d.total_steps from step_days d
            where d.user_id = r.user_id and d.day = r.today), 0) as today_steps,
          coalesce((select m.total_steps from step_months m
            where m.user_id = r.user_id and m.month = r.month), 0) as monthly_steps
        from ${records(param("rows"), { i: "integer", user_id: "text", day: "text", today: "text", month: "text" })}`,
      replannedAsTablesGrow,
    ),
  };
}
