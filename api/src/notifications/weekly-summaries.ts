import {
  countOf,
  type DayString,
  formatNumber,
  formatShortDay,
  isolated,
  WEEKLY_SUMMARY_CADENCE,
  type WeekSummaryResponse,
  weekChangeText,
  weekImpactText,
  weekToLookBackOn,
} from "@charity-steps/shared-types";
import type { FastifyBaseLogger } from "fastify";
import { escapeHtml } from "../auth/provider/pages.js";
import type { AppConfig } from "../config.js";
import type { HabitsRepository, WeeklySummaryWalker } from "../repositories/habits.js";
import type { HealthRepository } from "../repositories/health.js";
import type { NotificationRow } from "../repositories/notifications.js";
import { type Notice, NoticesNotRecorded, type Notifier } from "./notifier.js";

/** Walkers told in one look: a look stays short, and the next carries on (every few minutes). */
export const WEEKLY_SUMMARIES_PER_LOOK = 200;
/** Walkers told in one transaction. */
export const SUMMARIES_TOLD_AT_ONCE = 50;
/** What telling a batch came to: each walker's row (undefined where not told), and who was not told. */
interface BatchTold {
  answers: readonly (NotificationRow | undefined)[];
  notTold: string[];
  /** The database did not answer: the rest of the look waits for the next. */
  databaseDown: boolean;
  /** The first failure met, if any. */
  failure?: unknown;
}

/** Where the week's card is. */
const WEEK_SUMMARY_URL = "/dashboard";

const steps = (count: number) => formatNumber(count);

/** The mail's promise of the next. */
const HOW_OFTEN = `You get this ${WEEKLY_SUMMARY_CADENCE}.`;

/** The week's card as a mail: the same lines the dashboard shows. */
export function weeklySummaryMail(
  walker: Pick<WeeklySummaryWalker, "firstName" | "charityName">,
  week: WeekSummaryResponse,
  links: { app: string; unsubscribe: string },
): { subject: string; text: string; html: string } {
  const lines = [
    `Steps: ${steps(week.steps)}`,
    `Days on goal: ${week.daysOnGoal} of 7`,
    // A week without steps has no best day (`bestDay` is then its Monday with 0).
    ...(week.bestDay.steps > 0
      ? [`Best day: ${formatShortDay(week.bestDay.date)}: ${countOf(week.bestDay.steps, "step")}`]
      : []),
    weekChangeText(week.steps, week.previousWeekSteps),
    ...(walker.charityName && week.steps > 0 ? [weekImpactText(week.steps, walker.charityName)] : []),
  ];
  const hello = walker.firstName ? `Hello ${isolated(walker.firstName)},` : "Hello,";
  const heading = `Your week from ${formatShortDay(week.start)}`;
  const text = [
    hello,
    "",
    `${heading}:`,
    ...lines.map((line) => `- ${line}`),
    "",
    `See it in Charity Steps: ${links.app}`,
    "",
    `${HOW_OFTEN} To stop it: ${links.unsubscribe}`,
  ].join("\n");
  const html = `<p>${escapeHtml(hello)}</p>
<h1 style="font-size:20px">${escapeHtml(heading)}</h1>
<ul>${lines.map((line) => `<li>${escapeHtml(line)}</li>`).join("")}</ul>
<p><a href="${escapeHtml(links.app)}">See it in Charity Steps</a></p>
<p style="color:#64748b;font-size:13px">${HOW_OFTEN} <a href="${escapeHtml(links.unsubscribe)}">Stop these emails</a>.</p>`;
  return { subject: `Your week: ${steps(week.steps)} steps`, text, html };
}

/** The week in one line, for the list and a push. */
function weekLine(week: WeekSummaryResponse): string {
  return `${steps(week.steps)} steps, ${week.daysOnGoal} of 7 days on goal. ${weekChangeText(week.steps, week.previousWeekSteps)}.`;
}

/**
 * The look back on last week (from 07:00 London on Monday until the next Monday's), told to each
 * walker who had an account that week and walked in it or the one before: in the app and by push
 * as they choose, and by email (the week's card as a mail) unless they stopped it. Each process
 * looks every few minutes; the notification's row per walker and week makes it go once, whichever
 * process tells it first.
 */
export class WeeklySummaries {
  constructor(
    private readonly deps: {
      habits: HabitsRepository;
      health: HealthRepository;
      notifier: Notifier;
      config: AppConfig;
      log: FastifyBaseLogger;
    },
  ) {}

  /** Tells the summaries due at `now`; answers how many. */
  async tick(now = Date.now()): Promise<number> {
    const start = weekToLookBackOn(now);
    if (start === null) return 0;
    const walkers = await this.deps.habits.weeklySummaryWalkers(start, WEEKLY_SUMMARIES_PER_LOOK);
    let told = 0;
    // A batch at a time: the batch's weeks are read, then it is told in one transaction.
    for (let at = 0; at < walkers.length; at += SUMMARIES_TOLD_AT_ONCE) {
      const batch = walkers.slice(at, at + SUMMARIES_TOLD_AT_ONCE);
      const { answers, notTold, databaseDown, failure } = await this.tellBatchOrEach(batch, start, now);
      told += answers.filter((row) => row !== undefined).length;
      if (failure === undefined) continue;
      // A walker whose summary fails is looked at again next time. A batch that failed together
      // and was then told in full says so, so that the failure is not lost. With the database not
      // answering, the batches after this one would fail alike: the look stops, and the next
      // starts again.
      this.deps.log.warn(
        { err: failure, week: start, userIds: notTold },
        databaseDown
          ? "weekly summaries: the database did not answer; the next look tries again"
          : notTold.length > 0
            ? "weekly summaries: some could not be told"
            : "weekly summaries: a batch failed together; each of its walkers was told on their own",
      );
      if (databaseDown) break;
    }
    if (told > 0) this.deps.log.info({ week: start, told }, "weekly summaries told");
    return told;
  }

  /**
   * Tells a batch together (`notifyAll`'s answers) and, when that fails as a whole, a walker at a
   * time (`tellOneByOne`). `notTold` names the walkers left to the next look; `failure`, when there
   * was one, is the first.
   */
  private async tellBatchOrEach(
    batch: readonly WeeklySummaryWalker[],
    start: DayString,
    now: number,
  ): Promise<BatchTold> {
    try {
      return { answers: await this.tellBatch(batch, start, now), notTold: [], databaseDown: false };
    } catch (error) {
      if (error instanceof NoticesNotRecorded) {
        const notTold = batch.filter((_, index) => error.failed.has(index)).map((walker) => walker.id);
        return { answers: error.answers, notTold, databaseDown: false, failure: error };
      }
      const alone = await this.tellOneByOne(batch, start, now);
      return { ...alone, failure: alone.failure ?? error };
    }
  }

  /**
   * A batch that failed together (a read, its transaction, or walkers whose own notices fail sitting
   * first in it, when the notifier takes the database to be failing), told one walker at a time, so
   * that one walker's failure holds back no one else in it. After a walker's failure the database
   * is asked the health check's question: when it does not answer, the failure was not the
   * walker's, and the rest of the batch is not tried.
   */
  private async tellOneByOne(
    batch: readonly WeeklySummaryWalker[],
    start: DayString,
    now: number,
  ): Promise<BatchTold> {
    const answers: (NotificationRow | undefined)[] = [];
    const notTold: string[] = [];
    let failure: unknown;
    for (const [index, walker] of batch.entries()) {
      try {
        answers.push(...(await this.tellBatch([walker], start, now)));
      } catch (error) {
        answers.push(undefined);
        notTold.push(walker.id);
        failure ??= error;
        const answering = await this.deps.health.check().then(
          () => true,
          () => false,
        );
        if (!answering) {
          notTold.push(...batch.slice(index + 1).map((rest) => rest.id));
          return { answers, notTold, databaseDown: true, failure };
        }
      }
    }
    return { answers, notTold, databaseDown: false, failure };
  }

  /** Reads the batch's weeks at once and tells it in one transaction (`notifyAll`'s answers). */
  private async tellBatch(
    batch: readonly WeeklySummaryWalker[],
    start: DayString,
    now: number,
  ): Promise<(NotificationRow | undefined)[]> {
    const { habits, notifier, config } = this.deps;
    const weeks = await habits.weeks(batch, start);
    const notices = batch.map((walker): Notice => {
      const week = weeks.get(walker.id) as WeekSummaryResponse;
      return {
        userId: walker.id,
        kind: "weekly_summary",
        eventKey: start,
        title: `Your week from ${formatShortDay(week.start)}`,
        body: weekLine(week),
        url: WEEK_SUMMARY_URL,
        mail: (_walker, links) =>
          weeklySummaryMail(walker, week, {
            app: `${config.publicUrl}${WEEK_SUMMARY_URL}`,
            unsubscribe: links.unsubscribe,
          }),
      };
    });
    return notifier.notifyAll(notices, now);
  }
}
