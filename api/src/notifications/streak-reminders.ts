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
    for (const userId of candidates) {
      if (!(await notifications.claimStreakCheck(userId, today, now))) continue;
      const { streak, todayOnGoal, dailyGoal } = await habits.standing(userId, today);
      if (todayOnGoal || streak.current < 2) continue;
      await notifier.tell(
        {
          userId,
          kind: "streak_at_risk",
          eventKey: today,
          title: `Keep your ${streak.current}-day streak going`,
          body: `Walk your ${formatNumber(dailyGoal)} steps today to make it ${streak.current + 1} days.`,
          url: "/dashboard",
        },
        now,
      );
      told++;
    }
    return told;
  }
}
