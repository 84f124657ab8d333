import {
  addDays,
  DAILY_GOAL_MIN,
  type DayString,
  type GoalFrom,
  goalOn,
  type PreferencesResponse,
  type Streak,
  streakOf,
  type Theme,
  type WeekSummaryResponse,
  weekSummary,
} from "@charity-steps/shared-types";
import type { Database } from "../db/database.js";

export interface PreferencesChange {
  dailyGoal?: number | undefined;
  theme?: Theme | undefined;
  weeklyEmail?: boolean | undefined;
  onboarded?: true | undefined;
}

/** A walker the week's summary is mailed to. */
export interface WeeklySummaryWalker {
  id: string;
  firstName: string | null;
  charityName: string | null;
}

/** Where a walker stands against their own goal today, and their runs of days on goal. */
export interface GoalStanding {
  dailyGoal: number;
  todayOnGoal: boolean;
  streak: Streak;
}

/**
 * The walker's daily habit: their settings (goal, theme, welcome), each goal from the day it was set,
 * and their streaks, judged on every counted step (as leaderboards count), each day by its own goal.
 */
export class HabitsRepository {
  constructor(private readonly database: Database) {}

  private get db() {
    return this.database.db;
  }

  /** The walker's goals in order of the day each began. */
  async goals(userId: string): Promise<GoalFrom[]> {
    const rows = await this.db
      .selectFrom("daily_goals")
      .select(["from_day", "goal"])
      .where("user_id", "=", userId)
      .orderBy("from_day")
      .execute();
    return rows.map((row) => ({ from: row.from_day, goal: row.goal }));
  }

  async preferences(userId: string, today: DayString): Promise<PreferencesResponse> {
    const user = await this.db
      .selectFrom("users")
      .select(["theme", "onboarded_at", "weekly_email_off_at"])
      .where("id", "=", userId)
      .executeTakeFirstOrThrow();
    return {
      dailyGoal: goalOn(await this.goals(userId), today),
      theme: user.theme as Theme,
      onboardedAt: user.onboarded_at === null ? null : new Date(user.onboarded_at).toISOString(),
      weeklyEmail: user.weekly_email_off_at === null,
    };
  }

  /**
   * Changes what `change` names. A goal holds from `today` on (a second change today replaces the
   * first); the welcome, once marked done, keeps the time it was first done.
   */
  async update(userId: string, change: PreferencesChange, today: DayString, now: number): Promise<void> {
    await this.database.transaction(async (trx) => {
      if (change.dailyGoal !== undefined) {
        await trx
          .insertInto("daily_goals")
          .values({ user_id: userId, from_day: today, goal: change.dailyGoal, set_at: now })
          .onConflict((conflict) =>
            conflict.columns(["user_id", "from_day"]).doUpdateSet({ goal: change.dailyGoal, set_at: now }),
          )
          .execute();
      }
      if (change.theme !== undefined || change.onboarded || change.weeklyEmail !== undefined) {
        await trx
          .updateTable("users")
          .set((eb) => ({
            updated_at: now,
            ...(change.theme === undefined ? {} : { theme: change.theme }),
            ...(change.weeklyEmail === undefined
              ? {}
              : {
                  weekly_email_off_at: change.weeklyEmail
                    ? null
                    : eb.fn.coalesce("weekly_email_off_at", eb.val(now)),
                }),
            ...(change.onboarded ? { onboarded_at: eb.fn.coalesce("onboarded_at", eb.val(now)) } : {}),
          }))
          .where("id", "=", userId)
          .execute();
      }
    });
  }

  /**
   * Whether the walker's counted steps on `day` reached that day's goal: one day's row, no history.
   * `goals`, when the caller has read them already, spares reading them again.
   */
  async reachedGoalOn(userId: string, day: DayString, goals?: GoalFrom[]): Promise<boolean> {
    const [goalsRead, row] = await Promise.all([
      goals ?? this.goals(userId),
      this.db
        .selectFrom("step_days")
        .select("total_steps")
        .where("user_id", "=", userId)
        .where("day", "=", day)
        .executeTakeFirst(),
    ]);
    return Number(row?.total_steps ?? 0) >= goalOn(goalsRead, day);
  }

  /**
   * Today's goal, whether it is reached, and the walker's streaks: over their whole history, or
   * over the days from `from` (the runs there, for a look at what a few days' steps changed). Only
   * days that could reach the smallest goal are read; `goals`, when the caller has them, are not.
   */
  async standing(
    userId: string,
    today: DayString,
    { from, goals: known }: { from?: DayString | undefined; goals?: GoalFrom[] } = {},
  ): Promise<GoalStanding> {
    let read = this.db
      .selectFrom("step_days")
      .select(["day", "total_steps"])
      .where("user_id", "=", userId)
      .where("total_steps", ">=", DAILY_GOAL_MIN)
      .where("day", "<=", today);
    if (from !== undefined) read = read.where("day", ">=", from);
    const [goals, rows] = await Promise.all([known ?? this.goals(userId), read.execute()]);
    const days = new Map(rows.map((row) => [row.day, row.total_steps]));
    const { current, best, todayOnGoal } = streakOf(days, goals, today);
    return { dailyGoal: goalOn(goals, today), todayOnGoal, streak: { current, best } };
  }

  /** The week from Monday `start`: its steps, days on goal and best day, and the week before's steps. */
  async week(userId: string, start: DayString): Promise<WeekSummaryResponse> {
    const [goals, rows] = await Promise.all([
      this.goals(userId),
      this.db
        .selectFrom("step_days")
        .select(["day", "total_steps"])
        .where("user_id", "=", userId)
        .where("day", ">=", addDays(start, -7))
        .where("day", "<=", addDays(start, 6))
        .execute(),
    ]);
    return weekSummary(start, new Map(rows.map((row) => [row.day, row.total_steps])), goals);
  }

  /**
   * Up to `limit` walkers (by id) to tell of the week from `start`: those with steps that week or
   * the week before, and not told of it yet.
   */
  async weeklySummaryWalkers(start: DayString, limit: number): Promise<WeeklySummaryWalker[]> {
    const rows = await this.db
      .selectFrom("users")
      .select(["users.id", "users.first_name", "users.charity_name"])
      .where((eb) =>
        eb.exists(
          eb
            .selectFrom("step_days")
            .select("step_days.day")
            .whereRef("step_days.user_id", "=", "users.id")
            .where("step_days.day", ">=", addDays(start, -7))
            .where("step_days.day", "<=", addDays(start, 6))
            .where("step_days.total_steps", ">", 0),
        ),
      )
      .where((eb) =>
        eb.not(
          eb.exists(
            eb
              .selectFrom("notifications")
              .select("notifications.id")
              .whereRef("notifications.user_id", "=", "users.id")
              .where("notifications.kind", "=", "weekly_summary")
              .where("notifications.event_key", "=", start),
          ),
        ),
      )
      .orderBy("users.id")
      .limit(limit)
      .execute();
    return rows.map((row) => ({ id: row.id, firstName: row.first_name, charityName: row.charity_name }));
  }
}
