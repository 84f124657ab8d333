import {
  addDays,
  type DrawOutliers,
  type EntryStatus,
  type HeldDaySummary,
  isLateDay,
  londonDay,
  type MonthDecision,
  type MonthString,
  operatorReviewPhotoPath,
  type PaceReview,
  prizeEntries,
  REVIEW_HISTORY_DAYS,
  REVIEW_REASON_MESSAGES,
  type ReviewItem,
  type WalkerReviewGroup,
} from "@charity-steps/shared-types";
import { type Kysely, sql } from "kysely";
import type { Database } from "../db/database.js";
import type { DatabaseSchema } from "../db/schema/index.js";
import type { EligibleSteps } from "../ledger/eligible-steps.js";
import type { AuditLogRepository } from "./audit-log.js";
import { reviewReasons } from "./manual-entries.js";
import type { StoredPhoto } from "./step-photos.js";

type HeldDayRow = Awaited<ReturnType<EligibleSteps["heldDays"]>>[number];

/** A held day as the operator reads it: its steps, and why they wait in fair play's words. */
const heldDaySummary = (day: HeldDayRow): HeldDaySummary => ({
  date: day.day,
  countedSteps: day.countedSteps,
  eligibleSteps: day.eligibleSteps,
  pendingSteps: day.pendingSteps,
  late: day.late,
  reasons: day.reasons.map((code) => ({ code, message: REVIEW_REASON_MESSAGES[code] })),
});

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
    private readonly eligibleSteps: EligibleSteps,
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
        await this.movePaceSteps(trx, pace, status);
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

  /** A decided pace review's steps move on its counter: approved ones count, rejected ones never will. */
  private async movePaceSteps(
    trx: Kysely<DatabaseSchema>,
    pace: { user_id: string; day: string; counter_id: string; steps: number },
    status: EntryStatus,
  ): Promise<void> {
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
  }

  /**
   * What waits in `months`, grouped by walker and month (one group however many devices, counters
   * or entries it came from), the most steps waiting first: one page of `pageSize` groups.
   */
  async walkersWaiting(
    months: MonthString[],
    page: number,
    pageSize: number,
  ): Promise<{ walkers: WalkerReviewGroup[]; pageCount: number }> {
    const from = `${months[0]}-01`;
    const to = `${months.at(-1)}-31`;
    const groups = new Map<
      string,
      { userId: string; month: string; pendingSteps: number; days: HeldDayRow[] }
    >();
    for (const day of await this.eligibleSteps.heldDays({ from, to })) {
      if (day.pendingSteps <= 0) continue;
      const month = day.day.slice(0, 7);
      const key = `${day.userId}|${month}`;
      const group = groups.get(key) ?? { userId: day.userId, month, pendingSteps: 0, days: [] };
      group.pendingSteps += day.pendingSteps;
      group.days.push(day);
      groups.set(key, group);
    }
    const ordered = [...groups.values()].sort(
      (a, b) =>
        b.pendingSteps - a.pendingSteps ||
        (a.userId < b.userId ? -1 : a.userId > b.userId ? 1 : 0) ||
        (a.month < b.month ? -1 : 1),
    );
    const pageCount = Math.max(1, Math.ceil(ordered.length / pageSize));
    const shown = ordered.slice((page - 1) * pageSize, page * pageSize);
    const ids = [...new Set(shown.map((group) => group.userId))];
    const people =
      ids.length === 0
        ? []
        : await this.db
            .selectFrom("users")
            .select(["id", "first_name", "last_name", "email"])
            .where("id", "in", ids)
            .execute();
    const personOf = new Map(people.map((person) => [person.id, person]));
    const walkers = shown.map((group) => {
      const person = personOf.get(group.userId);
      return {
        userId: group.userId,
        walkerName: [person?.first_name, person?.last_name].filter(Boolean).join(" "),
        walkerEmail: person?.email ?? null,
        month: group.month,
        pendingSteps: group.pendingSteps,
        days: group.days.sort((a, b) => (a.day < b.day ? -1 : 1)).map(heldDaySummary),
      };
    });
    return { walkers, pageCount };
  }

  /**
   * The walkers whose tickets in `month` (from the steps that count for prizes now) are above the
   * month's 99th percentile (nearest rank, over every walker with steps), the most first, at most
   * `limit` of them, each with the month's late days and the days that hold steps back.
   */
  async outliers(month: MonthString, limit: number): Promise<DrawOutliers> {
    const walkers = [...(await this.eligibleSteps.months(month)).values()].map((walker) => ({
      ...walker,
      tickets: prizeEntries(walker.eligibleSteps),
    }));
    const ranked = walkers.map((walker) => walker.tickets).sort((a, b) => a - b);
    const percentile99Tickets =
      ranked.length === 0 ? 0 : (ranked[Math.max(0, Math.ceil(0.99 * ranked.length) - 1)] ?? 0);
    const above = walkers
      .filter((walker) => walker.tickets > percentile99Tickets)
      .sort((a, b) => b.tickets - a.tickets || (a.userId < b.userId ? -1 : 1))
      .slice(0, limit);
    const ids = above.map((walker) => walker.userId);
    if (ids.length === 0) return { month, walkers: walkers.length, percentile99Tickets, above: [] };
    const from = `${month}-01`;
    const to = `${month}-31`;
    const [people, days, held] = await Promise.all([
      this.db
        .selectFrom("users")
        .select(["id", "first_name", "last_name", "email"])
        .where("id", "in", ids)
        .execute(),
      this.db
        .selectFrom("step_days")
        .select(["user_id", "day", "first_reading_at"])
        .where("user_id", "in", ids)
        .where("day", ">=", from)
        .where("day", "<=", to)
        .orderBy("day")
        .execute(),
      this.eligibleSteps.heldDays({ from, to, userIds: ids }),
    ]);
    const personOf = new Map(people.map((person) => [person.id, person]));
    return {
      month,
      walkers: walkers.length,
      percentile99Tickets,
      above: above.map((walker) => {
        const person = personOf.get(walker.userId);
        return {
          userId: walker.userId,
          walkerName: [person?.first_name, person?.last_name].filter(Boolean).join(" "),
          walkerEmail: person?.email ?? null,
          tickets: walker.tickets,
          countedSteps: walker.countedSteps,
          eligibleSteps: walker.eligibleSteps,
          pendingSteps: walker.pendingSteps,
          lateDays: days
            .filter(
              (day) =>
                day.user_id === walker.userId &&
                isLateDay(day.day, day.first_reading_at === null ? null : Number(day.first_reading_at)),
            )
            .map((day) => day.day),
          heldDays: held
            .filter((day) => day.userId === walker.userId)
            .sort((a, b) => (a.day < b.day ? -1 : 1))
            .map(heldDaySummary),
        };
      }),
    };
  }

  /**
   * One decision on everything of a walker's month that waits: its manual entries, its counters'
   * steps above the pace, and the steps the day rules hold (late days, days above the ceiling,
   * further devices), with the reason its walker reads. Written to the audit log in the same
   * transaction. Undefined when nothing of the month waits.
   */
  async decideMonth(
    userId: string,
    month: MonthString,
    decision: ReviewDecision,
    reason: string | null,
    operatorUserId: string,
    now = Date.now(),
  ): Promise<{ decided: MonthDecision; decidedAt: number } | undefined> {
    const status = decision === "approve" ? ("approved" as const) : ("rejected" as const);
    const decided = { status, decision_reason: reason, decided_at: now, decided_by: operatorUserId };
    const from = `${month}-01`;
    const to = `${month}-31`;
    return this.database.transaction(async (trx) => {
      const entries = await trx
        .updateTable("manual_step_entries")
        .set(decided)
        .where("user_id", "=", userId)
        .where("day", ">=", from)
        .where("day", "<=", to)
        .where("status", "=", "pending")
        .returning(["id", "day", "steps"])
        .execute();
      const paces = await trx
        .updateTable("pace_reviews")
        .set(decided)
        .where("user_id", "=", userId)
        .where("day", ">=", from)
        .where("day", "<=", to)
        .where("status", "=", "pending")
        .returning(["id", "user_id", "day", "counter_id", "steps"])
        .execute();
      for (const pace of paces) await this.movePaceSteps(trx, pace, status);
      // The day rules weigh the days again now that the pace's steps have moved.
      const days = (await this.eligibleSteps.heldDays({ from, to, userId }, trx)).filter(
        (day) => day.dayHeldSteps > 0,
      );
      for (const day of days) {
        const steps = day.dayHeldSteps;
        await trx
          .insertInto("day_reviews")
          .values({
            user_id: userId,
            day: day.day,
            approved_steps: status === "approved" ? steps : 0,
            rejected_steps: status === "rejected" ? steps : 0,
            decision_reason: reason,
            decided_at: now,
            decided_by: operatorUserId,
          })
          .onConflict((conflict) =>
            conflict.columns(["user_id", "day"]).doUpdateSet((eb) => ({
              approved_steps: eb("day_reviews.approved_steps", "+", eb.ref("excluded.approved_steps")),
              rejected_steps: eb("day_reviews.rejected_steps", "+", eb.ref("excluded.rejected_steps")),
              decision_reason: eb.ref("excluded.decision_reason"),
              decided_at: eb.ref("excluded.decided_at"),
              decided_by: eb.ref("excluded.decided_by"),
            })),
          )
          .execute();
      }
      if (entries.length === 0 && paces.length === 0 && days.length === 0) return undefined;
      const result: MonthDecision = {
        userId,
        month,
        status,
        manualEntries: entries.length,
        paceReviews: paces.length,
        days: days.length,
        steps: days.reduce((sum, day) => sum + day.dayHeldSteps, 0),
      };
      await this.auditLog.append(trx, {
        operatorUserId,
        action: `review.month.${decision}`,
        subject: `walker-month:${userId}:${month}`,
        before: {
          status: "pending",
          manualEntries: entries.map((entry) => ({ id: entry.id, day: entry.day, steps: entry.steps })),
          paceReviews: paces.map((pace) => ({ id: pace.id, day: pace.day, steps: pace.steps })),
          days: days.map((day) => ({ day: day.day, steps: day.dayHeldSteps, reasons: day.reasons })),
        },
        after: { status, reason },
        at: now,
      });
      return { decided: result, decidedAt: now };
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
