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
import { type ExpressionBuilder, type Kysely, sql } from "kysely";
import { type Database, isUniqueViolation } from "../db/database.js";
import { type Param, prepareQuery } from "../db/prepared-query.js";
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

/** A walker's day whose row this transaction holds, with its total when it was taken. */
interface LockedDay {
  userId: string;
  day: DayString;
  total: number;
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

  constructor(private readonly database: Database) {
    this.queries = ledgerQueries(database.db);
  }

  private get db() {
    return this.database.db;
  }

  /**
   * Max-merges one counter reading and, when it raised the counter, recounts the day; returns the
   * walker's totals afterwards. A replay or a late, lower count reads the totals and writes nothing.
   *
   * The counter is raised before the day is locked: every raise is followed, in its transaction, by
   * a recount that starts after the day's lock is taken, so the last recount of a day always sees
   * every committed counter (locks are always taken counter first, then day: no deadlock).
   */
  async recordCount(reading: CounterReading, now = Date.now()): Promise<WalkerTotals> {
    const { userId, day } = reading;
    return this.database.transaction(async (trx) => {
      const raised = await this.queries.raiseCounter.executeTakeFirst(trx, {
        userId,
        day,
        counterId: reading.counterId,
        kind: reading.kind,
        source: reading.source,
        steps: reading.steps,
        now,
      });
      if (raised) await this.recountDay(trx, await this.lockDay(trx, userId, day, now), now);
      return this.totals(trx, userId, day, now);
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
        const locked = await this.lockDay(trx, input.userId, input.day, now);
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
        await this.recountDay(trx, locked, now);
        const body: ManualEntryResponse = {
          entry: toManualEntry(row),
          ...(await this.totals(trx, input.userId, input.day, now)),
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
    const totals = await this.totals(this.db, input.userId, entry.day, now);
    return { kind: "replayed", body: { entry: toManualEntry(entry), ...totals } };
  }

  /**
   * Makes sure the walker's day row exists and holds its lock until the transaction ends (PostgreSQL
   * row lock; SQLite already allows one writer at a time).
   */
  private async lockDay(trx: Transaction, userId: string, day: DayString, now: number): Promise<LockedDay> {
    const row = await this.queries.lockDay.executeTakeFirst(trx, {
      userId,
      day,
      month: monthOfDay(day),
      now,
    });
    return { userId, day, total: Number(row?.total_steps ?? 0) };
  }

  /**
   * Recounts a locked day from its counters and manual entries (DESIGN §5) and moves its month's
   * total by the day's change, all inside the day's lock.
   */
  private async recountDay(trx: Transaction, locked: LockedDay, now: number): Promise<void> {
    const { userId, day } = locked;
    const counted = await this.queries.dayParts.executeTakeFirst(trx, { userId, day });
    const parts = {
      motion: Number(counted?.motion ?? 0),
      health: Number(counted?.health ?? 0),
      manual: Number(counted?.manual ?? 0),
    };
    const total = dayTotal(parts);
    await this.queries.writeDay.execute(trx, { userId, day, ...parts, total, now });
    if (total !== locked.total) {
      await this.queries.addToMonth.execute(trx, {
        userId,
        month: monthOfDay(day),
        steps: total - locked.total,
        now,
      });
    }
  }

  /**
   * The synced day's total, and today's and this month's (London, at `now`): three rows read by
   * primary key, however long the walker's history.
   */
  private async totals(db: Transaction, userId: string, day: DayString, now: number): Promise<WalkerTotals> {
    const today = londonDay(now);
    const row = await this.queries.totals.executeTakeFirst(db, {
      userId,
      day,
      today,
      month: monthOfDay(today),
    });
    return {
      daySteps: Number(row?.day_steps ?? 0),
      todaySteps: Number(row?.today_steps ?? 0),
      monthlySteps: Number(row?.monthly_steps ?? 0),
    };
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

/**
 * The statements of the step-sync path, built and compiled once (`PreparedQuery`): a sync runs
 * two to six of them, thousands of times a second.
 */
function ledgerQueries(db: Kysely<DatabaseSchema>) {
  type Day = { userId: string; day: DayString };
  return {
    /** Raises one counter (a lower or equal count changes nothing); returns a row only if it rose. */
    raiseCounter: prepareQuery(
      db,
      (
        db,
        param: Param<
          Day & { counterId: string; kind: "motion" | "health"; source: string; steps: number; now: number }
        >,
      ) =>
        db
          .insertInto("step_counters")
          .values({
            user_id: param("userId"),
            day: param("day"),
            counter_id: param("counterId"),
            kind: param("kind"),
            source: param("source"),
            steps: param("steps"),
            updated_at: param("now"),
          })
          .onConflict((conflict) =>
            conflict
              .columns(["user_id", "day", "counter_id"])
              .doUpdateSet({
                steps: sql<number>`excluded.steps`,
                source: sql<string>`excluded.source`,
                updated_at: sql<number>`excluded.updated_at`,
              })
              .where(sql<boolean>`excluded.steps > step_counters.steps`),
          )
          .returning("steps"),
    ),

    /**
     * Inserts the day row or touches it: either way the row is locked until the transaction ends.
     * Returns the day's total as it stands (0 for a new row).
     */
    lockDay: prepareQuery(db, (db, param: Param<Day & { month: MonthString; now: number }>) =>
      db
        .insertInto("step_days")
        .values({
          user_id: param("userId"),
          day: param("day"),
          month: param("month"),
          motion_steps: 0,
          health_steps: 0,
          manual_steps: 0,
          total_steps: 0,
          updated_at: param("now"),
        })
        .onConflict((conflict) =>
          conflict.columns(["user_id", "day"]).doUpdateSet({ updated_at: sql<number>`excluded.updated_at` }),
        )
        .returning("total_steps"),
    ),

    /** The day's parts: motion is the sum of the devices, health the largest source, manual the sum. */
    dayParts: prepareQuery(db, (db, param: Param<Day>) => {
      const ofDay = (
        eb: ExpressionBuilder<DatabaseSchema, never>,
        table: "step_counters" | "manual_step_entries",
      ) => eb.selectFrom(table).where("user_id", "=", param("userId")).where("day", "=", param("day"));
      return db.selectNoFrom((eb) => [
        ofDay(eb, "step_counters")
          .select((eb) => eb.fn.coalesce(eb.fn.sum<number>("steps"), eb.lit(0)).as("steps"))
          .where("kind", "=", "motion")
          .as("motion"),
        ofDay(eb, "step_counters")
          .select((eb) => eb.fn.coalesce(eb.fn.max<number>("steps"), eb.lit(0)).as("steps"))
          .where("kind", "=", "health")
          .as("health"),
        ofDay(eb, "manual_step_entries")
          .select((eb) => eb.fn.coalesce(eb.fn.sum<number>("steps"), eb.lit(0)).as("steps"))
          .as("manual"),
      ]);
    }),

    writeDay: prepareQuery(
      db,
      (
        db,
        param: Param<Day & { motion: number; health: number; manual: number; total: number; now: number }>,
      ) =>
        db
          .updateTable("step_days")
          .set({
            motion_steps: param("motion"),
            health_steps: param("health"),
            manual_steps: param("manual"),
            total_steps: param("total"),
            updated_at: param("now"),
          })
          .where("user_id", "=", param("userId"))
          .where("day", "=", param("day")),
    ),

    /** Adds a day's change to its month's total (the month row is locked until the transaction ends). */
    addToMonth: prepareQuery(
      db,
      (db, param: Param<{ userId: string; month: MonthString; steps: number; now: number }>) =>
        db
          .insertInto("step_months")
          .values({
            user_id: param("userId"),
            month: param("month"),
            total_steps: param("steps"),
            updated_at: param("now"),
          })
          .onConflict((conflict) =>
            conflict.columns(["user_id", "month"]).doUpdateSet({
              total_steps: sql<number>`step_months.total_steps + excluded.total_steps`,
              updated_at: sql<number>`excluded.updated_at`,
            }),
          ),
    ),

    /** One day's total, today's and a month's. */
    totals: prepareQuery(db, (db, param: Param<Day & { today: DayString; month: MonthString }>) =>
      db.selectNoFrom((eb) => {
        const dayTotal = (day: DayString) =>
          eb
            .selectFrom("step_days")
            .select("total_steps")
            .where("user_id", "=", param("userId"))
            .where("day", "=", day);
        return [
          eb.fn.coalesce(dayTotal(param("day")), eb.lit(0)).as("day_steps"),
          eb.fn.coalesce(dayTotal(param("today")), eb.lit(0)).as("today_steps"),
          eb.fn
            .coalesce(
              eb
                .selectFrom("step_months")
                .select("total_steps")
                .where("user_id", "=", param("userId"))
                .where("month", "=", param("month")),
              eb.lit(0),
            )
            .as("monthly_steps"),
        ];
      }),
    ),
  };
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
