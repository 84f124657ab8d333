import {
  addDays,
  type DayString,
  londonDay,
  londonDayStart,
  type MonthString,
  monthOfDay,
} from "@charity-steps/shared-types";
import type { Kysely } from "kysely";
import type { Database } from "../db/database.js";
import type { DatabaseSchema } from "../db/schema/index.js";
import { GroupCommit } from "./group-commit.js";
import { PostgresLedgerWriter } from "./postgres-writer.js";
import { SqliteLedgerWriter } from "./sqlite-writer.js";
import type { CounterRecord, DayKey, LedgerWriter, TotalsKey, TotalsRow } from "./writer.js";

export interface CounterReading {
  userId: string;
  day: DayString;
  /** `device:<id>` or `health:<source>`. */
  counterId: string;
  kind: "motion" | "health";
  source: string;
  steps: number;
}

/** A day's counted steps, and each source's part (the total is the larger of motion and health, plus manual). */
export interface DayParts {
  steps: number;
  motionSteps: number;
  healthSteps: number;
  manualSteps: number;
}

export interface WalkerTotals {
  daySteps: number;
  todaySteps: number;
  monthlySteps: number;
}

/** A reading's answer: the walker's totals afterwards, and whether its day rose. */
export interface RecordedCount extends WalkerTotals {
  /**
   * Whether a counter of the walker's day rose, this reading's or another of the same group's: a
   * replay or a lower count alone changed nothing, and nothing waits on it.
   */
  raised: boolean;
}

/**
 * What must happen before steps of some days are stored: the draws close a month past its close
 * there, so that its tickets are counted from the steps stored before it, and a late sync changes
 * nothing in them.
 */
export interface BeforeStepsStored {
  beforeStepsStored(days: readonly DayString[], now: number): Promise<void>;
}

/** Inside a change to the ledger's days (`StepLedger.changeDays`): the transaction and its steps. */
export interface DaysChange {
  readonly trx: Kysely<DatabaseSchema>;
  /** Takes the walker's turn at such changes (racing ones for the same walker count each other's). */
  lockWalker(userId: string): Promise<void>;
  /** Locks the days being changed (made if missing) until the change ends. */
  lockDays(): Promise<void>;
  /** Recounts the days, once the change has written what they count. */
  recountDays(): Promise<void>;
  /** The walker's totals for `day`, London today and its month, as the change leaves them. */
  totalsOf(userId: string, day: DayString): Promise<WalkerTotals>;
}

/** A reading and the time it was received. */
interface TimedReading {
  reading: CounterReading;
  now: number;
}

/** Days whose bounds are remembered: more than the window of days a sync may name. */
const DAY_BOUNDS_KEPT = 64;

/**
 * The step ledger: per-device day counters that only grow, and one row per walker and day holding
 * the day's counted total (by the day rule of `day-rule.ts`), with one per month beside them.
 * Steps above a walker's pace are held back from prizes in the write that counts them (the pace
 * rule of `pace-rule.ts`). Writes to one day run one after the other (SQLite has one writer; on
 * PostgreSQL each first takes the day's row, inserted or locked), so the total always reflects
 * every committed counter.
 *
 * A step's way down: the route turns a sync into a `CounterReading`; `recordCount` lets the draws
 * close a month whose close has passed, then joins the reading to the next group (`GroupCommit`),
 * whose database's writer (`sqlite-writer.ts` or `postgres-writer.ts`) stores the group at once.
 */
export class StepLedger {
  private readonly counts?: GroupCommit<TimedReading, RecordedCount>;
  private readonly bounds = new Map<DayString, { day_start: number; day_end: number }>();

  private constructor(
    private readonly database: Database,
    private readonly writer: LedgerWriter,
    private readonly before: BeforeStepsStored,
    groupCommit: boolean,
  ) {
    if (groupCommit) {
      this.counts = new GroupCommit((items) => this.recordCounts(items), {
        concurrency: writer.groupsAtOnce,
      });
    }
  }

  /**
   * Opens the ledger on `database` (on PostgreSQL, installing its functions first). `before` is
   * awaited before any step is stored.
   */
  static async open(
    database: Database,
    before: BeforeStepsStored,
    options: { groupCommit: boolean },
  ): Promise<StepLedger> {
    const writer =
      database.dialect === "postgres"
        ? await PostgresLedgerWriter.install(database.db)
        : new SqliteLedgerWriter(database, database.db);
    return new StepLedger(database, writer, before, options.groupCommit);
  }

  private get db() {
    return this.database.db;
  }

  /**
   * Max-merges one counter reading and, when it raised the counter, recounts the day; returns the
   * walker's totals afterwards, and whether their day rose. A replay or a late, lower count reads
   * the totals and writes nothing.
   * Readings that arrive together are written together; the promise settles once their
   * transaction has committed.
   */
  async recordCount(reading: CounterReading, now = Date.now()): Promise<RecordedCount> {
    await this.before.beforeStepsStored([reading.day], now);
    if (this.counts) return this.counts.run({ reading, now });
    const [totals] = await this.recordCounts([{ reading, now }]);
    if (!totals) throw new Error("no totals recorded");
    return totals;
  }

  /** Records a group of readings: the highest reading of each counter stands for them all. */
  private async recordCounts(items: TimedReading[]): Promise<RecordedCount[]> {
    const now = Math.max(...items.map((item) => item.now));
    const highest = new Map<string, CounterRecord>();
    for (const { reading } of items) {
      const key = `${reading.userId}|${reading.day}|${reading.counterId}`;
      if ((highest.get(key)?.steps ?? -1) >= reading.steps) continue;
      highest.set(key, {
        user_id: reading.userId,
        day: reading.day,
        counter_id: reading.counterId,
        kind: reading.kind,
        source: reading.source,
        steps: reading.steps,
        ...this.dayBounds(reading.day),
      });
    }
    const reads = items.map(({ reading, now }, i) => totalsKey(reading.userId, reading.day, now, i));
    const rows = await this.writer.recordCounts([...highest.values()], reads, now);
    const raised = new Set(rows.filter((row) => row.raised).map((row) => Number(row.i)));
    return walkerTotals(reads, rows).map((totals, i) => ({ ...totals, raised: raised.has(i) }));
  }

  /**
   * When London's `day` begins and ends, remembered for the few days syncs name (working it out
   * formats dates, which costs more than a sync's statements).
   */
  private dayBounds(day: DayString): { day_start: number; day_end: number } {
    let bounds = this.bounds.get(day);
    if (!bounds) {
      if (this.bounds.size >= DAY_BOUNDS_KEPT) this.bounds.clear();
      bounds = { day_start: londonDayStart(day), day_end: londonDayStart(addDays(day, 1)) };
      this.bounds.set(day, bounds);
    }
    return bounds;
  }

  /**
   * A change to walkers' `days` other than a counter reading (a manual entry): `change` runs in one
   * transaction, which it uses to lock, write, recount and read through `DaysChange`. The draws
   * close a month past its close first, as for a reading.
   */
  async changeDays<T>(days: DayKey[], now: number, change: (change: DaysChange) => Promise<T>): Promise<T> {
    await this.before.beforeStepsStored(
      days.map((day) => day.day),
      now,
    );
    return this.database.transaction((trx) =>
      change({
        trx,
        lockWalker: (userId) => this.writer.lockWalker(trx, userId),
        lockDays: () => this.writer.lockDays(trx, days, now),
        recountDays: () => this.writer.recountDays(trx, days, now),
        totalsOf: (userId, day) => this.totalsOf(userId, day, now, trx),
      }),
    );
  }

  /** The walker's totals for `day`, London today and its month at `now`, read on `db`. */
  async totalsOf(
    userId: string,
    day: DayString,
    now = Date.now(),
    db: Kysely<DatabaseSchema> = this.db,
  ): Promise<WalkerTotals> {
    const reads = [totalsKey(userId, day, now)];
    const [totals] = walkerTotals(reads, await this.writer.totals(db, reads));
    if (!totals) throw new Error("no totals read");
    return totals;
  }

  /** The walker's counted steps on `day` (0 for a day without any). */
  async dayTotal(userId: string, day: DayString): Promise<number> {
    const row = await this.db
      .selectFrom("step_days")
      .select("total_steps")
      .where("user_id", "=", userId)
      .where("day", "=", day)
      .executeTakeFirst();
    return row?.total_steps ?? 0;
  }

  async monthTotal(userId: string, month: MonthString): Promise<number> {
    const row = await this.db
      .selectFrom("step_months")
      .select("total_steps")
      .where("user_id", "=", userId)
      .where("month", "=", month)
      .executeTakeFirst();
    return Number(row?.total_steps ?? 0);
  }

  /** Each day from `from` to `to` (inclusive) that has steps: its counted total and where they came from. */
  async dayParts(userId: string, from: DayString, to: DayString): Promise<Map<DayString, DayParts>> {
    const rows = await this.db
      .selectFrom("step_days")
      .select(["day", "total_steps", "motion_steps", "health_steps", "manual_steps"])
      .where("user_id", "=", userId)
      .where("day", ">=", from)
      .where("day", "<=", to)
      .execute();
    return new Map(
      rows.map((row) => [
        row.day,
        {
          steps: row.total_steps,
          motionSteps: row.motion_steps,
          healthSteps: row.health_steps,
          manualSteps: row.manual_steps,
        },
      ]),
    );
  }
}

/** What to read for a walker's totals: their day, and London today and its month at `now`. */
function totalsKey(userId: string, day: DayString, now: number, i = 0): TotalsKey {
  const today = londonDay(now);
  return { i, user_id: userId, day, today, month: monthOfDay(today) };
}

/** Each read's totals from the rows answering them (a read without a row has none yet). */
function walkerTotals(reads: TotalsKey[], rows: TotalsRow[]): WalkerTotals[] {
  const byIndex = new Map(rows.map((row) => [Number(row.i), row]));
  return reads.map(({ i }) => {
    const row = byIndex.get(i);
    return {
      daySteps: Number(row?.day_steps ?? 0),
      todaySteps: Number(row?.today_steps ?? 0),
      monthlySteps: Number(row?.monthly_steps ?? 0),
    };
  });
}
