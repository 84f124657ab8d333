import { randomUUID } from "node:crypto";
import {
  type DayString,
  dayTotal,
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
import { rowsParam } from "../db/json-rows.js";
import type { DatabaseSchema } from "../db/schema/index.js";
import type { ManualStepEntriesTable } from "../db/schema/steps.js";
import { type CounterRecord, type DayKey, ledgerQueries, type MonthChange } from "./ledger-queries.js";

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

/** A walker's day whose row this transaction holds, with its total when it was taken. */
interface LockedDay extends DayKey {
  before: number;
}

/** Whose totals to read, and when (London today and month at `now`). */
interface TotalsRead {
  userId: string;
  day: DayString;
  now: number;
}

export interface StoredPhoto {
  content_type: string;
  data: Buffer;
}

/**
 * The step ledger (DESIGN §5): per-device day counters that only grow, manual entries with their
 * photo, and one row per walker and day holding the day's counted total. Every write to a day
 * first takes that day's row (insert or lock), so concurrent writes to one day run one after the
 * other and the total always reflects every committed counter.
 */
export class StepsRepository {
  private readonly queries: ReturnType<typeof ledgerQueries>;
  private readonly counts: GroupCommit<TimedReading, WalkerTotals>;

  constructor(private readonly database: Database) {
    this.queries = ledgerQueries(database.db, database.dialect);
    // PostgreSQL runs a few groups at once on the pool's connections; SQLite has one writer.
    const concurrency = database.dialect === "postgres" ? COUNT_GROUPS_AT_ONCE : 1;
    this.counts = new GroupCommit(database, (trx, items) => this.recordCounts(trx, items), concurrency);
  }

  private get db() {
    return this.database.db;
  }

  /**
   * Max-merges one counter reading and, when it raised the counter, recounts the day; returns the
   * walker's totals afterwards. A replay or a late, lower count reads the totals and writes nothing.
   * Readings that arrive together are written in one transaction (`GroupCommit`); the promise
   * settles once that transaction has committed.
   */
  recordCount(reading: CounterReading, now = Date.now()): Promise<WalkerTotals> {
    return this.counts.run({ reading, now });
  }

  /**
   * Records a group of readings in one transaction, in a few statements whatever its size, taking
   * locks in one global order so that groups running at once on PostgreSQL cannot deadlock: the
   * counters first (by walker, day and counter), then the day rows, then the month rows.
   *
   * A counter is raised before its day is locked: every raise is followed, in its transaction, by a
   * recount that starts after the day's lock is taken, so the last recount of a day always sees
   * every committed counter.
   */
  private async recordCounts(trx: Transaction, items: TimedReading[]): Promise<WalkerTotals[]> {
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
    const raised = await this.queries.raiseCounters.execute(trx, {
      rows: rowsParam([...highest.values()]),
      now,
    });
    // Two counters of one day may rise: each day is locked and recounted once.
    const days = new Map(raised.map((row) => [`${row.user_id}|${row.day}`, row]));
    if (days.size > 0) await this.recountDays(trx, await this.lockDays(trx, [...days.values()], now), now);
    return this.totals(
      trx,
      items.map(({ reading, now }) => ({ userId: reading.userId, day: reading.day, now })),
    );
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
        const locked = await this.lockDays(trx, [{ user_id: input.userId, day: input.day }], now);
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
        await this.recountDays(trx, locked, now);
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

  /**
   * Makes sure each day row exists and holds its lock until the transaction ends (PostgreSQL row
   * lock; SQLite already allows one writer at a time); returns each day's total before the change.
   */
  private async lockDays(trx: Transaction, days: DayKey[], now: number): Promise<LockedDay[]> {
    const rows = days.map(({ user_id, day }) => ({ user_id, day, month: monthOfDay(day) }));
    const locked = await this.queries.lockDays.execute(trx, { rows: rowsParam(rows), now });
    return locked.map((row) => ({ user_id: row.user_id, day: row.day, before: Number(row.total_steps) }));
  }

  /**
   * Recounts locked days from their counters and manual entries (DESIGN §5), then moves each
   * month's total by its days' change.
   */
  private async recountDays(trx: Transaction, locked: LockedDay[], now: number): Promise<void> {
    const keys = locked.map(({ user_id, day }) => ({ user_id, day }));
    const parts = await this.queries.dayParts.execute(trx, { rows: rowsParam(keys) });
    const before = new Map(locked.map((day) => [`${day.user_id}|${day.day}`, day.before]));
    const counted = parts.map((day) => {
      const numbers = { motion: Number(day.motion), health: Number(day.health), manual: Number(day.manual) };
      return {
        user_id: day.user_id,
        day: day.day,
        month: monthOfDay(day.day),
        ...numbers,
        total: dayTotal(numbers),
      };
    });
    await this.queries.writeDays.execute(trx, { rows: rowsParam(counted), now });
    const changes = new Map<string, MonthChange>();
    for (const day of counted) {
      const change = day.total - (before.get(`${day.user_id}|${day.day}`) ?? 0);
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
    if (changes.size > 0)
      await this.queries.addToMonths.execute(trx, { rows: rowsParam([...changes.values()]), now });
  }

  /**
   * For each read: the walker's total on its day, and London today's and this month's at `now`,
   * each read by primary key however long the walker's history.
   */
  private async totals(db: Transaction, reads: TotalsRead[]): Promise<WalkerTotals[]> {
    const keys = reads.map(({ userId, day, now }, i) => {
      const today = londonDay(now);
      return { i, user_id: userId, day, today, month: monthOfDay(today) };
    });
    const rows = await this.queries.totals.execute(db, { rows: rowsParam(keys) });
    const byIndex = new Map(rows.map((row) => [Number(row.i), row]));
    return keys.map(({ i }) => {
      const row = byIndex.get(i);
      return {
        daySteps: Number(row?.day_steps ?? 0),
        todaySteps: Number(row?.today_steps ?? 0),
        monthlySteps: Number(row?.monthly_steps ?? 0),
      };
    });
  }

  private async totalsOf(
    db: Transaction,
    userId: string,
    day: DayString,
    now: number,
  ): Promise<WalkerTotals> {
    const [totals] = await this.totals(db, [{ userId, day, now }]);
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
