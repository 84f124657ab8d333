import { DAILY_STEP_MAX, type DayString, type MonthString, monthOfDay } from "@charity-steps/shared-types";
import { type Kysely, sql } from "kysely";
import type { DialectName, SpeedOptions } from "../db/database.js";
import { type JsonColumn, jsonRows, rowsParam } from "../db/json-rows.js";
import { namedQuery, type Param } from "../db/named-query.js";
import type { DatabaseSchema } from "../db/schema/index.js";
import {
  ADD_TO_MONTH_ON_CONFLICT,
  type CountedDayRow,
  countedDays,
  WRITE_DAY_ON_CONFLICT,
} from "./ledger-rule.js";

/** One counter reading to max-merge. */
export interface CounterRecord {
  user_id: string;
  day: DayString;
  counter_id: string;
  kind: "motion" | "health";
  source: string;
  steps: number;
}

interface DayKey {
  user_id: string;
  day: DayString;
}

interface MonthChange {
  user_id: string;
  month: MonthString;
  /** How much the month's days grew. */
  steps: number;
  /** The latest of those days, and its new total. */
  last_day: DayString;
  last_day_steps: number;
}

/** A read's answer: its day's total, London today's and the month's. */
export interface TotalsRow {
  i: number;
  day_steps: number;
  today_steps: number;
  monthly_steps: number;
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
 * The statements of the step ledger's write path (`NamedQuery`). Each
 * takes a whole group of rows as one JSON parameter, so a group of syncs costs the same few
 * statements however many walkers it holds. Rows are locked in one global order (the
 * counters, the days, the months, each in key order), which keeps groups running at once on
 * PostgreSQL from deadlocking.
 *
 * The dialects differ, and the functions below hide it. On SQLite a statement is a function call in
 * this process, and one writer at a time needs no row locks: the write path is the statements
 * below, run one by one. On PostgreSQL each statement is a round trip, which under load waits for a
 * turn of the event loop: there the same steps run inside the database, in the functions of
 * `ledger-functions.ts`, one call per group. Both count a day by the rule of `ledger-rule.ts`.
 */
export function ledgerQueries(
  db: Kysely<DatabaseSchema>,
  dialect: DialectName,
  speed: Pick<SpeedOptions, "ledgerFunctions"> = {},
) {
  type Rows = { rows: string; now: number };

  const records = (json: string, columns: Record<string, JsonColumn>) => jsonRows(dialect, json, columns);

  /** Raises each counter whose reading is higher; returns the days of the counters that rose. */
  const raiseCounters = namedQuery(
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
  );

  /**
   * PostgreSQL: inserts each day row that is missing (all zero) and locks each one that exists,
   * until the transaction ends. The update's WHERE is false, so an existing row is locked but not
   * rewritten.
   */
  const lockDays = namedQuery(
    db,
    (_db, param: Param<Rows>) => sql<never>`
      insert into step_days
        (user_id, day, month, motion_steps, health_steps, manual_steps, total_steps, updated_at)
      select r.user_id, r.day, r.month, 0, 0, 0, 0, ${param("now")}
      from ${records(param("rows"), { user_id: "text", day: "text", month: "text" })}
      where true
      order by r.user_id, r.day
      on conflict (user_id, day) do update set updated_at = excluded.updated_at where false`,
  );

  /** Each day's parts, its total as it stood and its new total, by the day rule. */
  const countDays = namedQuery(db, (_db, param: Param<{ rows: string }>) =>
    countedDays(dialect, records(param("rows"), { user_id: "text", day: "text" }), sql.lit(DAILY_STEP_MAX)),
  );

  /** Writes each day's recount (the row is made if missing). */
  const writeDays = namedQuery(
    db,
    (_db, param: Param<Rows>) => sql<never>`
      insert into step_days
        (user_id, day, month, motion_steps, health_steps, manual_steps, total_steps, updated_at)
      select r.user_id, r.day, r.month, r.motion, r.health, r.manual, r.total, ${param("now")}
      from ${records(param("rows"), { user_id: "text", day: "text", month: "text", motion: "integer", health: "integer", manual: "integer", total: "integer" })}
      where true
      order by r.user_id, r.day
      ${sql.raw(WRITE_DAY_ON_CONFLICT)}`,
  );

  /**
   * Adds each day's change to its month's total, and moves the month's latest day forward
   * when a later day (or the latest day itself) changed.
   */
  const addToMonths = namedQuery(
    db,
    (_db, param: Param<Rows>) => sql<never>`
      insert into step_months (user_id, month, total_steps, last_day, last_day_steps, updated_at)
      select r.user_id, r.month, r.steps, r.last_day, r.last_day_steps, ${param("now")}
      from ${records(param("rows"), { user_id: "text", month: "text", steps: "bigint", last_day: "text", last_day_steps: "integer" })}
      where true
      order by r.user_id, r.month
      ${sql.raw(ADD_TO_MONTH_ON_CONFLICT)}`,
  );

  /** For each key: the day's total, today's and the month's, each read by primary key. */
  const totals = namedQuery(
    db,
    (_db, param: Param<{ rows: string }>) => sql<TotalsRow>`
      select r.i,
        coalesce((select d.total_steps from step_days d
          where d.user_id = r.user_id and d.day = r.day), 0) as day_steps,
        coalesce((select d.total_steps from step_days d
          where d.user_id = r.user_id and d.day = r.today), 0) as today_steps,
        coalesce((select m.total_steps from step_months m
          where m.user_id = r.user_id and m.month = r.month), 0) as monthly_steps
      from ${records(param("rows"), { i: "integer", user_id: "text", day: "text", today: "text", month: "text" })}`,
  );

  type Call = { counters: string; reads: string; now: number; cap: number };
  /** PostgreSQL: a whole group of counter readings, in one call (`ledger-functions.ts`). */
  const recordStepCounts = namedQuery(
    db,
    (_db, param: Param<Call>) => sql<TotalsRow>`
      select i, day_steps, today_steps, monthly_steps
      from record_step_counts(${param("counters")}::json, ${param("reads")}::json, ${param("now")}, ${param("cap")})`,
  );
  /** PostgreSQL: recounts locked days (`ledger-functions.ts`). */
  const recountStepDays = namedQuery(
    db,
    (_db, param: Param<{ days: string; now: number; cap: number }>) => sql<never>`
      select recount_step_days(${param("days")}::json, ${param("now")}, ${param("cap")})`,
  );

  const postgres = dialect === "postgres";
  const functions = postgres && speed.ledgerFunctions !== false;
  return {
    /** True when `recordCounts` is one statement, atomic on its own (needing no transaction). */
    oneStatement: functions,

    /**
     * Max-merges counter readings (at most one per counter) and recounts the days of those that
     * rose; answers each read with its totals afterwards. In a transaction, unless `oneStatement`.
     */
    async recordCounts(
      db: Kysely<DatabaseSchema>,
      counters: CounterRecord[],
      reads: TotalsKey[],
      now: number,
    ): Promise<TotalsRow[]> {
      if (functions) {
        const values = { counters: rowsParam(counters), reads: rowsParam(reads), now, cap: DAILY_STEP_MAX };
        return recordStepCounts.execute(db, values);
      }
      const raised = await raiseCounters.execute(db, { rows: rowsParam(counters), now });
      // Two counters of one day may rise: each day is recounted once, locked first, in key order.
      const days = [...new Map(raised.map((day) => [dayKey(day), day])).values()].sort((a, b) =>
        dayKey(a) < dayKey(b) ? -1 : 1,
      );
      if (days.length > 0) {
        await this.lockDays(db, days, now);
        await this.recountDays(db, days, now);
      }
      return this.totals(db, reads);
    },

    /** PostgreSQL: locks each day row (made if missing) until the transaction ends. SQLite: nothing. */
    async lockDays(trx: Kysely<DatabaseSchema>, days: DayKey[], now: number): Promise<void> {
      if (!postgres) return;
      const rows = days.map(({ user_id, day }) => ({ user_id, day, month: monthOfDay(day) }));
      await lockDays.execute(trx, { rows: rowsParam(rows), now });
    },

    /**
     * Recounts days from their counters and manual entries, then moves each month's
     * total by its days' change. In a transaction; on PostgreSQL the days are locked (`lockDays`).
     */
    async recountDays(trx: Kysely<DatabaseSchema>, days: DayKey[], now: number): Promise<void> {
      if (functions) {
        await recountStepDays.execute(trx, { days: rowsParam(days), now, cap: DAILY_STEP_MAX });
        return;
      }
      const counted = (await countDays.execute(trx, { rows: rowsParam(days) })).map((day) => ({
        ...day,
        motion: Number(day.motion),
        health: Number(day.health),
        manual: Number(day.manual),
        before: Number(day.before),
        total: Number(day.total),
      }));
      await writeDays.execute(trx, { rows: rowsParam(counted), now });
      const changes = monthChanges(counted);
      if (changes.length > 0) await addToMonths.execute(trx, { rows: rowsParam(changes), now });
    },

    totals(db: Kysely<DatabaseSchema>, keys: TotalsKey[]): Promise<TotalsRow[]> {
      return totals.execute(db, { rows: rowsParam(keys) });
    },
  };
}

const dayKey = (day: DayKey) => `${day.user_id}|${day.day}`;

/**
 * Each month's change from its recounted days, and its latest changed day with that day's total.
 */
function monthChanges(counted: CountedDayRow[]): MonthChange[] {
  const changes = new Map<string, MonthChange>();
  for (const day of counted) {
    const change = day.total - day.before;
    if (change === 0) continue;
    const key = `${day.user_id}|${day.month}`;
    const known = changes.get(key);
    const latest = !known || day.day > known.last_day;
    changes.set(key, {
      user_id: day.user_id,
      month: day.month,
      steps: (known?.steps ?? 0) + change,
      last_day: latest ? day.day : known.last_day,
      last_day_steps: latest ? day.total : known.last_day_steps,
    });
  }
  return [...changes.values()];
}
