import { randomUUID } from "node:crypto";
import {
  DAILY_STEP_MAX,
  type DayString,
  londonDay,
  MANUAL_ENTRIES_PER_DAY_MAX,
  MANUAL_PHOTO_BYTES_PER_DAY_MAX,
  type ManualEntry,
  type ManualEntryResponse,
  PHOTOS_PATH,
} from "@charity-steps/shared-types";
import type { Kysely } from "kysely";
import { type Database, isUniqueViolation } from "../db/database.js";
import type { DatabaseSchema } from "../db/schema/index.js";
import type { ManualStepEntriesTable } from "../db/schema/steps.js";
import type { StepLedger } from "./step-ledger.js";
import type { NewPhoto, StepPhotos } from "./step-photos.js";

/** How long the first answer to a manual entry is kept for replays: past the 30-day window of dates. */
export const IDEMPOTENCY_RECORD_TTL_MS = 35 * 86_400_000;

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
  photo: NewPhoto;
}

export type ManualEntryOutcome =
  /** Both answer 201 with the body of the first answer. */
  | { kind: "created" | "replayed"; body: ManualEntryResponse }
  /** The key was already used for a different entry. */
  | { kind: "key-reused" }
  | ManualEntryRefusal;

/** Why a new entry is not taken (nothing is stored). */
export type ManualEntryRefusal =
  /** The entry would take its day past the daily maximum; `room` steps could still be added. */
  | { kind: "day-full"; room: number }
  /** The walker already sent the most entries allowed today (London). */
  | { kind: "too-many-entries" }
  /** The walker's photos today (London), with this one, would be more than allowed. */
  | { kind: "too-many-photo-bytes" };

/**
 * Manual entries: each counted in its day with its proof photo, and kept under the client's
 * Idempotency-Key, so that sending one again adds nothing.
 */
export class ManualEntries {
  constructor(
    private readonly database: Database,
    private readonly ledger: StepLedger,
    private readonly photos: StepPhotos,
  ) {}

  private get db() {
    return this.database.db;
  }

  /**
   * Stores a manual entry and its photo, counted in its day, and keeps the answer under its
   * Idempotency-Key. A replay of the key (even racing the first request) gets the first answer
   * and adds nothing.
   */
  async add(input: NewManualEntry, now = Date.now()): Promise<ManualEntryOutcome> {
    const earlier = await this.findReplay(input, now);
    if (earlier) return earlier;
    const { queries } = this.ledger;
    try {
      return await this.database.transaction(async (trx) => {
        // Written first: on SQLite the transaction then holds the write lock before it reads the
        // walker's day (a read that later writes may find the database changed under it). A refused
        // entry rolls it back.
        const photoId = await this.photos.add(trx, input.userId, input.photo, now);
        if (this.database.dialect === "postgres") {
          // The walker's entries of today are counted next: two racing entries take turns (this lock
          // leaves the walker's row free for the checks of foreign keys that syncs make).
          await trx
            .selectFrom("users")
            .select("id")
            .where("id", "=", input.userId)
            .forNoKeyUpdate()
            .execute();
        }
        const day = { user_id: input.userId, day: input.day };
        await queries.lockDays(trx, [day], now);
        const refusal = await this.refusal(input, input.photo.data.length, now, trx);
        if (refusal) throw new Refused(refusal);
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
        await queries.recountDays(trx, [day], now);
        const body: ManualEntryResponse = {
          entry: toManualEntry(row),
          ...(await this.ledger.totalsOf(trx, input.userId, input.day, now)),
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
      if (error instanceof Refused) return error.refusal;
      if (!isUniqueViolation(error)) throw error;
      // Another request with the same key committed first.
      const replay = await this.findReplay(input, now);
      if (replay) return replay;
      throw error;
    }
  }

  /**
   * Why this new entry (with a photo of `photoBytes` stored bytes) would be refused, or undefined when it
   * is taken. Checked again in the entry's transaction; checked first without the photo, so that a
   * refused entry costs no image work.
   */
  async refusal(
    input: Pick<ManualEntryRequest, "userId" | "day" | "steps">,
    photoBytes: number,
    now = Date.now(),
    db: Kysely<DatabaseSchema> = this.db,
  ): Promise<ManualEntryRefusal | undefined> {
    const parts = await db
      .selectFrom("step_days")
      .select(["motion_steps", "health_steps", "manual_steps"])
      .where("user_id", "=", input.userId)
      .where("day", "=", input.day)
      .executeTakeFirst();
    const counted = parts
      ? Math.max(Number(parts.motion_steps), Number(parts.health_steps)) + Number(parts.manual_steps)
      : 0;
    if (counted + input.steps > DAILY_STEP_MAX)
      return { kind: "day-full", room: Math.max(0, DAILY_STEP_MAX - counted) };

    // Today in London: the entries sent since a little over a day ago, kept if sent on today's date.
    const today = londonDay(now);
    const sent = (
      await db
        .selectFrom("manual_step_entries as e")
        .innerJoin("step_photos as p", "p.id", "e.photo_id")
        .select(["e.created_at", "p.byte_size"])
        .where("e.user_id", "=", input.userId)
        .where("e.created_at", ">", now - 2 * 86_400_000)
        .execute()
    ).filter((entry) => londonDay(Number(entry.created_at)) === today);
    if (sent.length >= MANUAL_ENTRIES_PER_DAY_MAX) return { kind: "too-many-entries" };
    const bytes = sent.reduce((sum, entry) => sum + Number(entry.byte_size), 0);
    if (bytes + photoBytes > MANUAL_PHOTO_BYTES_PER_DAY_MAX) return { kind: "too-many-photo-bytes" };
    return undefined;
  }

  /** The first answer for this key, if the key was used before. */
  async findReplay(input: ManualEntryRequest, now = Date.now()): Promise<ManualEntryOutcome | undefined> {
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
    const totals = await this.ledger.totalsOf(this.db, input.userId, entry.day, now);
    return { kind: "replayed", body: { entry: toManualEntry(entry), ...totals } };
  }

  /** Deletes the walker's expired idempotency records (never entries or steps); returns how many. */
  async deleteExpiredIdempotencyRecords(userId: string | null, now = Date.now()): Promise<number> {
    let query = this.db.deleteFrom("idempotency_records").where("expires_at", "<=", now);
    if (userId !== null) query = query.where("user_id", "=", userId);
    const result = await query.executeTakeFirst();
    return Number(result.numDeletedRows);
  }
}

/** Thrown inside the entry's transaction to roll it back; answered as the refusal it carries. */
class Refused extends Error {
  constructor(readonly refusal: ManualEntryRefusal) {
    super(refusal.kind);
  }
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
