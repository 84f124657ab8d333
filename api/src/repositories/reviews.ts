import {
  addDays,
  type EntryStatus,
  londonDay,
  operatorReviewPhotoPath,
  type PaceReview,
  REVIEW_HISTORY_DAYS,
  REVIEW_REASON_MESSAGES,
  type ReviewItem,
} from "@charity-steps/shared-types";
import { type Kysely, sql } from "kysely";
import type { Database } from "../db/database.js";
import type { DatabaseSchema } from "../db/schema/index.js";
import type { AuditLogRepository } from "./audit-log.js";
import { reviewReasons } from "./manual-entries.js";
import type { StoredPhoto } from "./step-photos.js";

/** What an operator decides about steps that wait for a check. */
export type ReviewDecision = "approve" | "reject";

/** Why a decision was not recorded. */
export type DecisionRefusal = "not-found" | "already-decided";

/** A review waiting (or decided), before the walker's recent days are added. */
interface ReviewRow {
  id: string;
  kind: "manual" | "pace";
  status: EntryStatus;
  user_id: string;
  first_name: string | null;
  last_name: string | null;
  email: string | null;
  day: string;
  steps: number;
  note: string;
  reasons: string;
  created_at: number;
  decision_reason: string | null;
}

/**
 * Steps that wait for an operator's check: manual entries held when they were sent, and counters'
 * steps above the pace (`pace_reviews`). Approving one makes its steps count for prizes; rejecting
 * one keeps them counted and visible to their walker, never eligible. Every decision is written to
 * the audit log in its own transaction.
 */
export class ReviewsRepository {
  constructor(
    private readonly database: Database,
    private readonly auditLog: AuditLogRepository,
  ) {}

  private get db() {
    return this.database.db;
  }

  private manualRows(db: Kysely<DatabaseSchema>) {
    return db
      .selectFrom("manual_step_entries as e")
      .innerJoin("users as u", "u.id", "e.user_id")
      .select([
        "e.id",
        sql.lit("manual").$castTo<"manual" | "pace">().as("kind"),
        "e.status",
        "e.user_id",
        "u.first_name",
        "u.last_name",
        "u.email",
        "e.day",
        "e.steps",
        "e.note",
        "e.reasons",
        "e.created_at",
        "e.decision_reason",
      ]);
  }

  private paceRows(db: Kysely<DatabaseSchema>) {
    return db
      .selectFrom("pace_reviews as p")
      .innerJoin("users as u", "u.id", "p.user_id")
      .select([
        "p.id",
        sql.lit("pace").$castTo<"manual" | "pace">().as("kind"),
        "p.status",
        "p.user_id",
        "u.first_name",
        "u.last_name",
        "u.email",
        "p.day",
        "p.steps",
        sql.lit("").$castTo<string>().as("note"),
        sql.lit('["pace"]').$castTo<string>().as("reasons"),
        "p.created_at",
        "p.decision_reason",
      ]);
  }

  /** Up to `limit` reviews that wait, oldest first, each with its walker's latest days. */
  async queue(limit: number, now = Date.now()): Promise<ReviewItem[]> {
    const manual = await this.manualRows(this.db)
      .where("e.status", "=", "pending")
      .orderBy("e.created_at")
      .orderBy("e.id")
      .limit(limit)
      .execute();
    const pace = await this.paceRows(this.db)
      .where("p.status", "=", "pending")
      .orderBy("p.created_at")
      .orderBy("p.id")
      .limit(limit)
      .execute();
    const rows = [...manual, ...pace]
      .sort((a, b) => Number(a.created_at) - Number(b.created_at) || (a.id < b.id ? -1 : 1))
      .slice(0, limit);
    return this.withRecentDays(rows as ReviewRow[], now);
  }

  /** The walker's own counts held for their pace, newest first, with where each stands. */
  async paceReviewsOf(userId: string, limit: number): Promise<PaceReview[]> {
    const rows = await this.db
      .selectFrom("pace_reviews")
      .select(["id", "day", "steps", "status", "created_at", "decision_reason"])
      .where("user_id", "=", userId)
      .orderBy("created_at", "desc")
      .orderBy("id")
      .limit(limit)
      .execute();
    return rows.map((row) => ({
      id: row.id,
      date: row.day,
      steps: Number(row.steps),
      createdAt: new Date(Number(row.created_at)).toISOString(),
      status: row.status,
      reasons: [{ code: "pace", message: REVIEW_REASON_MESSAGES.pace }],
      decisionReason: row.decision_reason,
    }));
  }

  /** One review, waiting or decided, or undefined for an unknown id. */
  async find(id: string, now = Date.now()): Promise<ReviewItem | undefined> {
    const row =
      (await this.manualRows(this.db).where("e.id", "=", id).executeTakeFirst()) ??
      (await this.paceRows(this.db).where("p.id", "=", id).executeTakeFirst());
    if (!row) return undefined;
    const [item] = await this.withRecentDays([row as ReviewRow], now);
    return item;
  }

  /** The proof photo of a manual entry under review (any walker's), for the operator checking it. */
  async photo(id: string): Promise<StoredPhoto | undefined> {
    return this.db
      .selectFrom("manual_step_entries as e")
      .innerJoin("step_photos as p", "p.id", "e.photo_id")
      .select(["p.content_type", "p.data"])
      .where("e.id", "=", id)
      .executeTakeFirst();
  }

  /**
   * Records an operator's decision on a waiting review, with the reason its walker reads, and writes
   * it to the audit log in the same transaction. A review decided already is left as it is.
   */
  async decide(
    id: string,
    decision: ReviewDecision,
    reason: string | null,
    operatorUserId: string,
    now = Date.now(),
  ): Promise<DecisionRefusal | undefined> {
    const status: EntryStatus = decision === "approve" ? "approved" : "rejected";
    const decided = { status, decision_reason: reason, decided_at: now, decided_by: operatorUserId };
    return this.database.transaction(async (trx) => {
      const entry = await trx
        .updateTable("manual_step_entries")
        .set(decided)
        .where("id", "=", id)
        .where("status", "=", "pending")
        .returning(["user_id", "day", "steps", "reasons"])
        .executeTakeFirst();
      let subject: string;
      let before: unknown;
      if (entry) {
        subject = `manual-entry:${id}`;
        before = {
          status: "pending",
          userId: entry.user_id,
          day: entry.day,
          steps: entry.steps,
          reasons: JSON.parse(entry.reasons),
        };
      } else {
        const pace = await trx
          .updateTable("pace_reviews")
          .set(decided)
          .where("id", "=", id)
          .where("status", "=", "pending")
          .returning(["user_id", "day", "counter_id", "steps"])
          .executeTakeFirst();
        if (!pace) return (await this.exists(trx, id)) ? "already-decided" : "not-found";
        // The counter's held steps move: approved ones count for prizes, rejected ones never will.
        await trx
          .updateTable("step_counters")
          .set((eb) => ({
            pending_steps: eb("pending_steps", "-", pace.steps),
            ...(status === "rejected" ? { rejected_steps: eb("rejected_steps", "+", pace.steps) } : {}),
          }))
          .where("user_id", "=", pace.user_id)
          .where("day", "=", pace.day)
          .where("counter_id", "=", pace.counter_id)
          .execute();
        subject = `pace-review:${id}`;
        before = {
          status: "pending",
          userId: pace.user_id,
          day: pace.day,
          counterId: pace.counter_id,
          steps: pace.steps,
          reasons: ["pace"],
        };
      }
      await this.auditLog.append(trx, {
        operatorUserId,
        action: `review.${decision}`,
        subject,
        before,
        after: { status, reason },
        at: now,
      });
      return undefined;
    });
  }

  private async exists(db: Kysely<DatabaseSchema>, id: string): Promise<boolean> {
    const entry = await db
      .selectFrom("manual_step_entries")
      .select("id")
      .where("id", "=", id)
      .executeTakeFirst();
    if (entry) return true;
    return (
      (await db.selectFrom("pace_reviews").select("id").where("id", "=", id).executeTakeFirst()) !== undefined
    );
  }

  /** Each review as the operator reads it, with its walker's latest days (read in one query). */
  private async withRecentDays(rows: ReviewRow[], now: number): Promise<ReviewItem[]> {
    const today = londonDay(now);
    const from = addDays(today, -(REVIEW_HISTORY_DAYS - 1));
    const walkers = [...new Set(rows.map((row) => row.user_id))];
    const totals = new Map<string, number>();
    if (walkers.length > 0) {
      const days = await this.db
        .selectFrom("step_days")
        .select(["user_id", "day", "total_steps"])
        .where("user_id", "in", walkers)
        .where("day", ">=", from)
        .where("day", "<=", today)
        .execute();
      for (const day of days) totals.set(`${day.user_id}|${day.day}`, Number(day.total_steps));
    }
    return rows.map((row) => ({
      id: row.id,
      kind: row.kind,
      status: row.status,
      userId: row.user_id,
      walkerName: [row.first_name, row.last_name].filter(Boolean).join(" "),
      walkerEmail: row.email,
      date: row.day,
      steps: Number(row.steps),
      note: row.note,
      reasons:
        row.kind === "pace"
          ? [{ code: "pace", message: REVIEW_REASON_MESSAGES.pace }]
          : reviewReasons(row.reasons),
      createdAt: new Date(Number(row.created_at)).toISOString(),
      photoUrl: row.kind === "manual" ? operatorReviewPhotoPath(row.id) : null,
      recentDays: Array.from({ length: REVIEW_HISTORY_DAYS }, (_, index) => {
        const date = addDays(from, index);
        return { date, steps: totals.get(`${row.user_id}|${date}`) ?? 0 };
      }),
      decisionReason: row.decision_reason,
    }));
  }
}
