import { randomUUID } from "node:crypto";
import { DAILY_STEP_MAX } from "@charity-steps/shared-types";
import type SqliteDatabase from "better-sqlite3";
import { type Kysely, type RawBuilder, sql } from "kysely";
import type { Database } from "../db/database.js";
import type { DatabaseSchema } from "../db/schema/index.js";
import {
  ADD_TO_MONTH_ON_CONFLICT,
  type CountedDayRow,
  countedDays,
  WRITE_DAY_ON_CONFLICT,
} from "./day-rule.js";
import { READING_R, STORED_C, stepsAbovePace } from "./pace-rule.js";
import type { CounterRecord, DayKey, LedgerWriter, RecordedRow, TotalsKey, TotalsRow } from "./writer.js";

interface MonthChange {
  user_id: string;
  month: string;
  /** How much the month's days grew. */
  steps: number;
  /** The latest of those days, and its new total. */
  last_day: string;
  last_day_steps: number;
}

/** The writer's statements, each prepared once; parameters by name (`@user_id`). */
interface Statements {
  /** The steps a reading holds back for a check (the pace rule), read before any counter is raised. */
  held: SqliteDatabase.Statement<[CounterRecord & { now: number }], { held: number }>;
  /** Raises the counter when the reading is higher (one change), else nothing (none). */
  raise: SqliteDatabase.Statement<[CounterRecord & { held: number; now: number }]>;
  /** Adds held steps to the counter's waiting review, made if none waits. */
  review: SqliteDatabase.Statement<
    [{ id: string; user_id: string; day: string; counter_id: string; steps: number; now: number }]
  >;
  /** A day counted by the day rule, with its total as it stood. */
  count: SqliteDatabase.Statement<[DayKey], CountedDayRow>;
  writeDay: SqliteDatabase.Statement<[CountedDayRow & { now: number }]>;
  addToMonth: SqliteDatabase.Statement<[MonthChange & { now: number }]>;
  totals: SqliteDatabase.Statement<[TotalsKey], Omit<TotalsRow, "i">>;
}

/** A row of named parameters as the table `r` the rules' SQL reads from. */
const paramsAsRow = (names: string[]) =>
  sql.raw(`(select ${names.map((name) => `@${name} as ${name}`).join(", ")}) as r`);

/**
 * The step ledger on SQLite. The database is a library in this process with one writer at a time,
 * so a group of readings is written as SQLite's own statements, each prepared once and run row by
 * row in one synchronous transaction: no row locks to take, no round trips to save, and nothing
 * between the statements (a statement built, compiled and awaited per call, or a group's rows sent
 * as one JSON value, cost more than the writes themselves). The day rule and the pace rule are the
 * same SQL the PostgreSQL writer builds its functions from, read here from a row of parameters.
 */
export class SqliteLedgerWriter implements LedgerWriter {
  readonly groupsAtOnce = 1;
  private readonly statements: Statements;

  constructor(
    private readonly database: Database,
    db: Kysely<DatabaseSchema>,
  ) {
    const connection = database.sqliteConnection;
    // Every value is a named parameter: a statement built with an unnamed one would be a mistake.
    const prepare = <T>(query: RawBuilder<unknown>): T => {
      const compiled = query.compile(db);
      if (compiled.parameters.length > 0)
        throw new Error("the ledger's statements take named parameters only");
      return connection.prepare(compiled.sql) as T;
    };
    const reading = paramsAsRow(["user_id", "day", "counter_id", "kind", "steps", "day_start", "day_end"]);
    this.statements = {
      held: prepare(sql`
        select ${stepsAbovePace("sqlite", READING_R, STORED_C, sql.raw("@now"))} as held
        from ${reading}
        left join step_counters c
          on c.user_id = r.user_id and c.day = r.day and c.counter_id = r.counter_id`),
      raise: prepare(sql`
        insert into step_counters
          (user_id, day, counter_id, kind, source, steps, pending_steps, updated_at, created_at)
        values (@user_id, @day, @counter_id, @kind, @source, @steps, @held, @now, @now)
        on conflict (user_id, day, counter_id) do update
          set steps = excluded.steps, source = excluded.source, updated_at = excluded.updated_at,
            pending_steps = step_counters.pending_steps + excluded.pending_steps
          where excluded.steps > step_counters.steps`),
      review: prepare(sql`
        insert into pace_reviews (id, user_id, day, counter_id, steps, status, created_at)
        values (@id, @user_id, @day, @counter_id, @steps, 'pending', @now)
        on conflict (user_id, day, counter_id) where status = 'pending'
        do update set steps = pace_reviews.steps + excluded.steps`),
      count: prepare(countedDays("sqlite", paramsAsRow(["user_id", "day"]), sql.lit(DAILY_STEP_MAX))),
      writeDay: prepare(sql`
        insert into step_days
          (user_id, day, month, motion_steps, health_steps, manual_steps, total_steps, updated_at,
            first_reading_at)
        values (@user_id, @day, @month, @motion, @health, @manual, @total, @now, @now)
        ${sql.raw(WRITE_DAY_ON_CONFLICT)}`),
      addToMonth: prepare(sql`
        insert into step_months (user_id, month, total_steps, last_day, last_day_steps, updated_at)
        values (@user_id, @month, @steps, @last_day, @last_day_steps, @now)
        ${sql.raw(ADD_TO_MONTH_ON_CONFLICT)}`),
      totals: prepare(sql`
        select
          coalesce((select d.total_steps from step_days d
            where d.user_id = @user_id and d.day = @day), 0) as day_steps,
          coalesce((select d.total_steps from step_days d
            where d.user_id = @user_id and d.day = @today), 0) as today_steps,
          coalesce((select m.total_steps from step_months m
            where m.user_id = @user_id and m.month = @month), 0) as monthly_steps`),
    };
  }

  recordCounts(counters: CounterRecord[], reads: TotalsKey[], now: number): Promise<RecordedRow[]> {
    return this.database.sqliteTransaction(() => {
      const { held, raise, review } = this.statements;
      // The pace is judged on every counter as stored before the group, as one statement would.
      // Only a reading of a day not yet over can be held (the whole day's pace is above the
      // daily cap), so a group of late readings reads nothing here.
      const holds = counters.map((counter) =>
        now < counter.day_end ? (held.get({ ...counter, now })?.held ?? 0) : 0,
      );
      const raised = new Map<string, DayKey>();
      for (const [index, counter] of counters.entries()) {
        const steps = holds[index] ?? 0;
        if (raise.run({ ...counter, held: steps, now }).changes === 0) continue;
        // Two counters of one day may rise: each day is recounted once.
        raised.set(`${counter.user_id}|${counter.day}`, { user_id: counter.user_id, day: counter.day });
        if (steps > 0) {
          const { user_id, day, counter_id } = counter;
          review.run({ id: randomUUID(), user_id, day, counter_id, steps, now });
        }
      }
      if (raised.size > 0) this.recount([...raised.values()], now);
      return reads.map((read) => ({
        ...this.readTotal(read),
        raised: raised.has(`${read.user_id}|${read.day}`),
      }));
    });
  }

  /** One writer at a time: a transaction already has the walker to itself. */
  async lockWalker(): Promise<void> {}

  /** One writer at a time: a transaction already has its days to itself. */
  async lockDays(): Promise<void> {}

  /** In the caller's transaction, which holds the connection the statements run on. */
  async recountDays(_trx: Kysely<DatabaseSchema>, days: DayKey[], now: number): Promise<void> {
    this.recount(days, now);
  }

  async totals(db: Kysely<DatabaseSchema>, reads: TotalsKey[]): Promise<TotalsRow[]> {
    // Inside a transaction of `db`, which holds the connection; else waiting for it as a query would.
    if (db.isTransaction) return this.readTotals(reads);
    return db.connection().execute(async () => this.readTotals(reads));
  }

  /**
   * Recounts the days by the day rule, writes them, and moves each month's total by its days'
   * change. On the connection, inside a transaction.
   */
  private recount(days: DayKey[], now: number): void {
    const { count, writeDay, addToMonth } = this.statements;
    const counted: CountedDayRow[] = [];
    for (const day of days) {
      const row = count.get(day);
      if (row) counted.push(row);
    }
    for (const day of counted) writeDay.run({ ...day, now });
    for (const change of monthChanges(counted)) addToMonth.run({ ...change, now });
  }

  private readTotals(reads: TotalsKey[]): TotalsRow[] {
    return reads.map((read) => this.readTotal(read));
  }

  private readTotal(read: TotalsKey): TotalsRow {
    const row = this.statements.totals.get(read);
    return {
      i: read.i,
      day_steps: row?.day_steps ?? 0,
      today_steps: row?.today_steps ?? 0,
      monthly_steps: row?.monthly_steps ?? 0,
    };
  }
}

/** Each month's change from its recounted days, and its latest changed day with that day's total. */
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
