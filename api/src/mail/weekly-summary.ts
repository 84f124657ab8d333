import { createHmac, timingSafeEqual } from "node:crypto";
import {
  EMAIL_UNSUBSCRIBE_PATH,
  WEEKLY_SUMMARY_MAIL_KIND,
  type WeekSummaryResponse,
  weekChangeText,
  weekImpactText,
  weekToLookBackOn,
} from "@charity-steps/shared-types";
import type { FastifyBaseLogger } from "fastify";
import { escapeHtml } from "../auth/provider/pages.js";
import { deriveSecret, loadMasterSecret } from "../auth/secrets.js";
import type { AppConfig } from "../config.js";
import type { AppSecretsRepository } from "../repositories/app-secrets.js";
import type { HabitsRepository, WeeklyMailRecipient } from "../repositories/habits.js";
import type { MailQueue } from "./queue.js";

/** Walkers mailed in one look: a look stays short, and the next carries on (every few minutes). */
export const WEEKLY_MAILS_PER_LOOK = 200;

const steps = (count: number) => count.toLocaleString("en-GB");
const dayFormat = new Intl.DateTimeFormat("en-GB", {
  weekday: "short",
  day: "numeric",
  month: "short",
  timeZone: "UTC",
});
const day = (date: string) => dayFormat.format(new Date(`${date}T12:00:00Z`)).replace(",", "");

/** The week's card as a mail: the same lines the dashboard shows. */
export function weeklySummaryMail(
  walker: Pick<WeeklyMailRecipient, "firstName" | "charityName">,
  week: WeekSummaryResponse,
  links: { app: string; unsubscribe: string },
): { subject: string; text: string; html: string } {
  const lines = [
    `Steps: ${steps(week.steps)}`,
    `Days on goal: ${week.daysOnGoal} of 7`,
    `Best day: ${day(week.bestDay.date)}: ${steps(week.bestDay.steps)} steps`,
    weekChangeText(week.steps, week.previousWeekSteps),
    ...(walker.charityName && week.steps > 0 ? [weekImpactText(week.steps, walker.charityName)] : []),
  ];
  const hello = walker.firstName ? `Hello ${walker.firstName},` : "Hello,";
  const heading = `Your week from ${day(week.start)}`;
  const text = [
    hello,
    "",
    `${heading}:`,
    ...lines.map((line) => `- ${line}`),
    "",
    `See it in Charity Steps: ${links.app}`,
    "",
    `You get this every Monday. To stop it: ${links.unsubscribe}`,
  ].join("\n");
  const html = `<p>${escapeHtml(hello)}</p>
<h1 style="font-size:20px">${escapeHtml(heading)}</h1>
<ul>${lines.map((line) => `<li>${escapeHtml(line)}</li>`).join("")}</ul>
<p><a href="${escapeHtml(links.app)}">See it in Charity Steps</a></p>
<p style="color:#64748b;font-size:13px">You get this every Monday. <a href="${escapeHtml(links.unsubscribe)}">Stop these emails</a>.</p>`;
  return { subject: `Your week: ${steps(week.steps)} steps`, text, html };
}

/**
 * Monday's look back on the week, by email: to walkers with a confirmed email who have not stopped
 * it, and who walked that week or the one before. Each process looks every few minutes; the week's
 * row per walker (`claimWeeklyMail`) makes one mail go, whichever process claims it. Each mail can
 * be stopped in one click without signing in (RFC 8058), through a link signed for its walker.
 */
export class WeeklySummaryMail {
  private secret: Promise<string> | undefined;

  constructor(
    private readonly deps: {
      habits: HabitsRepository;
      secrets: AppSecretsRepository;
      mail: MailQueue;
      config: AppConfig;
      log: FastifyBaseLogger;
    },
  ) {}

  /** Queues the mails due at `now`; answers how many. */
  async tick(now = Date.now()): Promise<number> {
    const start = weekToLookBackOn(now);
    if (start === null) return 0;
    const { habits, mail, config } = this.deps;
    const walkers = await habits.weeklyMailRecipients(start, WEEKLY_MAILS_PER_LOOK);
    let queued = 0;
    for (const walker of walkers) {
      if (!(await habits.claimWeeklyMail(walker.id, start, now))) continue;
      const week = await habits.week(walker.id, start);
      const unsubscribe = await this.unsubscribeUrl(walker.id);
      const message = weeklySummaryMail(walker, week, { app: `${config.publicUrl}/`, unsubscribe });
      await mail.send({ to: walker.email, ...message, unsubscribeUrl: unsubscribe, userId: walker.id });
      queued++;
    }
    if (queued > 0) this.deps.log.info({ week: start, queued }, "weekly summaries queued");
    return queued;
  }

  /** The one-click address that stops the walker's weekly summary. */
  async unsubscribeUrl(userId: string): Promise<string> {
    const query = new URLSearchParams({
      u: userId,
      kind: WEEKLY_SUMMARY_MAIL_KIND,
      t: await this.sign(userId),
    });
    return `${this.deps.config.publicUrl}${EMAIL_UNSUBSCRIBE_PATH}?${query}`;
  }

  /** Whether `token` is the signature of the walker's unsubscribe link. */
  async verify(userId: string, token: string): Promise<boolean> {
    const expected = Buffer.from(await this.sign(userId));
    const given = Buffer.from(token);
    return given.length === expected.length && timingSafeEqual(given, expected);
  }

  private async sign(userId: string): Promise<string> {
    this.secret ??= loadMasterSecret(this.deps.config, this.deps.secrets).then((master) =>
      deriveSecret(master, "email-unsubscribe"),
    );
    return createHmac("sha256", await this.secret)
      .update(`${WEEKLY_SUMMARY_MAIL_KIND}:${userId}`)
      .digest("base64url");
  }
}
