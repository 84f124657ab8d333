import { type Kysely, sql } from "kysely";

/**
 * Notifications. `notifications` holds everything the app told each walker (the bell's list), once
 * per walker, kind and event. `notification_settings` holds the choices a walker made (the rest are
 * defaults). `push_subscriptions` holds the browsers a walker turned push on in, and `push_outbox`
 * each push waiting to go to one of them, claimed under a lease as `mail_outbox`'s messages are.
 * `sign_in_devices` holds the browsers each walker signed in from (a hash of a long-lived cookie),
 * so that a sign-in from any other can be told. `streak_reminder_checks` records each walker's
 * day whose streak was looked at, at their reminder time, so that one process looks once. `draws.results_told_at` is when a drawn month's
 * ticket holders were told its results are out.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable("notifications")
    .addColumn("id", "text", (col) => col.primaryKey())
    .addColumn("user_id", "text", (col) => col.notNull().references("users.id").onDelete("cascade"))
    .addColumn("kind", "text", (col) => col.notNull())
    .addColumn("event_key", "text", (col) => col.notNull())
    .addColumn("title", "text", (col) => col.notNull())
    .addColumn("body", "text", (col) => col.notNull())
    .addColumn("url", "text", (col) => col.notNull())
    .addColumn("created_at", "bigint", (col) => col.notNull())
    .addColumn("read_at", "bigint")
    .addColumn("pushed", "integer", (col) => col.notNull().defaultTo(0))
    .addUniqueConstraint("notifications_event_unique", ["user_id", "kind", "event_key"])
    .execute();
  await db.schema
    .createIndex("notifications_by_user_time")
    .on("notifications")
    .columns(["user_id", "created_at", "id"])
    .execute();
  await db.schema
    .createTable("notification_settings")
    .addColumn("user_id", "text", (col) => col.primaryKey().references("users.id").onDelete("cascade"))
    .addColumn("kinds", "text", (col) => col.notNull().defaultTo(sql`'{}'`))
    .addColumn("reminder_time", "text", (col) => col.notNull())
    .addColumn("quiet_start", "text", (col) => col.notNull())
    .addColumn("quiet_end", "text", (col) => col.notNull())
    .addColumn("updated_at", "bigint", (col) => col.notNull())
    .execute();
  await db.schema
    .createTable("push_subscriptions")
    .addColumn("id", "text", (col) => col.primaryKey())
    .addColumn("user_id", "text", (col) => col.notNull().references("users.id").onDelete("cascade"))
    .addColumn("endpoint", "text", (col) => col.notNull().unique())
    .addColumn("p256dh", "text", (col) => col.notNull())
    .addColumn("auth", "text", (col) => col.notNull())
    .addColumn("expiration_time", "bigint")
    .addColumn("created_at", "bigint", (col) => col.notNull())
    .addColumn("last_success_at", "bigint")
    .execute();
  await db.schema
    .createIndex("push_subscriptions_by_user")
    .on("push_subscriptions")
    .column("user_id")
    .execute();
  await db.schema
    .createTable("push_outbox")
    .addColumn("id", "text", (col) => col.primaryKey())
    .addColumn("notification_id", "text", (col) =>
      col.notNull().references("notifications.id").onDelete("cascade"),
    )
    .addColumn("subscription_id", "text", (col) =>
      col.notNull().references("push_subscriptions.id").onDelete("cascade"),
    )
    .addColumn("user_id", "text", (col) => col.notNull().references("users.id").onDelete("cascade"))
    .addColumn("status", "text", (col) => col.notNull())
    .addColumn("attempts", "integer", (col) => col.notNull().defaultTo(0))
    .addColumn("next_attempt_at", "bigint", (col) => col.notNull())
    .addColumn("claimed_until", "bigint")
    .addColumn("last_error", "text")
    .addColumn("created_at", "bigint", (col) => col.notNull())
    .addColumn("sent_at", "bigint")
    .execute();
  await db.schema
    .createTable("sign_in_devices")
    .addColumn("user_id", "text", (col) => col.notNull().references("users.id").onDelete("cascade"))
    .addColumn("device_hash", "text", (col) => col.notNull())
    .addColumn("first_seen_at", "bigint", (col) => col.notNull())
    .addPrimaryKeyConstraint("sign_in_devices_pk", ["user_id", "device_hash"])
    .execute();
  await db.schema
    .createTable("streak_reminder_checks")
    .addColumn("user_id", "text", (col) => col.notNull().references("users.id").onDelete("cascade"))
    .addColumn("day", "text", (col) => col.notNull())
    .addColumn("checked_at", "bigint", (col) => col.notNull())
    .addPrimaryKeyConstraint("streak_reminder_checks_pk", ["user_id", "day"])
    .execute();
  // When the month's ticket holders were told its results are out. Months drawn before are marked
  // told already: their news is old.
  await db.schema.alterTable("draws").addColumn("results_told_at", "bigint").execute();
  await db
    .updateTable("draws" as never)
    .set({ results_told_at: sql`drawn_at` } as never)
    .where(sql`status`, "=", "drawn")
    .execute();
  await db.schema
    .createIndex("push_outbox_due")
    .on("push_outbox")
    .columns(["status", "next_attempt_at"])
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable("draws").dropColumn("results_told_at").execute();
  await db.schema.dropTable("streak_reminder_checks").execute();
  await db.schema.dropTable("sign_in_devices").execute();
  await db.schema.dropTable("push_outbox").execute();
  await db.schema.dropTable("push_subscriptions").execute();
  await db.schema.dropTable("notification_settings").execute();
  await db.schema.dropTable("notifications").execute();
}
