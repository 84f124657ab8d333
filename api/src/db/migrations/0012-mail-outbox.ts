import { type Kysely, sql } from "kysely";

/**
 * Outgoing mail, queued in the database: every API process's worker takes due messages from it
 * under a lease, so each message is sent by one of them, and a message waiting for a retry
 * survives a restart. A walker's messages go with their account.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable("mail_outbox")
    .addColumn("id", "text", (col) => col.primaryKey())
    .addColumn("to", "text", (col) => col.notNull())
    .addColumn("subject", "text", (col) => col.notNull())
    .addColumn("text", "text", (col) => col.notNull())
    .addColumn("html", "text")
    .addColumn("user_id", "text", (col) => col.references("users.id").onDelete("cascade"))
    .addColumn("status", "text", (col) => col.notNull().check(sql`status in ('pending', 'sent', 'failed')`))
    .addColumn("attempts", "integer", (col) => col.notNull().defaultTo(0))
    .addColumn("next_attempt_at", "bigint", (col) => col.notNull())
    .addColumn("claimed_until", "bigint")
    .addColumn("last_error", "text")
    .addColumn("created_at", "bigint", (col) => col.notNull())
    .addColumn("sent_at", "bigint")
    .execute();
  // The worker's question: which pending messages are due?
  await db.schema
    .createIndex("mail_outbox_due_idx")
    .on("mail_outbox")
    .columns(["status", "next_attempt_at"])
    .execute();
  await db.schema.createIndex("mail_outbox_user_idx").on("mail_outbox").column("user_id").execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable("mail_outbox").execute();
}
