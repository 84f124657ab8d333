import { addDays, londonDay } from "@charity-steps/shared-types";
import fp from "fastify-plugin";

/** How often each process looks for a month to close, a draw to run and a winner to tell. */
export const DRAW_TICK_MS = 60_000;
/** How often each process looks for walkers due Monday's mail of the week, or a streak reminder. */
export const WEEKLY_MAIL_TICK_MS = 5 * 60_000;
/** How often expired records are deleted. */
export const HOUSEKEEPING_INTERVAL_MS = 60 * 60_000;
/** How long a sent message's envelope is kept before housekeeping forgets it. */
const SENT_MAIL_KEPT_MS = 30 * 24 * 3_600_000;

export interface ScheduledWorkOptions {
  /**
   * How often the draws' scheduled job runs (closing months, running draws, telling winners); null
   * runs it never, nor the weekly mail's, for tests that call them themselves and must see nothing
   * else change, and for the identity server alone, which has no draws.
   */
  drawTickMs?: number | null;
}

/**
 * Everything a process does on its own clock, started once the app is ready and stopped when it
 * closes: the mail and push queues' workers, the draws' scheduled job, the weekly summary's mail, the hourly
 * housekeeping, and the badge looks waiting after steps arrived. Every process runs them all; the database makes each thing they
 * do happen once (a message or a push is claimed under a lease, a draw's every step is a guarded update, a
 * deletion of expired rows is idempotent, a badge is a walker's once, a week's mail is claimed once).
 */
export const scheduledWorkPlugin = fp<ScheduledWorkOptions>(
  async (app, options) => {
    const { repositories, services } = app;
    const timers: NodeJS.Timeout[] = [];
    const every = (ms: number, work: () => Promise<void>) => {
      const timer = setInterval(() => void work(), ms);
      timer.unref();
      timers.push(timer);
    };

    let drawTick: Promise<void> | undefined;
    const runDrawTick = async () => {
      if (drawTick) return;
      drawTick = services.draws
        .tick()
        .catch((error: unknown) => app.log.warn({ err: error }, "draw: the scheduled job failed"))
        .finally(() => {
          drawTick = undefined;
        });
      await drawTick;
    };

    let weeklyTick: Promise<void> | undefined;
    const runWeeklyTick = async () => {
      if (weeklyTick) return;
      weeklyTick = Promise.all([
        services.weeklySummaries
          .tick()
          .catch((error: unknown) =>
            app.log.warn({ err: error }, "weekly summary: the scheduled look failed"),
          ),
        services.streakReminders
          .tick()
          .catch((error: unknown) =>
            app.log.warn({ err: error }, "streak reminders: the scheduled look failed"),
          ),
      ])
        .then(() => undefined)
        .finally(() => {
          weeklyTick = undefined;
        });
      await weeklyTick;
    };

    const housekeeping = async () => {
      const now = Date.now();
      await Promise.all([
        repositories.sessions.deleteExpired(now),
        repositories.oidcPayloads.deleteExpired(),
        repositories.manualEntries.deleteExpiredIdempotencyRecords(null, now),
        repositories.signInThrottle.deleteExpired(now),
        repositories.signUpThrottle.deleteExpired(now),
        repositories.stepImportKeys.deleteExpiredCalls(now),
        repositories.accountTokens.deleteExpired(now),
        repositories.mailOutbox.deleteSentBefore(now - SENT_MAIL_KEPT_MS),
        repositories.notifications.deletePushesBefore(now - SENT_MAIL_KEPT_MS),
        repositories.notifications.deleteStreakChecksBefore(addDays(londonDay(now), -2)),
      ]).catch((error) => app.log.warn({ err: error }, "housekeeping failed"));
    };

    app.addHook("onReady", async () => {
      services.mail.start();
      services.push.start();
      every(HOUSEKEEPING_INTERVAL_MS, housekeeping);
      if (options.drawTickMs !== null) {
        every(options.drawTickMs ?? DRAW_TICK_MS, runDrawTick);
        every(WEEKLY_MAIL_TICK_MS, runWeeklyTick);
      }
    });
    app.addHook("onClose", async () => {
      for (const timer of timers) clearInterval(timer);
      await drawTick;
      await weeklyTick;
      await services.badges.stop();
      await services.mail.stop();
      await services.push.stop();
    });
  },
  { name: "scheduled-work", dependencies: ["data"] },
);
