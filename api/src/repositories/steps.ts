import { randomUUID } from "node:crypto";
import {
  type DayString,
  londonDay,
  type ManualEntry,
  type ManualEntryResponse,
  type MonthString,
  monthOfDay,
  PHOTOS_PATH,
} from "@charity-steps/shared-types";
import type { Kysely } from "kysely";
import { type Database, isUniqueViolation } from "../db/database.js";
import { GroupCommit } from "../db/group-commit.js";
import type { DatabaseSchema } from "../db/schema/index.js";
import type { ManualStepEntriesTable } from "../db/schema/steps.js";
import { type CounterRecord, ledgerQueries, type TotalsKey, type TotalsRow } from "./ledger-queries.js";

/** How long the first answer to a manual entry is kept for replays: past the 30-day window of dates. */
export const IDEMPOTENCY_RECORD_TTL_MS = 35 * 86_400_000;

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

/** What a manual-entry request asks for, as far as recognising a replay goes. */
export interface ManualEntryRequest {
  userId: string;
  idempotencyKey: string;
  requestHash: string;
  day: DayString;
  steps: number;
  note: string;
}

export interface NewManualEntry extends ManualEntryRequest {
  photo: { contentType: string; width: number; height: number; data: Buffer };
}

export type ManualEntryOutcome =
  /** Both answer 201 with the body of the first answer. */
  | { kind: "created" | "replayed"; body: ManualEntryResponse }
  /** The key was already used for a different entry. */
  | { kind: "key-reused" };

type Transaction = Kysely<DatabaseSchema>;

/** A reading and the time it was received. */
interface TimedReading {
  reading: CounterReading;
  now: number;
}

/** On PostgreSQL, how many groups of readings are written at once (the pool has 10 connections). */
const COUNT_GROUPS_AT_ONCE = 4;

export interface StoredPhoto {
  content_type: string;
  data: Buffer;
}

/**
 * The step ledger: per-device day counters that only grow, manual entries with their
 * photo, and one row per walker and day holding the day's counted total. Writes to one day run one
 * after the other (SQLite has one writer; on PostgreSQL each first takes the day's row, inserted or
 * locked), so the total always reflects every committed counter.
 */
export class StepsRepository {
  private readonly queries: ReturnType<typeof ledgerQueries>;
  private readonly counts: GroupCommit<TimedReading, WalkerTotals>;

  constructor(private readonly database: Database) {
    this.queries = ledgerQueries(database.db, database.dialect);
    // PostgreSQL runs a few groups at once on the pool's connections, each one statement, atomic
    // on its own; SQLite has one writer, and runs a group's statements in a transaction.
    const postgres = database.dialect === "postgres";
    this.counts = new GroupCommit(database, (db, items) => this.recordCounts(db, items), {
      concurrency: postgres ? COUNT_GROUPS_AT_ONCE : 1,
      transaction: !postgres,
    });
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
  recordCount(reading: CounterReading, now = Date.now()): Promise<WalkerTotals> {
    return this.counts.run({ reading, now });
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
  private async recordCounts(db: Transaction, items: TimedReading[]): Promise<WalkerTotals[]> {
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
    const rows = await this.queries.recordCounts(db, [...highest.values()], reads, now);
    return walkerTotals(reads, rows);
  }

  /**
   * Stores a manual entry and its photo, counted in its day, and keeps the answer under its
   * Idempotency-Key. A replay of the key (even racing the first request) gets the first answer
   * and adds nothing.
   */
  async addManualEntry(input: NewManualEntry, now = Date.now()): Promise<ManualEntryOutcome> {
    const earlier = await this.findManualReplay(input, now);
    if (earlier) return earlier;
    try {
      return await this.database.transaction(async (trx) => {
        const photoId = randomUUID();
        await trx
          .insertInto("step_photos")
          .values({
            id: photoId,
            user_id: input.userId,
            content_type: input.photo.contentType,
            width: input.photo.width,
            height: input.photo.height,
            byte_size: input.photo.data.length,
            data: input.photo.data,
            created_at: now,
          })
          .execute();
        const day = { user_id: input.userId, day: input.day };
        await this.queries.lockDays(trx, [day], now);
        const row = {
          id: randomUUID(),
          user_id: input.userId,
          day: input.day,
          steps: input.steps,
          note: input.note,
          idempotency_key: input.idempotencyKey,
          photo_id: photoId,
          created_at: now,
        };
        await trx.insertInto("manual_step_entries").values(row).execute();
        await this.queries.recountDays(trx, [day], now);
        const body: ManualEntryResponse = {
          entry: toManualEntry(row),
          ...(await this.totalsOf(trx, input.userId, input.day, now)),
        };
        await trx
          .insertInto("idempotency_records")
          .values({
            user_id: input.userId,
            key: input.idempotencyKey,
            request_hash: input.requestHash,
            status_code: 201,
            response_body: JSON.stringify(body),
            created_at: now,
            expires_at: now + IDEMPOTENCY_RECORD_TTL_MS,
          })
          .execute();
        return { kind: "created" as const, body };
      });
    } catch (error) {
      if (!isUniqueViolation(error)) throw error;
      // Another request with the same key committed first.
      const replay = await this.findManualReplay(input, now);
      if (replay) return replay;
      throw error;
    }
  }

  /** The first answer for this key, if the key was used before. */
  async findManualReplay(
    input: ManualEntryRequest,
    now = Date.now(),
  ): Promise<ManualEntryOutcome | undefined> {
    const record = await this.db
      .selectFrom("idempotency_records")
      .select(["request_hash", "status_code", "response_body"])
      .where("user_id", "=", input.userId)
      .where("key", "=", input.idempotencyKey)
      .executeTakeFirst();
    if (record) {
      if (record.request_hash !== input.requestHash) return { kind: "key-reused" };
      return { kind: "replayed", body: JSON.parse(record.response_body) as ManualEntryResponse };
    }
    // The record expires; the entry keeps its key for good, so a very late replay still adds nothing.
    const entry = await this.db
      .selectFrom("manual_step_entries")
      .selectAll()
      .where("user_id", "=", input.userId)
      .where("idempotency_key", "=", input.idempotencyKey)
      .executeTakeFirst();
    if (!entry) return undefined;
    if (entry.day !== input.day || entry.steps !== input.steps || entry.note !== input.note) {
      return { kind: "key-reused" };
    }
    const totals = await this.totalsOf(this.db, input.userId, entry.day, now);
    return { kind: "replayed", body: { entry: toManualEntry(entry), ...totals } };
  }

  private async totalsOf(
    db: Transaction,
    userId: string,
    day: DayString,
    now: number,
  ): Promise<WalkerTotals> {
    const reads = [totalsKey(userId, day, now)];
    const [totals] = walkerTotals(reads, await this.queries.totals(db, reads));
    if (!totals) throw new Error("no totals read");
    return totals;
  }

  /** The walker's own proof photo; undefined for another walker's or an unknown id. */
  async findPhoto(userId: string, photoId: string): Promise<StoredPhoto | undefined> {
    return this.db
      .selectFrom("step_photos")
      .select(["content_type", "data"])
      .where("id", "=", photoId)
      .where("user_id", "=", userId)
      .executeTakeFirst();
  }

  async dayTotal(userId: string, day: DayString): Promise<number> {
    return dayTotalIn(this.db, userId, day);
  }

  async monthTotal(userId: string, month: MonthString): Promise<number> {
    return monthTotalIn(this.db, userId, month);
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

  /** Deletes the walker's expired idempotency records (never entries or steps); returns how many. */
  async deleteExpiredIdempotencyRecords(userId: string | null, now = Date.now()): Promise<number> {
    let query = this.db.deleteFrom("idempotency_records").where("expires_at", "<=", now);
    if (userId !== null) query = query.where("user_id", "=", userId);
    const result = await query.executeTakeFirst();
    return Number(result.numDeletedRows);
  }
}

async function dayTotalIn(db: Transaction, userId: string, day: DayString): Promise<number> {
  const row = await db
    .selectFrom("step_days")
    .select("total_steps")
    .where("user_id", "=", userId)
    .where("day", "=", day)
    .executeTakeFirst();
  return row?.total_steps ?? 0;
}

async function monthTotalIn(db: Transaction, userId: string, month: MonthString): Promise<number> {
  const row = await db
    .selectFrom("step_months")
    .select("total_steps")
    .where("user_id", "=", userId)
    .where("month", "=", month)
    .executeTakeFirst();
  return Number(row?.total_steps ?? 0);
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

function toManualEntry(row: ManualStepEntriesTable): ManualEntry {
  return {
    id: row.id,
    date: row.day,
    steps: row.steps,
    note: row.note,
    source: "manual_verified",
    createdAt: new Date(row.created_at).toISOString(),
    photoUrl: `${PHOTOS_PATH}/${row.photo_id}`,
  };
}
