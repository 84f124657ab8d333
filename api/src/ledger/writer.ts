import type { DayString, MonthString } from "@charity-steps/shared-types";
import type { Kysely } from "kysely";
import type { DatabaseSchema } from "../db/schema/index.js";

/** One counter reading to max-merge, with the bounds of its London day (for the pace rule). */
export interface CounterRecord {
  user_id: string;
  day: DayString;
  counter_id: string;
  kind: "motion" | "health";
  source: string;
  steps: number;
  /** When the reading's London day begins and ends, in epoch milliseconds. */
  day_start: number;
  day_end: number;
}

/** A walker's day. */
export interface DayKey {
  user_id: string;
  day: DayString;
}

/** Whose totals to read: a day, London today and its month, for the `i`-th reading. */
export interface TotalsKey {
  i: number;
  user_id: string;
  day: DayString;
  today: DayString;
  month: MonthString;
}

/** A read's answer: its day's total, London today's and the month's. */
export interface TotalsRow {
  i: number;
  day_steps: number;
  today_steps: number;
  monthly_steps: number;
}

/** A write's answer to a read: its totals, and whether a counter of the read's day rose. */
export interface RecordedRow extends TotalsRow {
  raised: boolean;
}

/**
 * How the step ledger reaches one database: the write path (max-merge, the pace hold, the day
 * locks, the recount with its month roll-up) and the totals read, each written once per database.
 * `recordCounts` is atomic on its own; the other methods run on `db`, the database or a
 * transaction, as their caller chose.
 *
 * Rows are locked in one global order: counters, then days, then months, each in key order. That
 * keeps groups of syncs running at once on PostgreSQL from deadlocking; SQLite has one writer.
 */
export interface LedgerWriter {
  /**
   * How many groups of readings may be written at once: more than one only where each write takes
   * its row locks in the global order above (PostgreSQL), never where there is one writer (SQLite).
   */
  readonly groupsAtOnce: number;

  /**
   * Max-merges counter readings (at most one per counter), holds back from prizes the steps of
   * each raised counter above the pace, recounts the days of those that rose, and answers each
   * read with its totals afterwards and whether its walker's day rose: all of it atomic, in one
   * transaction or one statement of the writer's own.
   */
  recordCounts(counters: CounterRecord[], reads: TotalsKey[], now: number): Promise<RecordedRow[]>;

  /**
   * Takes the walker's turn at changes other than counter readings (manual entries), so that two
   * racing for the same walker count each other's. In a transaction.
   */
  lockWalker(trx: Kysely<DatabaseSchema>, userId: string): Promise<void>;

  /** Locks each day row (made if missing) until the transaction ends. In a transaction. */
  lockDays(trx: Kysely<DatabaseSchema>, days: DayKey[], now: number): Promise<void>;

  /**
   * Recounts locked days from their counters and manual entries by the day rule, and moves each
   * month's total by its days' change. In a transaction.
   */
  recountDays(trx: Kysely<DatabaseSchema>, days: DayKey[], now: number): Promise<void>;

  /** For each key: the day's total, today's and the month's, each read by primary key. */
  totals(db: Kysely<DatabaseSchema>, reads: TotalsKey[]): Promise<TotalsRow[]>;
}
