import type { Kysely } from "kysely";

/**
 * The week's summary by email. `users.weekly_email_off_at` is when the walker stopped it (one click
 * in a mail, or the Account page); null while it is on. `weekly_summary_mails` records each week's
 * mail to each walker, so that however many processes look on Monday, one mail goes. A queued mail
 * may carry the address its one-click unsubscribe posts to (RFC 8058).
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable("users").addColumn("weekly_email_off_at", "bigint").execute();
  await db.schema
    .createTable("weekly_summary_mails")
    .addColumn("user_id", "text", (col) => col.notNull().references("users.id").onDelete("cascade"))
    .addColumn("week_start", "text", (col) => col.notNull())
    .addColumn("queued_at", "bigint", (col) => col.notNull())
    .addPrimaryKeyConstraint("weekly_summary_mails_pk", ["user_id", "week_start"])
    .execute();
  await db.schema.alterTable("mail_outbox").addColumn("unsubscribe_url", "text").execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable("mail_outbox").dropColumn("unsubscribe_url").execute();
  await db.schema.dropTable("weekly_summary_mails").execute();
  await db.schema.alterTable("users").dropColumn("weekly_email_off_at").execute();
}
