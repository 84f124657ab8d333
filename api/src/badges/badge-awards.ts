import {
  addDays,
  addMonths,
  BADGES,
  type BadgeFacts,
  type BadgesResponse,
  badgesShown,
  type DayString,
  FIRST_PRIZE_ENTRY_BADGE,
  type GoalFrom,
  JOINED_GROUP_BADGE,
  monthOfDay,
  prizeEntries,
  reaches,
  STREAK_BADGE_DAYS,
} from "@charity-steps/shared-types";
import type { FastifyBaseLogger } from "fastify";
import type { ChallengeService } from "../challenges/challenge-service.js";
import type { EligibleSteps } from "../ledger/eligible-steps.js";
import type { Notifier } from "../notifications/notifier.js";
import type { BadgesRepository } from "../repositories/badges.js";
import type { HabitsRepository } from "../repositories/habits.js";

/** How long after a walker's steps arrive their badges are looked at: a burst of syncs makes one look. */
export const AWARD_DELAY_MS = 5_000;
/** Walkers waiting for a look at once; beyond it, a walker's badges wait for their next read. */
export const AWARDS_WAITING_MAX = 10_000;
/**
 * How many looks run at once; the rest wait their turn. A burst of walkers' syncs makes a burst of
 * looks five seconds later, and each look is a few reads: run all at once, they would hold every
 * database connection, and the syncs arriving meanwhile would wait behind them.
 */
export const LOOKS_AT_ONCE = 2;

/**
 * Awards badges. A walker's record is looked at when they read their badges or their dashboard, and
 * a few seconds after their steps arrive (however they arrive: an app, a Shortcut, a photo), so a
 * badge is awarded on the day it is reached even when the app is closed. A badge once awarded is
 * kept: the rules are judged only for badges not yet earned.
 */
export class BadgeAwards {
  /** Walkers whose look is to come: their timer still set, or (due) in `due` for their turn. */
  private readonly waiting = new Map<
    string,
    { timer: NodeJS.Timeout; today: () => DayString; days: Set<DayString> }
  >();
  /** Walkers whose look is due, in the order they fell due. */
  private readonly due = new Set<string>();
  private readonly running = new Set<Promise<unknown>>();
  /** The next turn of the event loop at which due looks start, when one is asked for. */
  private turn: NodeJS.Immediate | undefined;
  /** The day each walker was last told their goal was reached. */
  private readonly goalTold = new Map<string, DayString>();

  constructor(
    private readonly deps: {
      badges: BadgesRepository;
      habits: HabitsRepository;
      eligibleSteps: EligibleSteps;
      notifier: Notifier;
      challenges: Pick<ChallengeService, "stepsArrived" | "badgeNames">;
      log: FastifyBaseLogger;
    },
  ) {}

  /** Awards what the walker's record now reaches, and answers their badges. */
  async award(userId: string, today: DayString, now = Date.now()): Promise<BadgesResponse> {
    const { earned, charityName } = await this.awardReached(userId, today, now, {});
    return this.listed(charityName, earned);
  }

  /**
   * Awards what the walker's record now reaches: their badges earned, with the charity whose badge
   * is theirs to earn (null once every badge is earned: all are listed, whatever the charity now).
   * A walker's runs of days on goal, and their best day, are read from their whole history, unless
   * a look after steps arrived says where: `streaksFrom` where runs need start reading (a day), or
   * that no run can have grown (null: the streak badges wait); `days`, the days that arrived, the
   * only ones whose steps can have risen (an earlier best day was judged by an earlier look, or by
   * the walker's read of their badges). `goals`, when the caller has read them, are not read again.
   */
  private async awardReached(
    userId: string,
    today: DayString,
    now: number,
    look: LookAfterSteps,
  ): Promise<{ earned: Map<string, number>; charityName: BadgeFacts["charityName"] }> {
    const { badges } = this.deps;
    const earned = await badges.earned(userId);
    const unearned = BADGES.filter((badge) => !earned.has(badge.id));
    if (unearned.length === 0) return { earned, charityName: null };
    const facts = await this.facts(userId, today, earned.has(FIRST_PRIZE_ENTRY_BADGE), look);
    const reached = unearned.filter((badge) => reaches(badge.rule, facts)).map((badge) => badge.id);
    if (reached.length > 0) {
      await badges.award(userId, reached, now);
      for (const id of reached) earned.set(id, now);
    }
    return { earned, charityName: facts.charityName };
  }

  /** Awards the group badge at once: a walker who leaves the group straight away keeps it. */
  async joinedGroup(userId: string, now = Date.now()): Promise<void> {
    await this.deps.badges.award(userId, [JOINED_GROUP_BADGE], now);
  }

  /**
   * Looks at the walker's badges, and whether today's goal is reached, shortly: steps of `days`
   * arrived. Bursts make one look; errors are logged.
   */
  soon(userId: string, today: () => DayString, days: readonly DayString[]): void {
    const waiting = this.waiting.get(userId);
    if (waiting) {
      for (const day of days) waiting.days.add(day);
      return;
    }
    if (this.waiting.size >= AWARDS_WAITING_MAX) return;
    const timer = setTimeout(() => this.fallDue(userId), AWARD_DELAY_MS);
    timer.unref();
    this.waiting.set(userId, { timer, today, days: new Set(days) });
  }

  /**
   * Makes every waiting look now, and resolves once all looks are done: for a test that must
   * see what an accepted request changed before it judges the next one.
   */
  async flush(): Promise<void> {
    for (const [userId, { timer }] of [...this.waiting]) {
      clearTimeout(timer);
      this.fallDue(userId);
    }
    while (this.running.size > 0 || this.due.size > 0) {
      if (this.running.size === 0) this.startDue();
      await Promise.all(this.running);
    }
  }

  /** The walker's look is due: it runs in its turn, at most `LOOKS_AT_ONCE` at a time. */
  private fallDue(userId: string): void {
    this.due.add(userId);
    this.nextTurn();
  }

  /**
   * Starts due looks at the next turn of the event loop, after the requests that have arrived. On
   * SQLite a look's reads answer within the same turn, so looks started one after another in it
   * would run a whole burst (a thousand walkers' looks, a second and more) before any request
   * was read.
   */
  private nextTurn(): void {
    if (this.turn || this.due.size === 0) return;
    this.turn = setImmediate(() => {
      this.turn = undefined;
      this.startDue();
    });
    this.turn.unref();
  }

  private startDue(): void {
    for (const userId of this.due) {
      if (this.running.size >= LOOKS_AT_ONCE) return;
      this.due.delete(userId);
      this.lookNow(userId);
    }
  }

  private lookNow(userId: string): void {
    const waiting = this.waiting.get(userId);
    if (!waiting) return;
    this.waiting.delete(userId);
    const day = waiting.today();
    const toldToday = this.goalTold.get(userId) === day;
    // The walker's goals are read once for everything the look judges against them.
    const goals = this.deps.habits.goals(userId);
    const reached = goals.then((known) =>
      this.deps.habits.reachedGoalOn(userId, day, known).then((onGoal) => ({ onGoal, goals: known })),
    );
    const run = Promise.all([
      reached
        .then(({ onGoal, goals }) =>
          this.awardReached(userId, day, Date.now(), {
            streaksFrom: streaksFrom([...waiting.days], day, onGoal && !toldToday),
            days: [...waiting.days],
            goals,
          }),
        )
        .catch((error: unknown) => this.deps.log.warn({ err: error }, "badges: an award failed")),
      reached
        .then(({ onGoal, goals }) => (onGoal ? this.tellGoalReached(userId, day, goals) : undefined))
        .catch((error: unknown) => this.deps.log.warn({ err: error }, "goal reached: the look failed")),
      this.deps.challenges
        .stepsArrived(userId)
        .catch((error: unknown) => this.deps.log.warn({ err: error }, "challenges: the look failed")),
    ]).finally(() => {
      this.running.delete(run);
      this.nextTurn();
    });
    this.running.add(run);
  }

  /** Tells the walker once a day, when their counted steps reach the day's goal. */
  private async tellGoalReached(userId: string, today: DayString, goals: GoalFrom[]): Promise<void> {
    if (this.goalTold.get(userId) === today) return;
    // The run up to today, from the recent days; the whole history only when it goes back further.
    const recent = addDays(today, -(RECENT_DAYS_FOR_A_RUN - 1));
    let standing = await this.deps.habits.standing(userId, today, { from: recent, goals });
    if (standing.streak.current >= RECENT_DAYS_FOR_A_RUN) {
      standing = await this.deps.habits.standing(userId, today, { goals });
    }
    if (!standing.todayOnGoal) return;
    const goal = standing.dailyGoal.toLocaleString("en-GB");
    const streak = standing.streak.current >= 2 ? ` That makes a ${standing.streak.current}-day streak.` : "";
    await this.deps.notifier.notify({
      userId,
      kind: "goal_reached",
      eventKey: today,
      title: "Daily goal reached!",
      body: `You walked your ${goal} steps today. Well walked!${streak}`,
      url: "/dashboard",
    });
    // Remembered for the rest of the day, so later syncs read nothing; a new day forgets it.
    if (this.goalTold.size >= AWARDS_WAITING_MAX) this.goalTold.clear();
    this.goalTold.set(userId, today);
  }

  /** Drops the looks still waiting and lets those under way finish: the app is closing. */
  async stop(): Promise<void> {
    for (const { timer } of this.waiting.values()) clearTimeout(timer);
    this.waiting.clear();
    this.due.clear();
    clearImmediate(this.turn);
    this.turn = undefined;
    while (this.running.size > 0) await Promise.all(this.running);
  }

  private async facts(
    userId: string,
    today: DayString,
    hasEntryBadge: boolean,
    { streaksFrom, days, goals }: LookAfterSteps,
  ): Promise<BadgeFacts> {
    const { badges, habits, eligibleSteps } = this.deps;
    const month = monthOfDay(today);
    const lastMonth = addMonths(month, -1);
    const [steps, standing] = await Promise.all([
      badges.facts(userId, [month, lastMonth], days),
      streaksFrom === null ? null : habits.standing(userId, today, { from: streaksFrom, goals }),
    ]);
    // A month's entries are counted on eligible steps; a past draw's ticket says the same for
    // months already drawn. The walk is read only while the badge is still to earn, and only when a
    // month's counted steps reach an entry: its eligible steps are never more than those.
    let hasPrizeEntry = hasEntryBadge || steps.hasDrawTicket;
    const mayHaveEntry = prizeEntries(steps.recentMonthSteps) > 0;
    for (const candidate of [month, lastMonth]) {
      if (hasPrizeEntry || !mayHaveEntry) break;
      hasPrizeEntry = prizeEntries((await eligibleSteps.month(candidate, userId)).eligibleSteps) > 0;
    }
    return { ...steps, bestStreak: standing?.streak.best ?? 0, hasPrizeEntry };
  }

  /** The badges shown, then one for each challenge completed, in the order they were earned. */
  private async listed(
    charityName: BadgeFacts["charityName"],
    earned: ReadonlyMap<string, number>,
  ): Promise<BadgesResponse> {
    const iso = (at: number | undefined) => (at === undefined ? null : new Date(at).toISOString());
    const challengeNames = await this.deps.challenges.badgeNames([...earned.keys()]);
    const challengeBadges = [...challengeNames]
      .map(([id, name]) => ({
        id,
        name: `Completed: ${name}`,
        description: `Reach the target of the challenge "${name}".`,
        earnedAt: iso(earned.get(id)),
      }))
      .sort((a, b) => (a.earnedAt ?? "").localeCompare(b.earnedAt ?? ""));
    return {
      items: [
        ...badgesShown(charityName, earned).map((badge) => ({
          id: badge.id,
          name: badge.name,
          description: badge.description,
          earnedAt: iso(earned.get(badge.id)),
        })),
        ...challengeBadges,
      ],
    };
  }
}

/** What a look after steps arrived already knows, so that it reads less (`awardReached`); {} for none. */
interface LookAfterSteps {
  streaksFrom?: DayString | null;
  days?: readonly DayString[];
  goals?: GoalFrom[];
}

/** Days read back from today for the run it ends; a longer run reads the walker's whole history. */
const RECENT_DAYS_FOR_A_RUN = 62;

/** The longest streak a badge asks for: a run that long through a day lies within as many days of it. */
const LONGEST_STREAK_BADGE = Math.max(...STREAK_BADGE_DAYS);

/**
 * Where a look after steps of `days` arrived must read runs from, or null when none can have grown:
 * a run grows only where a day newly reaches its goal, which is today's only when it reached it since
 * the last look (`todayNewlyOnGoal`), or any earlier day that arrived (a late day may join two runs).
 * A run long enough for a badge through such a day starts at most that many days before it.
 */
function streaksFrom(days: DayString[], today: DayString, todayNewlyOnGoal: boolean): DayString | null {
  const changed = days.filter((day) => day !== today);
  if (todayNewlyOnGoal) changed.push(today);
  if (changed.length === 0) return null;
  const earliest = changed.sort()[0] as DayString;
  return addDays(earliest, -(LONGEST_STREAK_BADGE - 1));
}
