import type { NotificationKind } from "@charity-steps/shared-types";

/** One thing the app told a walker: listed in the app, and the source of its pushes and mails. */
export interface NotificationsTable {
  id: string;
  user_id: string;
  kind: NotificationKind;
  /**
   * What the notification is about (a draw's month, a group and its new member, a day): with the
   * walker and the kind, unique, so that each event is told once however many processes notice it.
   */
  event_key: string;
  title: string;
  body: string;
  /** A path in the app, starting with `/`. */
  url: string;
  created_at: number;
  read_at: number | null;
  /** Whether a push of it was queued (the daily cap counts these). */
  pushed: number;
}

/** A walker's notification settings; a walker without a row has the defaults. */
export interface NotificationSettingsTable {
  user_id: string;
  /** JSON: `{<kind>: {push?, email?}}`, only the choices the walker made; the rest are defaults. */
  kinds: string;
  reminder_time: string;
  quiet_start: string;
  quiet_end: string;
  updated_at: number;
}

/** A browser the walker turned push on in: where its pushes go, and the keys they are encrypted to. */
export interface PushSubscriptionsTable {
  id: string;
  user_id: string;
  endpoint: string;
  p256dh: string;
  auth: string;
  expiration_time: number | null;
  created_at: number;
  last_success_at: number | null;
}

export type PushStatus = "pending" | "sent" | "failed";

/**
 * One push of one notification to one subscription, queued until a worker of any API process
 * delivers it: claimed under a lease, as the mail queue's messages are.
 */
export interface PushOutboxTable {
  id: string;
  notification_id: string;
  subscription_id: string;
  user_id: string;
  status: PushStatus;
  attempts: number;
  /** When it is next due: after quiet hours, or after a failed attempt's wait. */
  next_attempt_at: number;
  claimed_until: number | null;
  last_error: string | null;
  created_at: number;
  sent_at: number | null;
}

/** A browser a walker signed in from: the hash of the device cookie it holds. */
export interface SignInDevicesTable {
  user_id: string;
  device_hash: string;
  first_seen_at: number;
}

/** A walker's day whose streak was looked at, at their reminder time: once, by one process. */
export interface StreakReminderChecksTable {
  user_id: string;
  day: string;
  checked_at: number;
}
