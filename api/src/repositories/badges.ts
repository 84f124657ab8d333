import type { BadgeFacts, CharityName, DayString, MonthString } from "@charity-steps/shared-types";
import { sql } from "kysely";
import type { Database } from "../db/database.js";
import { jsonRows, rowsOfEachKey, rowsParam } from "../db/json-rows.js";
import { ERASED_SUBJECT_PREFIX } from "./account-data.js";

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

  /** Each badge each walker has earned, with when (ms); a walker with none maps to an empty map. */
  async earnedBy(userIds: readonly string[]): Promise<Map<string, Map<string, number>>> {
    const earned = new Map(userIds.map((userId) => [userId, new Map<string, number>()]));
    if (userIds.length === 0) return earned;
    const rows = await this.db
      .selectFrom("user_badges")
      .select(["user_id", "badge_id", "earned_at"])
      .where("user_id", "in", userIds)
      .execute();
    for (const row of rows) earned.get(row.user_id)?.set(row.badge_id, Number(row.earned_at));
    return earned;
  }

  /** Awards each walker their badges at `now`; one already earned keeps the time it was first earned. */
  async award(
    awards: readonly { userId: string; badgeIds: readonly string[] }[],
    now: number,
  ): Promise<void> {
    const values = awards
      .flatMap(({ userId, badgeIds }) => badgeIds.map((badge_id) => ({ id: userId, badge_id })))
      .sort((a, b) => (a.id < b.id ? -1 : a.id > b.id ? 1 : a.badge_id < b.badge_id ? -1 : 1));
    if (values.length === 0) return;
    const { dialect } = this.database;
    // Only to walkers not erased as it runs: an erasure removed what they had earned. PostgreSQL
    // share-locks them, so an erasure under way is waited for, then seen. They are locked in id
    // order (the rows' order here), as the notices lock walkers, so that a look's award and its
    // notices never wait for each other in a circle. SQLite writes one at a time.
    const walkers = rowsOfEachKey(
      dialect,
      jsonRows(dialect, rowsParam(values), { id: "text", badge_id: "text" }),
      "users",
      "u",
      ["id"],
    );
    await sql`
      insert into user_badges (user_id, badge_id, earned_at)
      select r.id, r.badge_id, cast(${now} as bigint)
      from ${walkers}
      where u.subject not like ${`${ERASED_SUBJECT_PREFIX}%`}
      order by r.id, r.badge_id
      ${dialect === "postgres" ? sql`for share of u` : sql``}
      on conflict (user_id, badge_id) do nothing`.execute(this.db);
  }

  /**
   * Each walker's best day and month, every step they have counted, the larger of `months`' totals,
   * and whether they are in a group, hold a past draw's ticket, and support a charity: one query for
   * them all. With `bestDayAmong` (some days), the best day is looked for among those days only (a
   * walker's whole history can be thousands of days). A walker with no account, or an erased one, is
   * absent.
   */
  async factsOf(
    userIds: readonly string[],
    months: readonly MonthString[],
    bestDayAmong?: readonly DayString[],
  ): Promise<Map<string, StepFacts>> {
    if (userIds.length === 0) return new Map();
    const rows = await this.db
      .selectFrom("users")
      .where("users.id", "in", userIds)
      // An erased account earns nothing more: a look that was waiting when it went finds no facts.
      .where("users.subject", "not like", `${ERASED_SUBJECT_PREFIX}%`)
      .select((eb) => [
        "users.id",
        "users.charity_name",
        eb
          .selectFrom("step_days")
          .whereRef("step_days.user_id", "=", "users.id")
          .$if(bestDayAmong !== undefined && bestDayAmong.length > 0, (days) =>
            days.where("step_days.day", "in", bestDayAmong ?? []),
          )
          .select((inner) => inner.fn.max("step_days.total_steps").as("steps"))
          .as("best_day"),
        eb
          .selectFrom("step_months")
          .whereRef("step_months.user_id", "=", "users.id")
          .select((inner) => inner.fn.max("step_months.total_steps").as("steps"))
          .as("best_month"),
        eb
          .selectFrom("step_months")
          .whereRef("step_months.user_id", "=", "users.id")
          .select((inner) => inner.fn.sum<number>("step_months.total_steps").as("steps"))
          .as("lifetime"),
        eb
          .selectFrom("step_months")
          .whereRef("step_months.user_id", "=", "users.id")
          .where("step_months.month", "in", months)
          .select((inner) => inner.fn.max("step_months.total_steps").as("steps"))
          .as("recent_month"),
        eb
          .exists(
            eb
              .selectFrom("group_members")
              .whereRef("group_members.user_id", "=", "users.id")
              .select(sql`1`.as("one")),
          )
          .as("in_group"),
        eb
          .exists(
            eb
              .selectFrom("draw_tickets")
              .whereRef("draw_tickets.user_id", "=", "users.id")
              .select(sql`1`.as("one")),
          )
          .as("has_ticket"),
      ])
      .execute();
    return new Map(
      rows.map((row) => [
        row.id,
        {
          bestDaySteps: Number(row.best_day ?? 0),
          bestMonthSteps: Number(row.best_month ?? 0),
          lifetimeSteps: Number(row.lifetime ?? 0),
          recentMonthSteps: Number(row.recent_month ?? 0),
          inGroup: Boolean(row.in_group),
          hasDrawTicket: Boolean(row.has_ticket),
          charityName: row.charity_name as CharityName | null,
        },
      ]),
    );
  }
}
