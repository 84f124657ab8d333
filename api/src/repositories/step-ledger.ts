import { type DayString, londonDay, type MonthString, monthOfDay } from "@charity-steps/shared-types";
import type { Kysely } from "kysely";
import type { Database } from "../db/database.js";
import { GroupCommit } from "../db/group-commit.js";
import type { DatabaseSchema } from "../db/schema/index.js";
import { installLedgerFunctions } from "./ledger-functions.js";
import { type CounterRecord, ledgerQueries, type TotalsKey, type TotalsRow } from "./ledger-queries.js";
import { holdPace, paceHolds } from "./pace.js";

export interface CounterReading {
  userId: string;
  day: DayString;
  /** `device:<id>` or `health:<source>`. */
  counterId: string;
  kind: "motion" | "health";
  source: string;
  steps: number;
}

export interface WalkerTotals {
  daySteps: number;
  todaySteps: number;
  monthlySteps: number;
}

export type LedgerQueries = ReturnType<typeof ledgerQueries>;

/** A reading and the time it was received. */
interface TimedReading {
  reading: CounterReading;
  now: number;
}

/** On PostgreSQL, how many groups of readings are written at once (the pool has 10 connections). */
const COUNT_GROUPS_AT_ONCE = 4;

/**
 * The step ledger's counters and totals: per-device day counters that only grow, and one row per
 * walker and day holding the day's counted total (by the rule of `ledger-rule.ts`), with one per
 * month beside them. Writes to one day run one after the other (SQLite has one writer; on
 * PostgreSQL each first takes the day's row, inserted or locked), so the total always reflects
 * every committed counter.
 */
export class StepLedger {
  readonly queries: LedgerQueries;
  private readonly counts?: GroupCommit<TimedReading, WalkerTotals>;

  /** Installs what the ledger needs in the database (PostgreSQL's functions), then opens it. */
  static async open(database: Database): Promise<StepLedger> {
    if (database.speed.ledgerFunctions) await installLedgerFunctions(database);
    return new StepLedger(database);
  }

  private constructor(private readonly database: Database) {
    this.queries = ledgerQueries(database.db, database.dialect, database.speed);
    if (database.speed.groupCommit) {
      // PostgreSQL runs a few groups at once on the pool's connections, each one statement, atomic
      // on its own; SQLite has one writer, and runs a group's statements in a transaction.
      const { oneStatement } = this.queries;
      this.counts = new GroupCommit(database, (db, items) => this.recordCounts(db, items), {
        concurrency: oneStatement ? COUNT_GROUPS_AT_ONCE : 1,
        transaction: !oneStatement,
      });
    }
  }

  private get db() {
    return this.database.db;
  }

  /**
   * Max-merges one counter reading and, when it raised the counter, recounts the day; returns the
   * walker's totals afterwards. A replay or a late, lower count reads the totals and writes nothing.
   * Readings that arrive together are written together (`GroupCommit`); the promise settles once
   * their transaction has committed.
   */
  async recordCount(reading: CounterReading, now = Date.now()): Promise<WalkerTotals> {
    if (this.counts) return this.counts.run({ reading, now });
    const item = [{ reading, now }];
    const [totals] = this.queries.oneStatement
      ? await this.recordCounts(this.db, item)
      : await this.database.transaction((trx) => this.recordCounts(trx, item));
    if (!totals) throw new Error("no totals recorded");
    return totals;
  }

  /**
   * Records a group of readings in one transaction, in a few statements whatever its size (one on
   * PostgreSQL), taking locks in one global order so that groups running at once on PostgreSQL
   * cannot deadlock: the counters first (by walker, day and counter), then the day rows, then the
   * month rows.
   *
   * A counter is raised before its day is locked: every raise is followed, in its transaction, by a
   * recount that starts after the day's lock is taken, so the last recount of a day always sees
   * every committed counter.
   */
  private async recordCounts(db: Kysely<DatabaseSchema>, items: TimedReading[]): Promise<WalkerTotals[]> {
    const now = Math.max(...items.map((item) => item.now));
    // Readings of one counter in one group: the highest stands for them all.
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
      });
    }
    const reads = items.map(({ reading, now }, i) => totalsKey(reading.userId, reading.day, now, i));
    const counters = [...highest.values()];
    const holds = await paceHolds(db, this.database.dialect, counters, now);
    if (holds.length === 0)
      return walkerTotals(reads, await this.queries.recordCounts(db, counters, reads, now));
    // Steps above the pace are held back from prizes in the transaction that counts them.
    const countAndHold = async (trx: Kysely<DatabaseSchema>) => {
      const rows = await this.queries.recordCounts(trx, counters, reads, now);
      await holdPace(trx, this.database.dialect, holds, now);
      return rows;
    };
    const rows = db.isTransaction ? await countAndHold(db) : await this.database.transaction(countAndHold);
    return walkerTotals(reads, rows);
  }

  /** The walker's totals for `day`, London today and its month at `now`, read on `db`. */
  async totalsOf(
    db: Kysely<DatabaseSchema>,
    userId: string,
    day: DayString,
    now: number,
  ): Promise<WalkerTotals> {
    const reads = [totalsKey(userId, day, now)];
    const [totals] = walkerTotals(reads, await this.queries.totals(db, reads));
    if (!totals) throw new Error("no totals read");
    return totals;
  }

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

  /** Counted steps for each day from `from` to `to` (inclusive) that has any. */
  async dayTotals(userId: string, from: DayString, to: DayString): Promise<Map<DayString, number>> {
    const rows = await this.db
      .selectFrom("step_days")
      .select(["day", "total_steps"])
      .where("user_id", "=", userId)
      .where("day", ">=", from)
      .where("day", "<=", to)
      .execute();
    return new Map(rows.map((row) => [row.day, row.total_steps]));
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
