import {
  addDays,
  addMonths,
  articleFor,
  BADGES,
  type BadgeFacts,
  type BadgesResponse,
  badgesShown,
  type DayString,
  FIRST_PRIZE_ENTRY_BADGE,
  formatNumber,
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
import type { Notice, Notifier } from "../notifications/notifier.js";
import type { BadgesRepository } from "../repositories/badges.js";
import type { HabitsRepository } from "../repositories/habits.js";

/** How long after a walker's steps arrive their badges are looked at: a burst of syncs makes one look. */
export const AWARD_DELAY_MS = 5_000;
/** Walkers waiting for a look at once; beyond it, a walker's badges wait for their next read. */
export const AWARDS_WAITING_MAX = 10_000;
/**
 * Most walkers looked at together. Each of a look's reads is one query for all of them, so a burst
 * of a thousand walkers' syncs costs a few dozen queries, not thousands. On SQLite a batch's reads
 * answer within one turn of the event loop, so a batch is kept small enough not to hold requests up.
 */
export const LOOK_BATCH_MAX = 32;
/**
 * How many batches of looks run at once; the rest wait their turn, and grow meanwhile. Run all at
 * once, they would hold every database connection, and the syncs arriving meanwhile would wait.
 */
export const LOOKS_AT_ONCE = 1;

type Awarded = { earned: Map<string, number>; charityName: BadgeFacts["charityName"] };

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
    const awarded = (await this.awardReached(today, now, [{ userId }])).get(userId);
    return this.listed(awarded?.charityName ?? null, awarded?.earned ?? new Map());
  }

  /**
   * Awards what each walker's record now reaches, and answers, for each, their badges earned with
   * the charity whose badge is theirs to earn (null once every badge is earned: all are listed,
   * whatever the charity now). A walker's runs of days on goal, and their best day, are read from
   * their whole history, unless a look after steps arrived says where (`WalkerLook`). `goals`, when
   * the caller has read them, are not read again.
   */
  private async awardReached(
    today: DayString,
    now: number,
    looks: readonly WalkerLook[],
    goals?: ReadonlyMap<string, GoalFrom[]>,
  ): Promise<Map<string, Awarded>> {
    const { badges } = this.deps;
    const earnedBy = await badges.earnedBy(looks.map((look) => look.userId));
    const earnedOf = (userId: string) => {
      const earned = earnedBy.get(userId) ?? new Map<string, number>();
      earnedBy.set(userId, earned);
      return earned;
    };
    const open = looks.filter((look) => BADGES.some((badge) => !earnedOf(look.userId).has(badge.id)));
    const facts = await this.facts(today, open, earnedOf, goals);
    const awards: { userId: string; badgeIds: string[] }[] = [];
    const awarded = new Map<string, Awarded>();
    for (const { userId } of looks) {
      const earned = earnedOf(userId);
      const theirs = facts.get(userId);
      awarded.set(userId, { earned, charityName: theirs?.charityName ?? null });
      if (!theirs) continue;
      const reached = BADGES.filter((badge) => !earned.has(badge.id) && reaches(badge.rule, theirs));
      if (reached.length > 0) awards.push({ userId, badgeIds: reached.map((badge) => badge.id) });
    }
    await badges.award(awards, now);
    for (const { userId, badgeIds } of awards) {
      for (const id of badgeIds) earnedOf(userId).set(id, now);
    }
    return awarded;
  }

  /** Awards the group badge at once: a walker who leaves the group straight away keeps it. */
  async joinedGroup(userId: string, now = Date.now()): Promise<void> {
    await this.deps.badges.award([{ userId, badgeIds: [JOINED_GROUP_BADGE] }], now);
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

  /** The walker's look is due: it runs in its turn, in a batch with others due. */
  private fallDue(userId: string): void {
    this.due.add(userId);
    this.nextTurn();
  }

  /**
   * Starts due looks at the next turn of the event loop, after the requests that have arrived. On
   * SQLite a batch's reads answer within the same turn, so batches started one after another in it
   * would run a whole burst (a thousand walkers' looks) before any request was read.
   */
  private nextTurn(): void {
    if (this.turn || this.due.size === 0) return;
    this.turn = setImmediate(() => {
      this.turn = undefined;
      this.startDue();
    });
    this.turn.unref();
  }

  /** Starts a batch of the due looks, oldest first, while fewer than `LOOKS_AT_ONCE` run. */
  private startDue(): void {
    while (this.running.size < LOOKS_AT_ONCE && this.due.size > 0) {
      const batch: { userId: string; today: () => DayString; days: DayString[] }[] = [];
      for (const userId of this.due) {
        if (batch.length >= LOOK_BATCH_MAX) break;
        this.due.delete(userId);
        const waiting = this.waiting.get(userId);
        if (!waiting) continue;
        this.waiting.delete(userId);
        batch.push({ userId, today: waiting.today, days: [...waiting.days] });
      }
      // Walkers' days are London's: a batch is of one day, unless it is made at midnight.
      const byDay = new Map<DayString, typeof batch>();
      for (const look of batch) {
        const day = look.today();
        byDay.set(day, [...(byDay.get(day) ?? []), look]);
      }
      const run = Promise.all([...byDay].map(([day, looks]) => this.lookNow(day, looks))).finally(() => {
        this.running.delete(run);
        this.nextTurn();
      });
      this.running.add(run);
    }
  }

  /** Looks at walkers whose steps of `days` arrived: their badges, today's goal and their challenges. */
  private async lookNow(
    day: DayString,
    looks: readonly { userId: string; days: DayString[] }[],
  ): Promise<void> {
    const { habits, challenges, log } = this.deps;
    const userIds = looks.map((look) => look.userId);
    // A read that fails fails for the whole batch: the log says for how many walkers. Their badges
    // are judged again at their next read or look.
    const warned = (what: string) => (error: unknown) =>
      log.warn({ err: error, walkers: userIds.length }, what);
    // The walkers' goals and who reached today's are read once for everything the look judges
    // against them. When that read fails it is logged once, and neither part that needs it runs.
    const judge = async () => {
      let goals: Map<string, GoalFrom[]>;
      let newlyOnGoal: Set<string>;
      try {
        goals = await habits.goalsOf(userIds);
        const onGoal = await habits.reachedGoalOn(userIds, day, goals);
        newlyOnGoal = new Set(
          userIds.filter((userId) => onGoal.has(userId) && this.goalTold.get(userId) !== day),
        );
      } catch (error) {
        warned("looks: the walkers' goals and days could not be read")(error);
        return;
      }
      await Promise.all([
        this.awardReached(
          day,
          Date.now(),
          looks.map(({ userId, days }) => ({
            userId,
            streaksFrom: streaksFrom(days, day, newlyOnGoal.has(userId)),
            days,
          })),
          goals,
        ).catch(warned("badges: an award failed")),
        this.tellGoalReached([...newlyOnGoal], day, goals).catch(
          warned("goal reached: the walkers' standings could not be read"),
        ),
      ]);
    };
    await Promise.all([
      judge(),
      challenges.stepsArrived(userIds).catch(warned("challenges: the look failed")),
    ]);
  }

  /**
   * Tells each walker once a day, when their counted steps reach the day's goal: the batch's notices
   * in one call (a walker whose notice fails is left to be told by a later look).
   */
  private async tellGoalReached(
    userIds: readonly string[],
    today: DayString,
    goals: ReadonlyMap<string, GoalFrom[]>,
  ): Promise<void> {
    const { habits, notifier } = this.deps;
    // The run up to today, from the recent days; the whole history, in one read for all of them, of
    // the walkers whose run goes back further.
    const recent = addDays(today, -(RECENT_DAYS_FOR_A_RUN - 1));
    const standings = await habits.standings(userIds, today, { from: recent, goals });
    const longRuns = userIds.filter(
      (userId) => (standings.get(userId)?.streak.current ?? 0) >= RECENT_DAYS_FOR_A_RUN,
    );
    if (longRuns.length > 0) {
      for (const [userId, standing] of await habits.standings(longRuns, today, { goals })) {
        standings.set(userId, standing);
      }
    }
    const notices: Notice[] = [];
    for (const userId of userIds) {
      const standing = standings.get(userId);
      if (!standing?.todayOnGoal || this.goalTold.get(userId) === today) continue;
      const goal = formatNumber(standing.dailyGoal);
      const days = standing.streak.current;
      const streak = days >= 2 ? ` That makes ${articleFor(days)} ${formatNumber(days)}-day streak.` : "";
      notices.push({
        userId,
        kind: "goal_reached",
        eventKey: today,
        title: "Daily goal reached!",
        body: `You walked your ${goal} steps today. Well walked!${streak}`,
        url: "/dashboard",
      });
    }
    // A notice that cannot be recorded is logged with its walker by the notifier, and not lost to
    // the others beside it.
    const lost = new Set(await notifier.tellAll(notices));
    for (const notice of notices) {
      // Told walkers are remembered for the rest of the day, so later syncs read nothing (a new day
      // forgets it); one whose notice failed is left to a later look.
      if (lost.has(notice)) continue;
      if (this.goalTold.size >= AWARDS_WAITING_MAX) this.goalTold.clear();
      this.goalTold.set(notice.userId, today);
    }
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

  /**
   * The facts each walker's badges are judged on. Each read is one query for all of them: the best
   * day among the days that arrived when every look says which (their union: a day read for one
   * walker whose steps on it did not arrive only reads more), and the runs of days from the earliest
   * day any look needs them from.
   */
  private async facts(
    today: DayString,
    looks: readonly WalkerLook[],
    earnedOf: (userId: string) => ReadonlyMap<string, number>,
    goals: ReadonlyMap<string, GoalFrom[]> | undefined,
  ): Promise<Map<string, BadgeFacts>> {
    const { badges, habits, eligibleSteps } = this.deps;
    const month = monthOfDay(today);
    const lastMonth = addMonths(month, -1);
    const daysKnown = looks.every((look) => look.days !== undefined && look.days.length > 0);
    const bestDayAmong = daysKnown ? [...new Set(looks.flatMap((look) => look.days ?? []))] : undefined;
    const withRuns = looks.filter((look) => look.streaksFrom !== null);
    const froms = withRuns.map((look) => look.streaksFrom);
    const from = froms.some((day) => day === undefined) ? undefined : (froms as DayString[]).sort()[0];
    const [steps, standings] = await Promise.all([
      badges.factsOf(
        looks.map((look) => look.userId),
        [month, lastMonth],
        bestDayAmong,
      ),
      habits.standings(
        withRuns.map((look) => look.userId),
        today,
        { from, ...(goals ? { goals } : {}) },
      ),
    ]);
    // A month's entries are counted on eligible steps; a past draw's ticket says the same for months
    // already drawn. The walk is read only while the badge is still to earn, and only when a month's
    // counted steps reach an entry: its eligible steps are never more than those.
    let toRead = [...steps]
      .filter(
        ([userId, theirs]) =>
          !earnedOf(userId).has(FIRST_PRIZE_ENTRY_BADGE) &&
          !theirs.hasDrawTicket &&
          prizeEntries(theirs.recentMonthSteps) > 0,
      )
      .map(([userId]) => userId);
    const entered = new Set<string>();
    for (const candidate of [month, lastMonth]) {
      if (toRead.length === 0) break;
      const eligible = await eligibleSteps.months(candidate, toRead);
      for (const userId of toRead) {
        if (prizeEntries(eligible.get(userId)?.eligibleSteps ?? 0) > 0) entered.add(userId);
      }
      toRead = toRead.filter((userId) => !entered.has(userId));
    }
    const facts = new Map<string, BadgeFacts>();
    for (const [userId, theirs] of steps) {
      const hasPrizeEntry =
        earnedOf(userId).has(FIRST_PRIZE_ENTRY_BADGE) || theirs.hasDrawTicket || entered.has(userId);
      facts.set(userId, { ...theirs, bestStreak: standings.get(userId)?.streak.best ?? 0, hasPrizeEntry });
    }
    return facts;
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

/**
 * A walker in `awardReached`, with what a look after their steps arrived already knows, so that it
 * reads less: `streaksFrom`, the day their runs need reading from, or null when no run can have grown
 * (the streak badges wait); `days`, the days that arrived, the only ones whose steps can have risen
 * (an earlier best day was judged by an earlier look, or by the walker's read of their badges).
 * Without them, the whole history is read.
 */
interface WalkerLook {
  userId: string;
  streaksFrom?: DayString | null;
  days?: readonly DayString[];
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
