import {
  type DayString,
  DEFAULT_REMINDER_TIME,
  formatNumber,
  londonClock,
  londonDay,
} from "@charity-steps/shared-types";
import type { HabitsRepository } from "../repositories/habits.js";
import type { NotificationsRepository } from "../repositories/notifications.js";
import type { Notifier } from "./notifier.js";

/** Walkers looked at in one tick; the rest wait for the next. */
const LOOKS_PER_TICK = 500;
/** Walkers claimed, read and told together (a walker whose reminder fails is not reminded that day). */
const REMINDERS_AT_ONCE = 50;

/**
 * At each walker's reminder time (19:00 London unless they chose another), a walker whose streak of
 * two days or more needs today's goal, and who is short of it, is told. Each walker's day is looked
 * at once, by whichever process claims it; a walker who reaches the goal later is not told again.
 */
export class StreakReminders {
  constructor(
    private readonly deps: {
      notifications: NotificationsRepository;
      habits: HabitsRepository;
      notifier: Notifier;
    },
  ) {}

  /** Looks at the walkers whose reminder time has come; answers how many were told. */
  async tick(now = Date.now()): Promise<number> {
    const { notifications, habits, notifier } = this.deps;
    const today: DayString = londonDay(now);
    const candidates = await notifications.streakReminderCandidates(
      today,
      londonClock(now),
      DEFAULT_REMINDER_TIME,
      LOOKS_PER_TICK,
    );
    let told = 0;
    // Everyone's reminder time is mostly the same minute: the walkers are looked at and told a
    // batch at a time, each read one query for the batch.
    for (let start = 0; start < candidates.length; start += REMINDERS_AT_ONCE) {
      const claimed = await notifications.claimStreakChecks(
        candidates.slice(start, start + REMINDERS_AT_ONCE),
        today,
        now,
      );
      const standings = await habits.standings(claimed, today);
      const notices = claimed.flatMap((userId) => {
        const standing = standings.get(userId);
        if (!standing || standing.todayOnGoal || standing.streak.current < 2) return [];
        const { streak, dailyGoal } = standing;
        return [
          {
            userId,
            kind: "streak_at_risk" as const,
            eventKey: today,
            title: `Keep your ${streak.current}-day streak going`,
            body: `Walk your ${formatNumber(dailyGoal)} steps today to make it ${streak.current + 1} days.`,
            url: "/dashboard",
          },
        ];
      });
      const lost = await notifier.tellAll(notices, now);
      told += notices.length - lost.length;
    }
    return told;
  }
}
