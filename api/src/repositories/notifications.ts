import { randomUUID } from "node:crypto";
import {
  addDays,
  DAILY_GOAL_MIN,
  type DayString,
  groupBy,
  type NotificationKind,
} from "@charity-steps/shared-types";
import type { Kysely } from "kysely";
import type { Database } from "../db/database.js";
import type { DatabaseSchema } from "../db/schema/index.js";
import type {
  NotificationSettingsTable,
  NotificationsTable,
  PushOutboxTable,
  PushSubscriptionsTable,
} from "../db/schema/notifications.js";
import { ERASED_SUBJECT_PREFIX } from "./account-data.js";
import { LeasedRows, leasedRowNumbers } from "./leased-rows.js";
import type { MailOutboxRepository, QueuedMail } from "./mail-outbox.js";

export type NotificationRow = NotificationsTable;
export type NotificationSettingsRow = NotificationSettingsTable;
export type PushSubscriptionRow = PushSubscriptionsTable;
export type PushOutboxRow = PushOutboxTable;

export interface NewNotification {
  userId: string;
  kind: NotificationKind;
  eventKey: string;
  title: string;
  body: string;
  url: string;
}

/** How a notification goes beyond the list: a push to each subscription, due at `dueAt`, and a mail. */
export interface NotificationDeliveries {
  pushTo: readonly string[];
  dueAt: number;
  /** The walker's pushes a day: none is queued once `limit` of the capped kinds went since `since`. */
  cap: { since: number; limit: number; uncapped: readonly NotificationKind[] } | null;
  mail: QueuedMail | null;
}

/** A page of the list: `before` is the `next` the page before answered. */
export interface NotificationPage {
  items: NotificationRow[];
  next: string | null;
}

/**
 * What the app told each walker, their notification settings, the browsers they get pushes in, and
 * the pushes waiting to go. A push is claimed under a lease by one statement that only one worker
 * can win, as the mail queue's messages are (see LeasedRows).
 */
export class NotificationsRepository {
  private readonly db: Kysely<DatabaseSchema>;
  private readonly pushes: LeasedRows<PushOutboxRow>;

  constructor(
    private readonly database: Database,
    private readonly mailOutbox: MailOutboxRepository,
  ) {
    this.db = database.db;
    this.pushes = new LeasedRows(database, "push_outbox");
  }

  /**
   * Stores the notification with its pushes and its mail, all or nothing, so that a process that
   * stops between them loses none; undefined (and nothing stored) when the walker was already told
   * of this event. The daily cap is counted in the same transaction, one notification of a walker's
   * at a time (SQLite's write lock is taken first; PostgreSQL locks the walker's row), so that it
   * holds however many processes tell the walker at once. `pushed` says whether pushes were queued.
   */
  async record(
    notification: NewNotification,
    deliveries: NotificationDeliveries,
    now = Date.now(),
  ): Promise<NotificationRow | undefined> {
    return (await this.recordAll([{ notification, deliveries }], now))[0];
  }

  /**
   * `record` for many notifications in one transaction: one insert of them all, one count of each
   * capped walker's pushes today, one insert of their pushes. Answers each one's row in order
   * (undefined where its event was told already, or its walker is erased). Within the call the cap
   * counts each walker's notifications in order, as calls one after another would.
   */
  async recordAll(
    items: readonly { notification: NewNotification; deliveries: NotificationDeliveries }[],
    now = Date.now(),
  ): Promise<(NotificationRow | undefined)[]> {
    if (items.length === 0) return [];
    const entries = items.map(({ notification, deliveries }) => {
      const row: NotificationRow = {
        id: randomUUID(),
        user_id: notification.userId,
        kind: notification.kind,
        event_key: notification.eventKey,
        title: notification.title,
        body: notification.body,
        url: notification.url,
        created_at: now,
        read_at: null,
        pushed: 0,
      };
      return { row, deliveries };
    });
    const capped = entries.filter(({ deliveries }) => deliveries.pushTo.length > 0 && deliveries.cap);
    // One row for each event, in key order (the order the unique index's entries are locked in): a
    // second notification of an event in the same call is told nothing, as one after it would be.
    const eventOf = (row: NotificationRow) => `${row.user_id}\u0000${row.kind}\u0000${row.event_key}`;
    const firstOfEvent = new Map<string, NotificationRow>();
    for (const { row } of entries) if (!firstOfEvent.has(eventOf(row))) firstOfEvent.set(eventOf(row), row);
    const rowsOfEvents = [...firstOfEvent].sort(([a], [b]) => (a < b ? -1 : 1)).map(([, row]) => row);
    return this.database.writeTransaction(async (trx) => {
      // The walkers as they stand now. A walker erased since the caller read them is told nothing:
      // the erasure removed what the app had told them. On PostgreSQL they are locked (FOR NO KEY
      // UPDATE: writes that only reference the walker, a sync, do not wait; in id order, so that two
      // processes locking walkers they share wait for each other), which also holds each capped
      // walker's count of pushes until this commits, and an erasure that begins meanwhile waits,
      // then removes what this stores. SQLite's write lock, held from here on, does both.
      let walkers = trx
        .selectFrom("users")
        .select(["id", "subject"])
        .where("id", "in", [...new Set(rowsOfEvents.map((row) => row.user_id))].sort())
        .orderBy("id");
      if (this.database.dialect === "postgres") walkers = walkers.forNoKeyUpdate();
      const live = new Set(
        (await walkers.execute())
          .filter((walker) => !walker.subject.startsWith(ERASED_SUBJECT_PREFIX))
          .map((walker) => walker.id),
      );
      const toInsert = rowsOfEvents.filter((row) => live.has(row.user_id));
      const inserted = new Set(
        toInsert.length === 0
          ? []
          : (
              await trx
                .insertInto("notifications")
                .values(toInsert)
                .onConflict((conflict) => conflict.columns(["user_id", "kind", "event_key"]).doNothing())
                .returning("id")
                .execute()
            ).map((row) => row.id),
      );
      const pushedToday = await PushesCounted.read(
        trx,
        capped.filter(({ row }) => inserted.has(row.id)),
      );
      const pushes: PushOutboxRow[] = [];
      for (const { row, deliveries } of entries) {
        if (!inserted.has(row.id) || deliveries.pushTo.length === 0) continue;
        const { cap } = deliveries;
        if (cap && pushedToday.count(row.user_id, cap) >= cap.limit) continue;
        row.pushed = 1;
        pushedToday.add(row);
        for (const subscriptionId of deliveries.pushTo) {
          pushes.push({
            id: randomUUID(),
            notification_id: row.id,
            subscription_id: subscriptionId,
            user_id: row.user_id,
            status: "pending",
            attempts: 0,
            next_attempt_at: deliveries.dueAt,
            claimed_until: null,
            last_error: null,
            created_at: now,
            sent_at: null,
          });
        }
      }
      if (pushes.length > 0) {
        const pushed = entries.filter(({ row }) => row.pushed === 1).map(({ row }) => row.id);
        await trx.updateTable("notifications").set({ pushed: 1 }).where("id", "in", pushed).execute();
        await trx.insertInto("push_outbox").values(pushes).execute();
      }
      for (const { row, deliveries } of entries) {
        if (inserted.has(row.id) && deliveries.mail) await this.mailOutbox.enqueue(deliveries.mail, now, trx);
      }
      return entries.map(({ row }) => (inserted.has(row.id) ? row : undefined));
    });
  }

  /** Newest first, `limit` at a time. */
  async page(userId: string, limit: number, before?: string): Promise<NotificationPage | undefined> {
    let query = this.db
      .selectFrom("notifications")
      .selectAll()
      .where("user_id", "=", userId)
      .orderBy("created_at", "desc")
      .orderBy("id", "desc")
      .limit(limit + 1);
    if (before !== undefined) {
      const cursor = parseCursor(before);
      if (!cursor) return undefined;
      query = query.where((eb) =>
        eb.or([
          eb("created_at", "<", cursor.createdAt),
          eb.and([eb("created_at", "=", cursor.createdAt), eb("id", "<", cursor.id)]),
        ]),
      );
    }
    const rows = (await query.execute()).map(numbers);
    const items = rows.slice(0, limit);
    const last = items.at(-1);
    return { items, next: rows.length > limit && last ? `${last.created_at}.${last.id}` : null };
  }

  /** Every notification of the walker's, oldest first: for their data export. */
  async everyOne(userId: string): Promise<NotificationRow[]> {
    const rows = await this.db
      .selectFrom("notifications")
      .selectAll()
      .where("user_id", "=", userId)
      .orderBy("created_at")
      .orderBy("id")
      .execute();
    return rows.map(numbers);
  }

  async unreadCount(userId: string): Promise<number> {
    const row = await this.db
      .selectFrom("notifications")
      .select((eb) => eb.fn.countAll<number>().as("count"))
      .where("user_id", "=", userId)
      .where("read_at", "is", null)
      .executeTakeFirstOrThrow();
    return Number(row.count);
  }

  /** Marks the walker's notifications among `ids` read, or all of them when `ids` is null. */
  async markRead(userId: string, ids: readonly string[] | null, now = Date.now()): Promise<void> {
    if (ids !== null && ids.length === 0) return;
    let query = this.db
      .updateTable("notifications")
      .set({ read_at: now })
      .where("user_id", "=", userId)
      .where("read_at", "is", null);
    if (ids !== null) query = query.where("id", "in", ids);
    await query.execute();
  }

  async find(id: string): Promise<NotificationRow | undefined> {
    const row = await this.db.selectFrom("notifications").selectAll().where("id", "=", id).executeTakeFirst();
    return row ? numbers(row) : undefined;
  }

  async settings(userId: string): Promise<NotificationSettingsRow | undefined> {
    return (await this.settingsOf([userId])).get(userId);
  }

  /** The settings of each walker of `userIds` who has saved some, in one query. */
  async settingsOf(userIds: readonly string[]): Promise<Map<string, NotificationSettingsRow>> {
    if (userIds.length === 0) return new Map();
    const rows = await this.db
      .selectFrom("notification_settings")
      .selectAll()
      .where("user_id", "in", userIds)
      .execute();
    return new Map(rows.map((row) => [row.user_id, row]));
  }

  async saveSettings(row: NotificationSettingsRow): Promise<void> {
    const { user_id: _userId, ...changes } = row;
    await this.db
      .insertInto("notification_settings")
      .values(row)
      .onConflict((conflict) => conflict.column("user_id").doUpdateSet(changes))
      .execute();
  }

  async subscriptions(userId: string): Promise<PushSubscriptionRow[]> {
    return (await this.subscriptionsOf([userId])).get(userId) ?? [];
  }

  /** Each walker's subscriptions, oldest first (none: absent), in one query. */
  async subscriptionsOf(userIds: readonly string[]): Promise<Map<string, PushSubscriptionRow[]>> {
    if (userIds.length === 0) return new Map();
    const rows = await this.db
      .selectFrom("push_subscriptions")
      .selectAll()
      .where("user_id", "in", userIds)
      .orderBy("user_id")
      .orderBy("created_at")
      .orderBy("id")
      .execute();
    return groupBy(rows, (row) => row.user_id, subscriptionNumbers);
  }

  async subscriptionByEndpoint(endpoint: string): Promise<PushSubscriptionRow | undefined> {
    const row = await this.db
      .selectFrom("push_subscriptions")
      .selectAll()
      .where("endpoint", "=", endpoint)
      .executeTakeFirst();
    return row ? subscriptionNumbers(row) : undefined;
  }

  async subscription(id: string): Promise<PushSubscriptionRow | undefined> {
    const row = await this.db
      .selectFrom("push_subscriptions")
      .selectAll()
      .where("id", "=", id)
      .executeTakeFirst();
    return row ? subscriptionNumbers(row) : undefined;
  }

  /**
   * Stores a browser's subscription for the walker. A browser that subscribed for someone else
   * before (another account signed in on it) is theirs no longer: an endpoint reaches one browser,
   * and it belongs to whoever subscribed last.
   */
  async addSubscription(
    row: Omit<PushSubscriptionRow, "id" | "last_success_at">,
  ): Promise<PushSubscriptionRow> {
    const stored: PushSubscriptionRow = { ...row, id: randomUUID(), last_success_at: null };
    await this.database.transaction(async (trx) => {
      await trx.deleteFrom("push_subscriptions").where("endpoint", "=", row.endpoint).execute();
      await trx.insertInto("push_subscriptions").values(stored).execute();
    });
    return stored;
  }

  /** Removes one of the walker's subscriptions; false when they have no such one. */
  async deleteSubscription(userId: string, id: string): Promise<boolean> {
    const result = await this.db
      .deleteFrom("push_subscriptions")
      .where("id", "=", id)
      .where("user_id", "=", userId)
      .executeTakeFirst();
    return Number(result.numDeletedRows) > 0;
  }

  /** A push service said the subscription is gone (404 or 410): its pushes go with it. */
  async removeSubscription(id: string): Promise<void> {
    await this.db.deleteFrom("push_subscriptions").where("id", "=", id).execute();
  }

  async markSubscriptionSucceeded(id: string, now = Date.now()): Promise<void> {
    await this.db
      .updateTable("push_subscriptions")
      .set({ last_success_at: now })
      .where("id", "=", id)
      .execute();
  }

  /** Claims the oldest due push nobody holds (see LeasedRows). */
  claimNextPush(leaseMs: number, now = Date.now()): Promise<PushOutboxRow | undefined> {
    return this.pushes.claimNext(leaseMs, now);
  }

  /** Delivered; false when the lease was lost meanwhile. */
  markPushSent(claim: PushOutboxRow, now = Date.now()): Promise<boolean> {
    return this.pushes.markSent(claim, now);
  }

  /** Not delivered this time: due again at `retryAt`, or given up on (kept as failed) when null. */
  markPushFailed(claim: PushOutboxRow, error: string, retryAt: number | null): Promise<boolean> {
    return this.pushes.markAttemptFailed(claim, error, retryAt);
  }

  async push(id: string): Promise<PushOutboxRow | undefined> {
    const row = await this.db.selectFrom("push_outbox").selectAll().where("id", "=", id).executeTakeFirst();
    return row ? leasedRowNumbers(row) : undefined;
  }

  /** The earliest time a pending push falls due, or null when none is pending. */
  nextPushDueAt(): Promise<number | null> {
    return this.pushes.nextDueAt();
  }

  /** Housekeeping: pushes sent or given up on before `before` are forgotten. */
  async deletePushesBefore(before: number): Promise<number> {
    const result = await this.db
      .deleteFrom("push_outbox")
      .where("status", "in", ["sent", "failed"])
      .where("created_at", "<", before)
      .executeTakeFirst();
    return Number(result.numDeletedRows);
  }

  /**
   * Walkers whose streak may need today's goal and whose reminder time (`HH:MM`, London) has come:
   * yesterday's steps could have reached a goal, and nobody has looked at their day yet.
   */
  async streakReminderCandidates(
    today: DayString,
    clock: string,
    defaultReminderTime: string,
    limit: number,
  ): Promise<string[]> {
    const rows = await this.db
      .selectFrom("step_days as d")
      .leftJoin("notification_settings as s", "s.user_id", "d.user_id")
      .select("d.user_id")
      .where("d.day", "=", addDays(today, -1))
      .where("d.total_steps", ">=", DAILY_GOAL_MIN)
      .where((eb) => eb(eb.fn.coalesce("s.reminder_time", eb.val(defaultReminderTime)), "<=", clock))
      .where((eb) =>
        eb.not(
          eb.exists(
            eb
              .selectFrom("streak_reminder_checks as c")
              .select("c.user_id")
              .whereRef("c.user_id", "=", "d.user_id")
              .where("c.day", "=", today),
          ),
        ),
      )
      .orderBy("d.user_id")
      .limit(limit)
      .execute();
    return rows.map((row) => row.user_id);
  }

  /**
   * Takes the look at each walker's day for this process, in one statement: answers the walkers
   * taken, without those another process has taken.
   */
  async claimStreakChecks(userIds: readonly string[], today: DayString, now = Date.now()): Promise<string[]> {
    if (userIds.length === 0) return [];
    const rows = await this.db
      .insertInto("streak_reminder_checks")
      .values([...userIds].sort().map((userId) => ({ user_id: userId, day: today, checked_at: now })))
      .onConflict((conflict) => conflict.columns(["user_id", "day"]).doNothing())
      .returning("user_id")
      .execute();
    const taken = new Set(rows.map((row) => row.user_id));
    return userIds.filter((userId) => taken.has(userId));
  }

  /** Housekeeping: looks at days before `before` are forgotten. */
  async deleteStreakChecksBefore(before: DayString): Promise<void> {
    await this.db.deleteFrom("streak_reminder_checks").where("day", "<", before).execute();
  }

  /**
   * Everything about the walker's notifications, for account erasure: pass the erasure's transaction
   * as `db`.
   */
  async deleteForUser(userId: string, db: Kysely<DatabaseSchema> = this.db): Promise<void> {
    await db.deleteFrom("push_outbox").where("user_id", "=", userId).execute();
    await db.deleteFrom("push_subscriptions").where("user_id", "=", userId).execute();
    await db.deleteFrom("notifications").where("user_id", "=", userId).execute();
    await db.deleteFrom("notification_settings").where("user_id", "=", userId).execute();
    await db.deleteFrom("streak_reminder_checks").where("user_id", "=", userId).execute();
  }
}

function parseCursor(cursor: string): { createdAt: number; id: string } | undefined {
  const match = /^(\d{1,16})\.([0-9a-f-]{36})$/.exec(cursor);
  return match ? { createdAt: Number(match[1]), id: match[2] as string } : undefined;
}

/** PostgreSQL's BIGINT arrives as a number already (see database.ts); SQLite's may be a bigint. */
function numbers(row: NotificationRow): NotificationRow {
  return {
    ...row,
    created_at: Number(row.created_at),
    read_at: row.read_at == null ? null : Number(row.read_at),
    pushed: Number(row.pushed),
  };
}

function subscriptionNumbers(row: PushSubscriptionRow): PushSubscriptionRow {
  return {
    ...row,
    expiration_time: row.expiration_time == null ? null : Number(row.expiration_time),
    created_at: Number(row.created_at),
    last_success_at: row.last_success_at == null ? null : Number(row.last_success_at),
  };
}

/** A walker's daily cap on pushes: their pushes of the kinds it counts since `since`. */
type PushCap = NonNullable<NotificationDeliveries["cap"]>;

/**
 * Each walker's pushes of capped kinds since the start of their cap's day, read once for a call of
 * `recordAll` (one query for each different cap, which is one in practice), then counted on as the
 * call queues more.
 */
class PushesCounted {
  private constructor(
    private readonly counts: Map<string, { cap: PushCap; byWalker: Map<string, number> }>,
  ) {}

  static async read(
    db: Kysely<DatabaseSchema>,
    entries: readonly { row: NotificationRow; deliveries: NotificationDeliveries }[],
  ): Promise<PushesCounted> {
    const walkersOf = new Map<string, { cap: PushCap; walkers: Set<string> }>();
    for (const { row, deliveries } of entries) {
      if (!deliveries.cap) continue;
      const key = capKey(deliveries.cap);
      const group = walkersOf.get(key) ?? { cap: deliveries.cap, walkers: new Set<string>() };
      group.walkers.add(row.user_id);
      walkersOf.set(key, group);
    }
    const counts = new Map<string, { cap: PushCap; byWalker: Map<string, number> }>();
    for (const [key, { cap, walkers }] of walkersOf) {
      let query = db
        .selectFrom("notifications")
        .select((eb) => ["user_id", eb.fn.countAll<number>().as("count")])
        .where("user_id", "in", [...walkers])
        .where("pushed", "=", 1)
        .where("created_at", ">=", cap.since)
        .groupBy("user_id");
      if (cap.uncapped.length > 0) query = query.where("kind", "not in", cap.uncapped);
      const rows = await query.execute();
      counts.set(key, { cap, byWalker: new Map(rows.map((row) => [row.user_id, Number(row.count)])) });
    }
    return new PushesCounted(counts);
  }

  count(userId: string, cap: PushCap): number {
    return this.counts.get(capKey(cap))?.byWalker.get(userId) ?? 0;
  }

  /** A notification just queued pushes: it counts under every cap that does not leave its kind out. */
  add(row: NotificationRow): void {
    for (const { cap, byWalker } of this.counts.values()) {
      if (!cap.uncapped.includes(row.kind)) byWalker.set(row.user_id, (byWalker.get(row.user_id) ?? 0) + 1);
    }
  }
}

function capKey(cap: PushCap): string {
  return `${cap.since} ${cap.limit} ${[...cap.uncapped].sort().join(",")}`;
}
