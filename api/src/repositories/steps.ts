import { randomUUID } from "node:crypto";
import {
  type DayString,
  dayTotal,
  londonDay,
  type ManualEntry,
  type ManualEntryResponse,
  type MonthString,
  monthOfDay,
} from "@charity-steps/shared-types";
import { type Kysely, sql } from "kysely";
import { type Database, isUniqueViolation } from "../db/database.js";
import type { DatabaseSchema } from "../db/schema/index.js";
import type { ManualStepEntriesTable } from "../db/schema/steps.js";

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

/**
 * The step ledger (DESIGN §5): per-device day counters that only grow, manual entries with their
 * photo, and one row per walker and day holding the day's counted total. Every write to a day
 * first takes that day's row (insert or lock), so concurrent writes to one day run one after the
 * other and the total always reflects every committed counter.
 */
export class StepsRepository {
  constructor(private readonly database: Database) {}

  private get db() {
    return this.database.db;
  }

  /** Max-merges one counter reading and recounts the day; returns the walker's totals afterwards. */
  async recordCount(reading: CounterReading, now = Date.now()): Promise<WalkerTotals> {
    return this.database.transaction(async (trx) => {
      await lockDay(trx, reading.userId, reading.day, now);
      await trx
        .insertInto("step_counters")
        .values({
          user_id: reading.userId,
          day: reading.day,
          counter_id: reading.counterId,
          kind: reading.kind,
          source: reading.source,
          steps: reading.steps,
          updated_at: now,
        })
        .onConflict((conflict) =>
          conflict
            .columns(["user_id", "day", "counter_id"])
            .doUpdateSet({
              steps: sql<number>`excluded.steps`,
              source: sql<string>`excluded.source`,
              updated_at: sql<number>`excluded.updated_at`,
            })
            // Only ever raise a counter: a lower or equal count (a replay, a late arrival) changes nothing.
            .where(sql<boolean>`excluded.steps > step_counters.steps`),
        )
        .execute();
      await recountDay(trx, reading.userId, reading.day, now);
      return totalsIn(trx, reading.userId, reading.day, now);
    });
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
        await lockDay(trx, input.userId, input.day, now);
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
        await recountDay(trx, input.userId, input.day, now);
        const body: ManualEntryResponse = {
          entry: toManualEntry(row),
          ...(await totalsIn(trx, input.userId, input.day, now)),
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
    const totals = await totalsIn(this.db, input.userId, entry.day, now);
    return { kind: "replayed", body: { entry: toManualEntry(entry), ...totals } };
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

/**
 * Makes sure the walker's day row exists and holds its lock until the transaction ends (PostgreSQL
 * row lock; SQLite already allows one writer at a time).
 */
async function lockDay(trx: Transaction, userId: string, day: DayString, now: number): Promise<void> {
  await trx
    .insertInto("step_days")
    .values({
      user_id: userId,
      day,
      month: monthOfDay(day),
      motion_steps: 0,
      health_steps: 0,
      manual_steps: 0,
      total_steps: 0,
      updated_at: now,
    })
    .onConflict((conflict) => conflict.columns(["user_id", "day"]).doUpdateSet({ updated_at: now }))
    .execute();
}

/** Recounts the day from its counters and manual entries (DESIGN §5), inside the day's lock. */
async function recountDay(trx: Transaction, userId: string, day: DayString, now: number): Promise<void> {
  const counters = await trx
    .selectFrom("step_counters")
    .select(["kind", "steps"])
    .where("user_id", "=", userId)
    .where("day", "=", day)
    .execute();
  const manual = await trx
    .selectFrom("manual_step_entries")
    .select((eb) => eb.fn.coalesce(eb.fn.sum<number>("steps"), eb.lit(0)).as("steps"))
    .where("user_id", "=", userId)
    .where("day", "=", day)
    .executeTakeFirstOrThrow();
  const parts = {
    motion: counters.filter((c) => c.kind === "motion").reduce((sum, c) => sum + c.steps, 0),
    health: Math.max(0, ...counters.filter((c) => c.kind === "health").map((c) => c.steps)),
    manual: Number(manual.steps),
  };
  await trx
    .updateTable("step_days")
    .set({
      motion_steps: parts.motion,
      health_steps: parts.health,
      manual_steps: parts.manual,
      total_steps: dayTotal(parts),
      updated_at: now,
    })
    .where("user_id", "=", userId)
    .where("day", "=", day)
    .execute();
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
    .selectFrom("step_days")
    .select((eb) => eb.fn.coalesce(eb.fn.sum<number>("total_steps"), eb.lit(0)).as("steps"))
    .where("user_id", "=", userId)
    .where("month", "=", month)
    .executeTakeFirstOrThrow();
  return Number(row.steps);
}

/** The synced day's total, and today's and this month's (London, at `now`). */
async function totalsIn(db: Transaction, userId: string, day: DayString, now: number): Promise<WalkerTotals> {
  const today = londonDay(now);
  const daySteps = await dayTotalIn(db, userId, day);
  const todaySteps = day === today ? daySteps : await dayTotalIn(db, userId, today);
  return { daySteps, todaySteps, monthlySteps: await monthTotalIn(db, userId, monthOfDay(today)) };
}

function toManualEntry(row: ManualStepEntriesTable): ManualEntry {
  return {
    id: row.id,
    date: row.day,
    steps: row.steps,
    note: row.note,
    source: "manual_verified",
    createdAt: new Date(row.created_at).toISOString(),
  };
}
