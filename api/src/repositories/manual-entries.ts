import { randomUUID } from "node:crypto";
import {
  DAILY_STEP_MAX,
  type DayString,
  londonDay,
  MANUAL_ENTRIES_LIST_MAX,
  MANUAL_ENTRIES_PER_DAY_MAX,
  MANUAL_PHOTO_BYTES_PER_DAY_MAX,
  MANUAL_REVIEW_DAY_STEPS,
  MANUAL_REVIEW_MONTH_STEPS,
  type ManualEntry,
  type ManualEntryResponse,
  monthOfDay,
  PHOTO_HASH_MAX_DISTANCE,
  PHOTOS_PATH,
  REVIEW_REASON_MESSAGES,
  type ReviewReasonCode,
} from "@charity-steps/shared-types";
import type { Kysely, Selectable } from "kysely";
import { isUniqueViolation } from "../db/database.js";
import type { DatabaseSchema } from "../db/schema/index.js";
import type { ManualStepEntriesTable } from "../db/schema/steps.js";
import type { StepLedger } from "../ledger/ledger.js";
import type { NewPhoto, StepPhotosRepository } from "./step-photos.js";

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
  /** With the day its camera says it was taken (null when it does not say). */
  photo: NewPhoto & { captureDay: string | null };
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
export class ManualEntriesRepository {
  constructor(
    private readonly db: Kysely<DatabaseSchema>,
    private readonly ledger: StepLedger,
    private readonly photos: StepPhotosRepository,
  ) {}

  /**
   * Stores a manual entry and its photo, counted in its day, and keeps the answer under its
   * Idempotency-Key. A replay of the key (even racing the first request) gets the first answer
   * and adds nothing.
   */
  async add(input: NewManualEntry, now = Date.now()): Promise<ManualEntryOutcome> {
    const earlier = await this.findReplay(input, now);
    if (earlier) return earlier;
    const day = { user_id: input.userId, day: input.day };
    try {
      return await this.ledger.changeDays([day], now, async (change) => {
        const { trx } = change;
        // Written first: on SQLite the transaction then holds the write lock before it reads the
        // walker's day (a read that later writes may find the database changed under it). A refused
        // entry rolls it back.
        const photoId = await this.photos.add(trx, input.userId, input.photo, now);
        // The walker's entries of today are counted next: two racing entries take turns.
        await change.lockWalker(input.userId);
        await change.lockDays();
        const refusal = await this.refusal(input, input.photo.data.length, now, trx);
        if (refusal) throw new Refused(refusal);
        const reasons = await this.reviewReasons(trx, input, photoId);
        const row = {
          id: randomUUID(),
          user_id: input.userId,
          day: input.day,
          steps: input.steps,
          note: input.note,
          idempotency_key: input.idempotencyKey,
          photo_id: photoId,
          created_at: now,
          status: reasons.length === 0 ? ("approved" as const) : ("pending" as const),
          reasons: JSON.stringify(reasons),
          decision_reason: null,
        };
        await trx.insertInto("manual_step_entries").values(row).execute();
        await change.recountDays();
        const body: ManualEntryResponse = {
          entry: toManualEntry(row),
          ...(await change.totalsOf(input.userId, input.day)),
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

  /**
   * Why a new entry (its photo already stored as `photoId`) should wait for a check before it counts
   * for prizes; empty when it is approved at once. Read in the entry's transaction, after its day is
   * locked, so two entries racing cannot both slip under a threshold.
   */
  private async reviewReasons(
    trx: Kysely<DatabaseSchema>,
    input: NewManualEntry,
    photoId: string,
  ): Promise<ReviewReasonCode[]> {
    const reasons: ReviewReasonCode[] = [];
    if (await this.photos.hasSimilar(trx, photoId, input.photo.perceptualHash, PHOTO_HASH_MAX_DISTANCE))
      reasons.push("similar-photo");
    if (input.photo.captureDay === null) reasons.push("capture-date-missing");
    else if (input.photo.captureDay !== input.day) reasons.push("capture-date-other-day");

    const month = monthOfDay(input.day);
    const manual = await trx
      .selectFrom("manual_step_entries")
      .select((eb) => [
        eb.fn.coalesce(eb.fn.sum<number>("steps"), eb.lit(0)).as("month_steps"),
        eb.fn
          .coalesce(
            eb.fn.sum<number>(eb.case().when("day", "=", input.day).then(eb.ref("steps")).else(0).end()),
            eb.lit(0),
          )
          .as("day_steps"),
      ])
      .where("user_id", "=", input.userId)
      .where("day", ">=", `${month}-01`)
      .where("day", "<=", `${month}-31`)
      .executeTakeFirstOrThrow();
    if (Number(manual.day_steps) + input.steps > MANUAL_REVIEW_DAY_STEPS) reasons.push("manual-day-over");
    if (Number(manual.month_steps) + input.steps > MANUAL_REVIEW_MONTH_STEPS)
      reasons.push("manual-month-over");
    return reasons;
  }

  /** The walker's latest manual entries, newest first, with where each stands. */
  async list(userId: string): Promise<ManualEntry[]> {
    const rows = await this.db
      .selectFrom("manual_step_entries")
      .selectAll()
      .where("user_id", "=", userId)
      .orderBy("created_at", "desc")
      .orderBy("id")
      .limit(MANUAL_ENTRIES_LIST_MAX)
      .execute();
    return rows.map(toManualEntry);
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
      const body = JSON.parse(record.response_body) as ManualEntryResponse;
      // An answer stored before entries had a status was for an entry counted at once: approved.
      const stored: Partial<ManualEntry> = body.entry;
      const entry = {
        ...body.entry,
        status: stored.status ?? "approved",
        reasons: stored.reasons ?? [],
        decisionReason: stored.decisionReason ?? null,
      };
      return { kind: "replayed", body: { ...body, entry } };
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
    const totals = await this.ledger.totalsOf(input.userId, entry.day, now);
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

type EntryRow = Omit<Selectable<ManualStepEntriesTable>, "decided_at" | "decided_by">;

function toManualEntry(row: EntryRow): ManualEntry {
  return {
    id: row.id,
    date: row.day,
    steps: row.steps,
    note: row.note,
    source: "manual_verified",
    createdAt: new Date(Number(row.created_at)).toISOString(),
    photoUrl: `${PHOTOS_PATH}/${row.photo_id}`,
    status: row.status,
    reasons: reviewReasons(row.reasons),
    decisionReason: row.decision_reason,
  };
}

/** The stored reason codes (a JSON array), each with what the walker reads. */
export function reviewReasons(stored: string): { code: ReviewReasonCode; message: string }[] {
  const codes = JSON.parse(stored) as ReviewReasonCode[];
  return codes.map((code) => ({ code, message: REVIEW_REASON_MESSAGES[code] }));
}
