import {
  defaultNotificationPreferences,
  inQuietHours,
  isNotificationKind,
  londonDay,
  londonDayStart,
  londonMinuteOfDay,
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
import type {
  NewNotification,
  NotificationRow,
  NotificationSettingsRow,
  NotificationsRepository,
} from "../repositories/notifications.js";
import type { PushQueue } from "./push-queue.js";

/**
 * Tells walkers what matters: every notification is listed in the app (the bell), and goes by push
 * to the walker's browsers when they want that kind by push, at most `PUSHES_PER_DAY` a day (a win
 * and a new sign-in aside), waiting for the end of their quiet hours (a new sign-in aside). Each
 * event is told once: the notification's row is unique per walker, kind and event, so a second
 * process (or a second look) noticing the same event adds nothing.
 */
export class Notifier {
  /** One walker's notifications are decided one at a time, so that the daily cap holds in a process. */
  private readonly perWalker = new Map<string, Promise<unknown>>();

  constructor(
    private readonly deps: {
      notifications: NotificationsRepository;
      push: PushQueue;
      log: FastifyBaseLogger;
    },
  ) {}

  /** Records the notification and queues its pushes; undefined when this event was told already. */
  async notify(notification: NewNotification, now = Date.now()): Promise<NotificationRow | undefined> {
    const previous = this.perWalker.get(notification.userId) ?? Promise.resolve();
    const next = previous.then(
      () => this.decide(notification, now),
      () => this.decide(notification, now),
    );
    this.perWalker.set(notification.userId, next);
    try {
      return await next;
    } finally {
      if (this.perWalker.get(notification.userId) === next) this.perWalker.delete(notification.userId);
    }
  }

  /**
   * As `notify`, but never fails the caller: the event (a step sync, a join, a review) has
   * happened whatever becomes of telling the walker, and a failure is logged instead.
   */
  tell(notification: NewNotification, now = Date.now()): Promise<void> {
    return this.notify(notification, now).then(
      () => undefined,
      (error: unknown) =>
        this.deps.log.warn(
          { err: error, kind: notification.kind, userId: notification.userId },
          "notification could not be recorded",
        ),
    );
  }

  async preferences(userId: string): Promise<NotificationPreferences> {
    return preferencesOf(await this.deps.notifications.settings(userId));
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
      choices[kind] = { ...choices[kind], ...channels };
    }
    const current = preferencesOf(stored);
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

  private async decide(notification: NewNotification, now: number): Promise<NotificationRow | undefined> {
    const { notifications, push } = this.deps;
    const row = await notifications.record(notification, now);
    if (!row) return undefined;
    const preferences = await this.preferences(notification.userId);
    if (!preferences.kinds[notification.kind].push) return row;
    const subscriptions = await notifications.subscriptions(notification.userId);
    if (subscriptions.length === 0) return row;
    if (!UNCAPPED_KINDS.includes(notification.kind)) {
      const todayStarted = londonDayStart(londonDay(now));
      const pushedToday = await notifications.pushedSince(notification.userId, todayStarted, UNCAPPED_KINDS);
      if (pushedToday >= PUSHES_PER_DAY) {
        this.deps.log.info(
          { userId: notification.userId, kind: notification.kind },
          "push not sent: the walker had today's pushes",
        );
        return row;
      }
    }
    const quiet =
      !QUIET_HOURS_EXEMPT_KINDS.includes(notification.kind) &&
      inQuietHours(londonMinuteOfDay(now), preferences.quietHours);
    const dueAt = quiet ? nextLondonTime(now, preferences.quietHours.end) : now;
    await notifications.enqueuePushes(
      row,
      subscriptions.map((subscription) => subscription.id),
      dueAt,
      now,
    );
    await notifications.markPushed(row.id);
    if (!quiet) push.wake();
    return { ...row, pushed: 1 };
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

function preferencesOf(stored: NotificationSettingsRow | undefined): NotificationPreferences {
  const preferences = defaultNotificationPreferences();
  if (!stored) return preferences;
  const choices = choicesOf(stored);
  for (const kind of NOTIFICATION_KINDS) {
    preferences.kinds[kind] = { ...preferences.kinds[kind], ...choices[kind] };
  }
  preferences.reminderTime = stored.reminder_time;
  preferences.quietHours = { start: stored.quiet_start, end: stored.quiet_end };
  return preferences;
}
