import {
  addDays,
  DAILY_GOAL_MIN,
  type DayString,
  type GoalFrom,
  goalOn,
  groupBy,
  hadAccountInWeek,
  type PreferencesResponse,
  type Streak,
  streakOf,
  type Theme,
  type WeekSummaryResponse,
  weekEndsAt,
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
/** A walker and when their account was made (ms since the epoch). */
interface AccountAge {
  id: string;
  createdAt: number;
}

export interface WeeklySummaryWalker {
  id: string;
  firstName: string | null;
  charityName: string | null;
  /** When the account was made (ms since the epoch): a week before it is not the walker's. */
  createdAt: number;
}

/** Where a walker stands against their own goal today, and their runs of days on goal. */
export interface GoalStanding {
  dailyGoal: number;
  todayOnGoal: boolean;
  streak: Streak;
}

/** Where `standings` reads from (their whole history without `from`), and goals already read. */
export interface StandingRead {
  from?: DayString | undefined;
  goals?: ReadonlyMap<string, GoalFrom[]>;
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
    return (await this.goalsOf([userId])).get(userId) ?? [];
  }

  /** Each walker's goals in order of the day each began (none set: absent), in one query. */
  async goalsOf(userIds: readonly string[]): Promise<Map<string, GoalFrom[]>> {
    if (userIds.length === 0) return new Map();
    const rows = await this.db
      .selectFrom("daily_goals")
      .select(["user_id", "from_day", "goal"])
      .where("user_id", "in", userIds)
      .orderBy("user_id")
      .orderBy("from_day")
      .execute();
    return groupBy(
      rows,
      (row) => row.user_id,
      (row): GoalFrom => ({ from: row.from_day, goal: row.goal }),
    );
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
   * Which of the walkers' counted steps on `day` reached that day's goal: one row a walker, no
   * history. `goals`, when the caller has read them already, spares reading them again.
   */
  async reachedGoalOn(
    userIds: readonly string[],
    day: DayString,
    goals?: ReadonlyMap<string, GoalFrom[]>,
  ): Promise<Set<string>> {
    if (userIds.length === 0) return new Set();
    const [goalsRead, rows] = await Promise.all([
      goals ?? this.goalsOf(userIds),
      this.db
        .selectFrom("step_days")
        .select(["user_id", "total_steps"])
        .where("user_id", "in", userIds)
        .where("day", "=", day)
        .execute(),
    ]);
    return new Set(
      rows
        .filter((row) => Number(row.total_steps) >= goalOn(goalsRead.get(row.user_id) ?? [], day))
        .map((row) => row.user_id),
    );
  }

  /**
   * Today's goal, whether it is reached, and the walker's streaks: over their whole history, or
   * over the days from `from` (the runs there, for a look at what a few days' steps changed).
   */
  async standing(userId: string, today: DayString, options: StandingRead = {}): Promise<GoalStanding> {
    const standing = (await this.standings([userId], today, options)).get(userId);
    if (!standing) throw new Error("a standing is answered for every walker asked for");
    return standing;
  }

  /**
   * `standing` for each of `userIds`, in one read of their days. Only days that could reach the
   * smallest goal are read; `goals`, when the caller has them, are not.
   */
  async standings(
    userIds: readonly string[],
    today: DayString,
    { from, goals: known }: StandingRead = {},
  ): Promise<Map<string, GoalStanding>> {
    const standings = new Map<string, GoalStanding>();
    if (userIds.length === 0) return standings;
    let read = this.db
      .selectFrom("step_days")
      .select(["user_id", "day", "total_steps"])
      .where("user_id", "in", userIds)
      .where("total_steps", ">=", DAILY_GOAL_MIN)
      .where("day", "<=", today);
    if (from !== undefined) read = read.where("day", ">=", from);
    const [goals, rows] = await Promise.all([known ?? this.goalsOf(userIds), read.execute()]);
    const days = groupBy(
      rows,
      (row) => row.user_id,
      (row) => [row.day, row.total_steps] as const,
    );
    for (const userId of userIds) {
      const theirGoals = goals.get(userId) ?? [];
      const { current, best, todayOnGoal } = streakOf(new Map(days.get(userId)), theirGoals, today);
      standings.set(userId, { dailyGoal: goalOn(theirGoals, today), todayOnGoal, streak: { current, best } });
    }
    return standings;
  }

  /**
   * The week from Monday `start`: its steps, days on goal and best day, and the week before's steps.
   * A week over before the walker's account began (`createdAt`) has nothing to look back on: it is
   * answered as a week without steps after one without, as the weekly summary leaves it untold.
   */
  async week(walker: AccountAge, start: DayString): Promise<WeekSummaryResponse> {
    if (!hadAccountInWeek(walker.createdAt, start)) return weekSummary(start, new Map(), []);
    const week = (await this.weeks([walker], start)).get(walker.id);
    if (!week) throw new Error("a week is answered for every walker asked for");
    return week;
  }

  /**
   * `week` for each of `walkers`, in one read of their days and one of their goals. The week before
   * counts only if the walker had an account in it: a first week is a first week, whatever steps
   * from before it their phone's history brought.
   */
  async weeks(walkers: readonly AccountAge[], start: DayString): Promise<Map<string, WeekSummaryResponse>> {
    const weeks = new Map<string, WeekSummaryResponse>();
    if (walkers.length === 0) return weeks;
    const userIds = walkers.map((walker) => walker.id);
    const [goals, rows] = await Promise.all([
      this.goalsOf(userIds),
      this.db
        .selectFrom("step_days")
        .select(["user_id", "day", "total_steps"])
        .where("user_id", "in", userIds)
        .where("day", ">=", addDays(start, -7))
        .where("day", "<=", addDays(start, 6))
        .execute(),
    ]);
    const days = groupBy(
      rows,
      (row) => row.user_id,
      (row) => [row.day, row.total_steps] as const,
    );
    const weekBefore = addDays(start, -7);
    for (const { id, createdAt } of walkers) {
      const week = weekSummary(start, new Map(days.get(id)), goals.get(id) ?? []);
      weeks.set(id, hadAccountInWeek(createdAt, weekBefore) ? week : { ...week, previousWeekSteps: 0 });
    }
    return weeks;
  }

  /**
   * Up to `limit` walkers (by id) to tell of the week from `start`: those whose account began before
   * the week was over, with steps that week or the week before, and not told of it yet.
   */
  async weeklySummaryWalkers(start: DayString, limit: number): Promise<WeeklySummaryWalker[]> {
    const rows = await this.db
      .selectFrom("users")
      .select(["users.id", "users.first_name", "users.charity_name", "users.created_at"])
      // As `hadAccountInWeek`: a week over before the account began is not the walker's, whatever
      // steps from it their phone's history brought.
      .where("users.created_at", "<", weekEndsAt(start))
      .where((eb) =>
        eb.exists(
          eb
            .selectFrom("step_days")
            .select("step_days.day")
            .whereRef("step_days.user_id", "=", "users.id")
            .where("step_days.day", ">=", addDays(start, -7))
            .where("step_days.day", "<=", addDays(start, 6))
            .where("step_days.total_steps", ">", 0)
            // The week before counts only if the account was made before it was over.
            .where((days) =>
              days.or([
                days("step_days.day", ">=", start),
                days("users.created_at", "<", weekEndsAt(addDays(start, -7))),
              ]),
            ),
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
    return rows.map((row) => ({
      id: row.id,
      firstName: row.first_name,
      charityName: row.charity_name,
      createdAt: row.created_at,
    }));
  }
}
