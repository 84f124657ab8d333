import {
  defaultNotificationPreferences,
  inQuietHours,
  isNotificationKind,
  isolated,
  londonDay,
  londonDayStart,
  londonMinuteOfDay,
  NOTIFICATION_KIND_NAMES,
  NOTIFICATION_KINDS,
  type NotificationChannels,
  type NotificationItem,
  type NotificationKind,
  type NotificationPreferences,
  type NotificationPreferencesUpdate,
  nextLondonTime,
  PUSHES_PER_DAY,
  QUIET_HOURS_EXEMPT_KINDS,
  UNCAPPED_KINDS,
} from "@charity-steps/shared-types";
import type { FastifyBaseLogger } from "fastify";
import type { AppConfig } from "../config.js";
import { checkMessage, mailLayout } from "../mail/mail.js";
import type { MailQueue } from "../mail/queue.js";
import { ERASED_SUBJECT_PREFIX } from "../repositories/account-data.js";
import type { HabitsRepository } from "../repositories/habits.js";
import type { QueuedMail } from "../repositories/mail-outbox.js";
import type {
  NewNotification,
  NotificationRow,
  NotificationSettingsRow,
  NotificationsRepository,
} from "../repositories/notifications.js";
import type { UserRow, UsersRepository } from "../repositories/users.js";
import type { PushQueue } from "./push-queue.js";
import type { UnsubscribeLinks } from "./unsubscribe-links.js";

/** A notice's own mail, for kinds that say more by email than the list's title and body. */
export type NoticeMail = (
  walker: { firstName: string | null },
  links: { unsubscribe: string; unsubscribeReason: string },
) => { subject: string; text: string; html: string };

/** What happened, for one walker: listed in the app, and pushed and mailed as they choose. */
export interface Notice extends NewNotification {
  /** The mail when the walker gets this kind by email; otherwise one is made of the title and body. */
  mail?: NoticeMail;
}

/**
 * Tells walkers what matters: every notification is listed in the app (the bell), and goes by push
 * to the walker's browsers when they want that kind by push, at most `PUSHES_PER_DAY` a day (a win
 * and a new sign-in aside), waiting for the end of their quiet hours (a new sign-in aside); and by
 * email, to a confirmed address, when they want that kind by email, with a one-click unsubscribe
 * for the kind. Each event is told once: the notification's row is unique per walker, kind and
 * event, so a second process (or a second look) noticing the same event adds nothing; its pushes
 * and its mail are stored with it or not at all.
 *
 * The week's summary by email is the one choice kept elsewhere (`users.weekly_email_off_at`, which
 * the Account page's own switch and the Monday look read too): the preferences read and write it
 * there.
 */
export class Notifier {
  constructor(
    private readonly deps: {
      notifications: NotificationsRepository;
      users: UsersRepository;
      habits: HabitsRepository;
      push: PushQueue;
      mail: MailQueue;
      links: UnsubscribeLinks;
      config: AppConfig;
      log: FastifyBaseLogger;
    },
  ) {}

  /** Tells the walker as they chose (list, push, email); undefined when this event was told already. */
  async notify(notice: Notice, now = Date.now()): Promise<NotificationRow | undefined> {
    return (await this.notifyAll([notice], now))[0];
  }

  /**
   * `notify` for many notices, at a cost that does not grow with them: each read is one query for
   * all their walkers, and all are stored in one transaction. Answers each notice's row in order:
   * undefined where its event was told already, or its walker is gone.
   *
   * When that fails, each notice is tried on its own, so that one walker's failure (their mail, an
   * account erased meanwhile) costs the others nothing. If some still fail, it throws
   * `NoticesNotRecorded` with the others' answers. When the first two tried alone fail too, the
   * database, not a walker, is failing: it stops and throws the error, as when none is stored.
   */
  async notifyAll(notices: readonly Notice[], now = Date.now()): Promise<(NotificationRow | undefined)[]> {
    try {
      return await this.notifyTogether(notices, now);
    } catch (error) {
      if (notices.length < 2) throw error;
      const answers: (NotificationRow | undefined)[] = [];
      const failed = new Set<number>();
      let cause: unknown;
      for (const [index, notice] of notices.entries()) {
        try {
          answers.push(...(await this.notifyTogether([notice], now)));
        } catch (alone) {
          answers.push(undefined);
          failed.add(index);
          cause ??= alone;
          if (failed.size === 2 && index === 1) throw error;
        }
      }
      if (failed.size === notices.length) throw error;
      if (failed.size > 0) throw new NoticesNotRecorded(answers, failed, cause);
      return answers;
    }
  }

  /** Reads for all the notices at once and stores them in one transaction: all or none. */
  private async notifyTogether(
    notices: readonly Notice[],
    now: number,
  ): Promise<(NotificationRow | undefined)[]> {
    if (notices.length === 0) return [];
    const { notifications, users, push, mail, log } = this.deps;
    const userIds = [...new Set(notices.map((notice) => notice.userId))];
    const [settings, walkers] = await Promise.all([
      notifications.settingsOf(userIds),
      users.findByIds(userIds),
    ]);
    // An erased account is told nothing: what the app told it went with it.
    const told = notices.flatMap((notice, index) => {
      const walker = walkers.get(notice.userId);
      if (!walker || walker.subject.startsWith(ERASED_SUBJECT_PREFIX)) return [];
      const preferences = preferencesOf(settings.get(notice.userId), walker);
      return [{ index, notice, walker, preferences, channels: preferences.kinds[notice.kind] }];
    });
    const pushedTo = [...new Set(told.filter((one) => one.channels.push).map((one) => one.walker.id))];
    const subscriptions = await notifications.subscriptionsOf(pushedTo);
    const cap = { since: londonDayStart(londonDay(now)), limit: PUSHES_PER_DAY, uncapped: UNCAPPED_KINDS };
    const items = await Promise.all(
      told.map(async ({ index, notice, walker, preferences, channels }) => {
        const { mail: ownMail, ...notification } = notice;
        const quiet =
          !QUIET_HOURS_EXEMPT_KINDS.includes(notice.kind) &&
          inQuietHours(londonMinuteOfDay(now), preferences.quietHours);
        const deliveries = {
          pushTo: channels.push ? (subscriptions.get(walker.id) ?? []).map(({ id }) => id) : [],
          dueAt: quiet ? nextLondonTime(now, preferences.quietHours.end) : now,
          cap: UNCAPPED_KINDS.includes(notice.kind) ? null : cap,
          mail: channels.email ? await this.mailOf(notice, ownMail, walker) : null,
        };
        return { index, notification, deliveries, quiet, email: channels.email };
      }),
    );
    const rows = await notifications.recordAll(items, now);
    const answers: (NotificationRow | undefined)[] = notices.map(() => undefined);
    let wakePush = false;
    let wakeMail = false;
    for (const [at, { index, notification, deliveries, quiet, email }] of items.entries()) {
      const row = rows[at];
      answers[index] = row;
      if (!row) continue;
      if (deliveries.pushTo.length > 0 && row.pushed === 0) {
        log.info(
          { userId: notification.userId, kind: notification.kind },
          "push not sent: the walker had today's pushes",
        );
      }
      if (row.pushed === 1 && !quiet) wakePush = true;
      if (email) wakeMail = true;
    }
    if (wakePush) push.wake();
    if (wakeMail) mail.wake();
    return answers;
  }

  /**
   * As `notify`, but never fails the caller: the event (a step sync, a join, a review) has
   * happened whatever becomes of telling the walker, and a failure is logged instead.
   */
  async tell(notification: Notice, now = Date.now()): Promise<void> {
    await this.tellAll([notification], now);
  }

  /**
   * `notifyAll`, never failing the caller (as `tell`): answers the notices that could not be
   * recorded, which are logged with their walkers.
   */
  tellAll(notices: readonly Notice[], now = Date.now()): Promise<Notice[]> {
    return this.notifyAll(notices, now).then(
      () => [],
      (error: unknown) => {
        const lost =
          error instanceof NoticesNotRecorded
            ? notices.filter((_, index) => error.failed.has(index))
            : [...notices];
        const [first] = lost;
        this.deps.log.warn(
          lost.length === 1 && first
            ? { err: error, kind: first.kind, userId: first.userId }
            : {
                err: error,
                kinds: [...new Set(lost.map((notice) => notice.kind))],
                userIds: lost.map((notice) => notice.userId),
              },
          "notification could not be recorded",
        );
        return lost;
      },
    );
  }

  async preferences(userId: string): Promise<NotificationPreferences> {
    const [settings, walker] = await Promise.all([
      this.deps.notifications.settings(userId),
      this.deps.users.findById(userId),
    ]);
    return preferencesOf(settings, walker);
  }

  /** Applies the parts given; answers the whole preferences as stored. */
  async changePreferences(
    userId: string,
    update: NotificationPreferencesUpdate,
    now = Date.now(),
  ): Promise<NotificationPreferences> {
    const stored = await this.deps.notifications.settings(userId);
    const choices = choicesOf(stored);
    for (const [kind, channels] of Object.entries(update.kinds ?? {})) {
      if (!isNotificationKind(kind) || !channels) continue;
      // The week's summary by email is kept on the walker's row (below), not here.
      const kept =
        kind !== "weekly_summary" ? channels : channels.push === undefined ? {} : { push: channels.push };
      choices[kind] = { ...choices[kind], ...kept };
    }
    const weeklyEmail = update.kinds?.weekly_summary?.email;
    if (weeklyEmail !== undefined) {
      await this.deps.habits.update(userId, { weeklyEmail }, londonDay(now), now);
    }
    const current = preferencesOf(stored, undefined);
    const reminderTime = update.reminderTime ?? current.reminderTime;
    const quietHours = update.quietHours ?? current.quietHours;
    await this.deps.notifications.saveSettings({
      user_id: userId,
      kinds: JSON.stringify(choices),
      reminder_time: reminderTime,
      quiet_start: quietHours.start,
      quiet_end: quietHours.end,
      updated_at: now,
    });
    return this.preferences(userId);
  }

  /** The notice's mail to the walker's confirmed address, with its kind's unsubscribe; null when none can go. */
  private async mailOf(
    notice: Notice,
    ownMail: NoticeMail | undefined,
    walker: UserRow,
  ): Promise<QueuedMail | null> {
    if (!walker.email || walker.email_verified_at === null) return null;
    const { config, links } = this.deps;
    const unsubscribe = await links.url(walker.id, notice.kind);
    const unsubscribeReason = `You get this email because “${NOTIFICATION_KIND_NAMES[notice.kind]}” is on in your notification settings.`;
    const firstName = walker.first_name;
    const content = ownMail
      ? ownMail({ firstName }, { unsubscribe, unsubscribeReason })
      : {
          subject: notice.title,
          ...mailLayout({
            greeting: firstName ? `Hello ${isolated(firstName)},` : "Hello,",
            paragraphs: [notice.body],
            action: { label: "Open Charity Steps", url: `${config.publicUrl}${notice.url}` },
            unsubscribe: { reason: unsubscribeReason, url: unsubscribe },
          }),
        };
    const message = { to: walker.email, ...content, unsubscribeUrl: unsubscribe, userId: walker.id };
    try {
      checkMessage(message);
    } catch (error) {
      this.deps.log.warn({ err: error, kind: notice.kind, userId: walker.id }, "notification mail not sent");
      return null;
    }
    return message;
  }
}

/** Some notices of a `notifyAll` call could not be recorded, each tried on its own; the rest were. */
export class NoticesNotRecorded extends Error {
  constructor(
    /** Each notice's answer, as `notifyAll` gives them; undefined for those that failed. */
    readonly answers: readonly (NotificationRow | undefined)[],
    /** The failed notices' places in the call. */
    readonly failed: ReadonlySet<number>,
    cause: unknown,
  ) {
    super(`${failed.size} of ${answers.length} notices could not be recorded`, { cause });
    this.name = "NoticesNotRecorded";
  }
}

/** A notification as the list shows it. */
export function notificationItem(row: NotificationRow): NotificationItem {
  return {
    id: row.id,
    kind: row.kind,
    title: row.title,
    body: row.body,
    url: row.url,
    createdAt: new Date(row.created_at).toISOString(),
    readAt: row.read_at === null ? null : new Date(row.read_at).toISOString(),
  };
}

type Choices = Partial<Record<NotificationKind, Partial<NotificationChannels>>>;

/** The choices a walker made, read leniently: a stored kind or value the app no longer has is left out. */
function choicesOf(stored: NotificationSettingsRow | undefined): Choices {
  const choices: Choices = {};
  if (!stored) return choices;
  let parsed: unknown;
  try {
    parsed = JSON.parse(stored.kinds);
  } catch {
    return choices;
  }
  if (typeof parsed !== "object" || parsed === null) return choices;
  for (const [kind, channels] of Object.entries(parsed)) {
    if (!isNotificationKind(kind) || typeof channels !== "object" || channels === null) continue;
    const { push, email } = channels as Record<string, unknown>;
    choices[kind] = {
      ...(typeof push === "boolean" ? { push } : {}),
      ...(typeof email === "boolean" ? { email } : {}),
    };
  }
  return choices;
}

/** The stored choices over the defaults; the week's summary by email as the walker's row keeps it. */
function preferencesOf(
  stored: NotificationSettingsRow | undefined,
  walker: Pick<UserRow, "weekly_email_off_at"> | undefined,
): NotificationPreferences {
  const preferences = defaultNotificationPreferences();
  if (walker) preferences.kinds.weekly_summary.email = walker.weekly_email_off_at === null;
  if (!stored) return preferences;
  const choices = choicesOf(stored);
  for (const kind of NOTIFICATION_KINDS) {
    const { push, email } = choices[kind] ?? {};
    const defaults = preferences.kinds[kind];
    preferences.kinds[kind] = {
      push: push ?? defaults.push,
      email: kind === "weekly_summary" ? defaults.email : (email ?? defaults.email),
    };
  }
  preferences.reminderTime = stored.reminder_time;
  preferences.quietHours = { start: stored.quiet_start, end: stored.quiet_end };
  return preferences;
}
