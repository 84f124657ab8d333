import type { BadgeFacts, CharityName, DayString, MonthString } from "@charity-steps/shared-types";
import { sql } from "kysely";
import type { Database } from "../db/database.js";

/** What the badges' rules read that one query can tell (the streak and prize entries come elsewhere). */
export type StepFacts = Pick<
  BadgeFacts,
  "bestDaySteps" | "bestMonthSteps" | "lifetimeSteps" | "recentMonthSteps" | "inGroup" | "charityName"
> & {
  /** Whether the walker held a ticket in a month's draw already run. */
  hasDrawTicket: boolean;
};

/** The badges walkers have earned, and the facts of their record the badges' rules read. */
export class BadgesRepository {
  constructor(private readonly database: Database) {}

  private get db() {
    return this.database.db;
  }

  /** Each badge the walker has earned, with when (ms). */
  async earned(userId: string): Promise<Map<string, number>> {
    const rows = await this.db
      .selectFrom("user_badges")
      .select(["badge_id", "earned_at"])
      .where("user_id", "=", userId)
      .execute();
    return new Map(rows.map((row) => [row.badge_id, Number(row.earned_at)]));
  }

  /** Awards `badgeIds` at `now`; one already earned keeps the time it was first earned. */
  async award(userId: string, badgeIds: readonly string[], now: number): Promise<void> {
    if (badgeIds.length === 0) return;
    await this.db
      .insertInto("user_badges")
      .values(badgeIds.map((badge_id) => ({ user_id: userId, badge_id, earned_at: now })))
      .onConflict((conflict) => conflict.columns(["user_id", "badge_id"]).doNothing())
      .execute();
  }

  /**
   * The walker's best day and month, every step they have counted, the larger of `months`' totals,
   * and whether they are in a group, hold a past draw's ticket, and support a charity: one query.
   * With `bestDayAmong` (some days), the best day is looked for among those days only (a walker's
   * whole history can be thousands of days).
   */
  async facts(
    userId: string,
    months: readonly MonthString[],
    bestDayAmong?: readonly DayString[],
  ): Promise<StepFacts> {
    const row = await this.db
      .selectFrom("users")
      .where("users.id", "=", userId)
      .select((eb) => [
        "users.charity_name",
        eb
          .selectFrom("step_days")
          .where("step_days.user_id", "=", userId)
          .$if(bestDayAmong !== undefined && bestDayAmong.length > 0, (days) =>
            days.where("step_days.day", "in", bestDayAmong ?? []),
          )
          .select((inner) => inner.fn.max("step_days.total_steps").as("steps"))
          .as("best_day"),
        eb
          .selectFrom("step_months")
          .where("step_months.user_id", "=", userId)
          .select((inner) => inner.fn.max("step_months.total_steps").as("steps"))
          .as("best_month"),
        eb
          .selectFrom("step_months")
          .where("step_months.user_id", "=", userId)
          .select((inner) => inner.fn.sum<number>("step_months.total_steps").as("steps"))
          .as("lifetime"),
        eb
          .selectFrom("step_months")
          .where("step_months.user_id", "=", userId)
          .where("step_months.month", "in", months)
          .select((inner) => inner.fn.max("step_months.total_steps").as("steps"))
          .as("recent_month"),
        eb
          .exists(
            eb
              .selectFrom("group_members")
              .where("group_members.user_id", "=", userId)
              .select(sql`1`.as("one")),
          )
          .as("in_group"),
        eb
          .exists(
            eb.selectFrom("draw_tickets").where("draw_tickets.user_id", "=", userId).select(sql`1`.as("one")),
          )
          .as("has_ticket"),
      ])
      .executeTakeFirstOrThrow();
    return {
      bestDaySteps: Number(row.best_day ?? 0),
      bestMonthSteps: Number(row.best_month ?? 0),
      lifetimeSteps: Number(row.lifetime ?? 0),
      recentMonthSteps: Number(row.recent_month ?? 0),
      inGroup: Boolean(row.in_group),
      hasDrawTicket: Boolean(row.has_ticket),
      charityName: row.charity_name as CharityName | null,
    };
  }
}
