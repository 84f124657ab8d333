import { type Static, type TSchema, Type } from "typebox";
import { SingleLineText } from "./text.js";

/**
 * Notifications: what the app tells a walker, in the app (the bell), by Web Push on their devices,
 * and by email. Every notification is listed in the app; push and email follow the walker's
 * preferences, quiet hours and the daily cap.
 */
export const NOTIFICATIONS_PATH = "/api/notifications";
export const NOTIFICATIONS_READ_PATH = "/api/notifications/read";
export const NOTIFICATION_PREFERENCES_PATH = "/api/notifications/preferences";
/** The server's VAPID public key, which a browser needs to subscribe: public. */
export const PUSH_KEY_PATH = "/api/push/key";
export const PUSH_SUBSCRIPTIONS_PATH = "/api/push/subscriptions";
export const PUSH_SUBSCRIPTION_PATH = "/api/push/subscriptions/:id";

export const NOTIFICATION_KINDS = [
  "prize_won",
  "prize_claim_reminder",
  "draw_results",
  "goal_reached",
  "streak_at_risk",
  "weekly_summary",
  "group_joined",
  "challenge_completed",
  "entry_reviewed",
  "new_sign_in",
] as const;
export type NotificationKind = (typeof NOTIFICATION_KINDS)[number];

export function isNotificationKind(value: unknown): value is NotificationKind {
  return typeof value === "string" && (NOTIFICATION_KINDS as readonly string[]).includes(value);
}

/**
 * A mail's one-click unsubscribe (RFC 8058), for its kind: works without signing in, through a link
 * signed for its walker and kind.
 */
export const EMAIL_UNSUBSCRIBE_PATH = "/api/email/unsubscribe";
export const EmailUnsubscribeQuery = Type.Object(
  {
    u: Type.String({ minLength: 1, maxLength: 64, description: "The walker's id" }),
    kind: Type.Enum(NOTIFICATION_KINDS, { description: "The kind of mail to stop" }),
    t: Type.String({ minLength: 1, maxLength: 128, description: "The link's signature" }),
  },
  { additionalProperties: false },
);
export type EmailUnsubscribeQuery = Static<typeof EmailUnsubscribeQuery>;
export const UNSUBSCRIBE_LINK_NOT_VALID_MESSAGE =
  "This unsubscribe link is not valid: it may have been cut short. Turn these emails off from your Account page instead.";

/** Each kind as the Account page's switches name it. */
export const NOTIFICATION_KIND_NAMES: Record<NotificationKind, string> = {
  prize_won: "You won a prize",
  prize_claim_reminder: "A prize waiting to be claimed",
  draw_results: "A month's draw results",
  goal_reached: "Daily goal reached",
  streak_at_risk: "Streak reminder",
  weekly_summary: "A look back on your week",
  group_joined: "Someone joined your group",
  challenge_completed: "Challenge completed",
  entry_reviewed: "A check on your steps",
  new_sign_in: "A sign-in from a new browser",
};

/** The kinds that also come by email unless the walker turns that off. */
export const EMAIL_BY_DEFAULT_KINDS: readonly NotificationKind[] = [
  "prize_won",
  "prize_claim_reminder",
  "weekly_summary",
  "new_sign_in",
];
/** Sent whatever the hour and not counted in the daily cap: a win, and a sign-in the walker may not have made. */
export const UNCAPPED_KINDS: readonly NotificationKind[] = ["prize_won", "new_sign_in"];
/** Pushes that may wake a phone in quiet hours: a sign-in the walker may not have made. */
export const QUIET_HOURS_EXEMPT_KINDS: readonly NotificationKind[] = ["new_sign_in"];
/** Pushes the push service should deliver at once rather than when the phone next wakes. */
export const HIGH_URGENCY_KINDS: readonly NotificationKind[] = ["prize_won", "new_sign_in"];

/** Pushes a walker gets in one London day at most, besides the uncapped kinds. */
export const PUSHES_PER_DAY = 3;
/** Browsers (push subscriptions) one walker may have at once. */
export const MAX_PUSH_SUBSCRIPTIONS = 10;
export const TOO_MANY_PUSH_SUBSCRIPTIONS_MESSAGE = `You can get notifications on at most ${MAX_PUSH_SUBSCRIPTIONS} browsers. Turn them off on one you no longer use (Account → Notifications), then try again.`;
export const PUSH_ENDPOINT_NOT_ALLOWED_MESSAGE =
  "endpoint must be an https address of a browser's push service (Chrome, Firefox, Safari or Edge).";

export const DEFAULT_REMINDER_TIME = "19:00";
/** Quiet hours, London time: a start equal to the end means none. */
export const DEFAULT_QUIET_HOURS = { start: "21:00", end: "08:00" } as const;
/** A clock time on London's clocks, `HH:MM` (24-hour). */
export const CLOCK_TIME_PATTERN = "^([01][0-9]|2[0-3]):[0-5][0-9]$";
export const CLOCK_TIME_RULE = "must be a time written HH:MM (24-hour), such as 19:00";

/** Notifications one page of the list holds, by default and at most. */
export const NOTIFICATIONS_PAGE_DEFAULT = 20;
export const NOTIFICATIONS_PAGE_MAX = 50;
/** Ids one `read` call may mark. */
export const NOTIFICATIONS_READ_MAX_IDS = 100;

/** The ids the API hands out (UUIDs): anything else names nothing. */
const Id = Type.String({
  pattern: "^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$",
  errorMessage: "must be an id the app gave",
});
const ClockTime = Type.String({ pattern: CLOCK_TIME_PATTERN, errorMessage: CLOCK_TIME_RULE });
const KindSchema = Type.Enum(NOTIFICATION_KINDS);

export const NotificationItem = Type.Object({
  id: Type.String(),
  kind: KindSchema,
  title: Type.String(),
  body: Type.String(),
  /** A path in the app, starting with `/`. */
  url: Type.String(),
  createdAt: Type.String({ description: "ISO 8601" }),
  readAt: Type.Union([Type.String({ description: "ISO 8601" }), Type.Null()]),
});
export type NotificationItem = Static<typeof NotificationItem>;

export const NotificationsQuery = Type.Object(
  {
    limit: Type.Optional(Type.Integer({ minimum: 1, maximum: NOTIFICATIONS_PAGE_MAX })),
    /** The `next` of the page before: the page after it, older notifications. */
    before: Type.Optional(Type.String({ maxLength: 100 })),
  },
  { additionalProperties: false },
);
export type NotificationsQuery = Static<typeof NotificationsQuery>;

export const NotificationsResponse = Type.Object({
  items: Type.Array(NotificationItem),
  /** Every unread notification of the walker's, not only this page's. */
  unread: Type.Integer(),
  /** Pass as `before` for the next (older) page; null on the last page. */
  next: Type.Union([Type.String(), Type.Null()]),
});
export type NotificationsResponse = Static<typeof NotificationsResponse>;

export const NotificationsRead = Type.Object(
  {
    ids: Type.Optional(Type.Array(Id, { maxItems: NOTIFICATIONS_READ_MAX_IDS })),
  },
  { additionalProperties: false },
);
export type NotificationsRead = Static<typeof NotificationsRead>;

export const NotificationsReadResponse = Type.Object({ unread: Type.Integer() });
export type NotificationsReadResponse = Static<typeof NotificationsReadResponse>;

const Channels = Type.Object({ push: Type.Boolean(), email: Type.Boolean() });
const QuietHours = Type.Object({ start: ClockTime, end: ClockTime });

/** The same schema for each kind of notification: an object schema's properties. */
/* @__NO_SIDE_EFFECTS__ */
function eachKind<Schema extends TSchema>(schema: Schema): { [K in NotificationKind]: Schema } {
  return Object.fromEntries(NOTIFICATION_KINDS.map((kind) => [kind, schema])) as {
    [K in NotificationKind]: Schema;
  };
}

export const NotificationPreferences = Type.Object({
  kinds: Type.Object(eachKind(Channels)),
  reminderTime: ClockTime,
  quietHours: QuietHours,
});
export type NotificationPreferences = Static<typeof NotificationPreferences>;
export type NotificationChannels = Static<typeof Channels>;

/** `PUT`: the same shape, or any part of it (one channel of one kind). */
export const NotificationPreferencesUpdate = Type.Object(
  {
    kinds: Type.Optional(
      Type.Object(
        eachKind(
          Type.Optional(
            Type.Object(
              { push: Type.Optional(Type.Boolean()), email: Type.Optional(Type.Boolean()) },
              { additionalProperties: false },
            ),
          ),
        ),
        { additionalProperties: false },
      ),
    ),
    reminderTime: Type.Optional(ClockTime),
    quietHours: Type.Optional(QuietHours),
  },
  { additionalProperties: false, minProperties: 1 },
);
export interface NotificationPreferencesUpdate {
  kinds?: Partial<Record<NotificationKind, Partial<NotificationChannels>>>;
  reminderTime?: string;
  quietHours?: { start: string; end: string };
}

/** The preferences of a walker who has changed none. */
export function defaultNotificationPreferences(): NotificationPreferences {
  return {
    kinds: Object.fromEntries(
      NOTIFICATION_KINDS.map((kind) => [kind, { push: true, email: EMAIL_BY_DEFAULT_KINDS.includes(kind) }]),
    ) as NotificationPreferences["kinds"],
    reminderTime: DEFAULT_REMINDER_TIME,
    quietHours: { ...DEFAULT_QUIET_HOURS },
  };
}

export const PushKeyResponse = Type.Object({
  /** The VAPID public key, base64url: a browser's `applicationServerKey`. */
  publicKey: Type.String(),
});
export type PushKeyResponse = Static<typeof PushKeyResponse>;

/** What a browser's `PushSubscription.toJSON()` gives. */
export const PushSubscriptionBody = Type.Object(
  {
    endpoint: /* @__PURE__ */ SingleLineText({ minLength: 1, maxLength: 1_000 }),
    expirationTime: Type.Optional(Type.Union([Type.Number(), Type.Null()])),
    keys: Type.Object(
      {
        p256dh: Type.String({ minLength: 1, maxLength: 200, pattern: "^[A-Za-z0-9_-]+={0,2}$" }),
        auth: Type.String({ minLength: 1, maxLength: 100, pattern: "^[A-Za-z0-9_-]+={0,2}$" }),
      },
      { additionalProperties: false },
    ),
  },
  { additionalProperties: false },
);
export type PushSubscriptionBody = Static<typeof PushSubscriptionBody>;

export const PushSubscriptionCreated = Type.Object({ id: Type.String() });
export type PushSubscriptionCreated = Static<typeof PushSubscriptionCreated>;

export const PushSubscriptionItem = Type.Object({
  id: Type.String(),
  /** Only the push service's origin: the endpoint in full is a capability to push to the browser. */
  endpointOrigin: Type.String(),
  createdAt: Type.String({ description: "ISO 8601" }),
  lastSuccessAt: Type.Union([Type.String({ description: "ISO 8601" }), Type.Null()]),
});
export type PushSubscriptionItem = Static<typeof PushSubscriptionItem>;

export const PushSubscriptionsResponse = Type.Object({ items: Type.Array(PushSubscriptionItem) });
export type PushSubscriptionsResponse = Static<typeof PushSubscriptionsResponse>;

export const PushSubscriptionParams = Type.Object({ id: Id });
export type PushSubscriptionParams = Static<typeof PushSubscriptionParams>;

/** What a push carries, encrypted: the service worker shows it and opens `url` on a tap. */
export interface PushPayload {
  kind: NotificationKind;
  title: string;
  body: string;
  url: string;
}

/** Minutes past midnight of an `HH:MM` time. */
export function clockMinutes(time: string): number {
  const [hours, minutes] = time.split(":").map(Number) as [number, number];
  return hours * 60 + minutes;
}

/** Whether `minute` (of the London day) falls in quiet hours from `start` to `end`; none when equal. */
export function inQuietHours(minute: number, quietHours: { start: string; end: string }): boolean {
  const start = clockMinutes(quietHours.start);
  const end = clockMinutes(quietHours.end);
  if (start === end) return false;
  return start < end ? minute >= start && minute < end : minute >= start || minute < end;
}
