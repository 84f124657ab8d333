import { randomUUID } from "node:crypto";
import { DAILY_STEP_MAX } from "@charity-steps/shared-types";
import { type Kysely, sql } from "kysely";
import { jsonRows, rowsParam } from "../db/json-rows.js";
import type { DatabaseSchema } from "../db/schema/index.js";
import {
  ADD_TO_MONTH_ON_CONFLICT,
  type CountedDayRow,
  countedDays,
  WRITE_DAY_ON_CONFLICT,
} from "./day-rule.js";
import { READING_R, STORED_C, stepsAbovePace } from "./pace-rule.js";
import type { CounterRecord, DayKey, LedgerWriter, TotalsKey, TotalsRow } from "./writer.js";

/** A reading raised past the pace: the steps it holds back, under a review made if none waits. */
interface Hold {
  id: string;
  user_id: string;
  day: string;
  counter_id: string;
  steps: number;
}

interface MonthChange {
  user_id: string;
  month: string;
  /** How much the month's days grew. */
  steps: number;
  /** The latest of those days, and its new total. */
  last_day: string;
  last_day_steps: number;
}

const COUNTER_COLUMNS = {
  user_id: "text",
  day: "text",
  counter_id: "text",
  kind: "text",
  source: "text",
  steps: "integer",
  day_start: "integer",
  day_end: "integer",
} as const;

/**
 * The step ledger on SQLite. A statement is a function call in this process, and one writer at a
 * time needs no row locks, so the write path is a few statements run one after the other in the
 * caller's transaction. Each takes a whole group of rows as one JSON parameter, so a group of syncs
 * costs the same statements (and prepared statements) however many walkers it holds.
 */
export class SqliteLedgerWriter implements LedgerWriter {
  readonly atomic = false;

  async recordCounts(
    db: Kysely<DatabaseSchema>,
    counters: CounterRecord[],
    reads: TotalsKey[],
    now: number,
  ): Promise<TotalsRow[]> {
    const holds = await this.holds(db, counters, now);
    const held = new Map(holds.map((hold) => [counterKey(hold), hold.steps]));
    const rows = counters.map((counter) => ({ ...counter, held: held.get(counterKey(counter)) ?? 0 }));
    // Raises each counter whose reading is higher, and its held steps with it.
    const { rows: raised } = await sql<DayKey>`
      insert into step_counters
        (user_id, day, counter_id, kind, source, steps, pending_steps, updated_at, created_at)
      select r.user_id, r.day, r.counter_id, r.kind, r.source, r.steps, r.held, ${now}, ${now}
      from ${jsonRows("sqlite", rowsParam(rows), { ...COUNTER_COLUMNS, held: "integer" })}
      where true
      order by r.user_id, r.day, r.counter_id
      on conflict (user_id, day, counter_id) do update
        set steps = excluded.steps, source = excluded.source, updated_at = excluded.updated_at,
          pending_steps = step_counters.pending_steps + excluded.pending_steps
        where excluded.steps > step_counters.steps
      returning user_id, day`.execute(db);
    if (holds.length > 0) await this.addToReviews(db, holds, now);
    // Two counters of one day may rise: each day is recounted once.
    const days = [...new Map(raised.map((day) => [`${day.user_id}|${day.day}`, day])).values()];
    if (days.length > 0) await this.recountDays(db, days, now);
    return this.totals(db, reads);
  }

  /**
   * The readings that rose faster than the pace, each with the steps above it. Only a reading of a
   * day not yet over can be (the whole day's pace is above the daily cap), so a group of late
   * readings reads nothing.
   */
  private async holds(db: Kysely<DatabaseSchema>, counters: CounterRecord[], now: number): Promise<Hold[]> {
    const candidates = counters.filter((counter) => now < counter.day_end);
    if (candidates.length === 0) return [];
    const { rows } = await sql<Omit<Hold, "id">>`
      select r.user_id, r.day, r.counter_id,
        ${stepsAbovePace("sqlite", READING_R, STORED_C, sql`${now}`)} as steps
      from ${jsonRows("sqlite", rowsParam(candidates), COUNTER_COLUMNS)}
      left join step_counters c
        on c.user_id = r.user_id and c.day = r.day and c.counter_id = r.counter_id`.execute(db);
    return rows.filter((row) => row.steps > 0).map((row) => ({ id: randomUUID(), ...row }));
  }

  /** Adds held steps to the counter's waiting review, made if none waits. */
  private async addToReviews(db: Kysely<DatabaseSchema>, holds: Hold[], now: number): Promise<void> {
    await sql`
      insert into pace_reviews (id, user_id, day, counter_id, steps, status, created_at)
      select r.id, r.user_id, r.day, r.counter_id, r.steps, 'pending', ${now}
      from ${jsonRows("sqlite", rowsParam(holds), { id: "text", user_id: "text", day: "text", counter_id: "text", steps: "integer" })}
      where true
      order by r.user_id, r.day, r.counter_id
      on conflict (user_id, day, counter_id) where status = 'pending'
      do update set steps = pace_reviews.steps + excluded.steps`.execute(db);
  }

  /** One writer at a time: a transaction already has the walker to itself. */
  async lockWalker(): Promise<void> {}

  /** One writer at a time: a transaction already has its days to itself. */
  async lockDays(): Promise<void> {}

  async recountDays(trx: Kysely<DatabaseSchema>, days: DayKey[], now: number): Promise<void> {
    const { rows } = await countedDays(
      "sqlite",
      jsonRows("sqlite", rowsParam(days), { user_id: "text", day: "text" }),
      sql.lit(DAILY_STEP_MAX),
    ).execute(trx);
    const counted = rows.map((day) => ({
      ...day,
      motion: Number(day.motion),
      health: Number(day.health),
      manual: Number(day.manual),
      before: Number(day.before),
      total: Number(day.total),
    }));
    await sql`
      insert into step_days
        (user_id, day, month, motion_steps, health_steps, manual_steps, total_steps, updated_at,
          first_reading_at)
      select r.user_id, r.day, r.month, r.motion, r.health, r.manual, r.total, ${now}, ${now}
      from ${jsonRows("sqlite", rowsParam(counted), { user_id: "text", day: "text", month: "text", motion: "integer", health: "integer", manual: "integer", total: "integer" })}
      where true
      order by r.user_id, r.day
      ${sql.raw(WRITE_DAY_ON_CONFLICT)}`.execute(trx);
    const changes = monthChanges(counted);
    if (changes.length === 0) return;
    await sql`
      insert into step_months (user_id, month, total_steps, last_day, last_day_steps, updated_at)
      select r.user_id, r.month, r.steps, r.last_day, r.last_day_steps, ${now}
      from ${jsonRows("sqlite", rowsParam(changes), { user_id: "text", month: "text", steps: "bigint", last_day: "text", last_day_steps: "integer" })}
      where true
      order by r.user_id, r.month
      ${sql.raw(ADD_TO_MONTH_ON_CONFLICT)}`.execute(trx);
  }

  async totals(db: Kysely<DatabaseSchema>, reads: TotalsKey[]): Promise<TotalsRow[]> {
    const { rows } = await sql<TotalsRow>`
      select r.i,
        coalesce((select d.total_steps from step_days d
          where d.user_id = r.user_id and d.day = r.day), 0) as day_steps,
        coalesce((select d.total_steps from step_days d
          where d.user_id = r.user_id and d.day = r.today), 0) as today_steps,
        coalesce((select m.total_steps from step_months m
          where m.user_id = r.user_id and m.month = r.month), 0) as monthly_steps
      from ${jsonRows("sqlite", rowsParam(reads), { i: "integer", user_id: "text", day: "text", today: "text", month: "text" })}`.execute(
      db,
    );
    return rows;
  }
}

const counterKey = (row: { user_id: string; day: string; counter_id: string }) =>
  `${row.user_id}|${row.day}|${row.counter_id}`;

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
