import { type Kysely, PostgresAdapter, sql } from "kysely";

/**
 * The week's summary becomes a notification like the others: the notification's row per walker and
 * week (unique per walker, kind and event) is what makes one summary go, and its mail is stored
 * with it. Each week already mailed is carried over as a read notification, so that a process
 * starting mid-week tells nobody a second time, and `weekly_summary_mails` goes.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  const uuid =
    db.getExecutor().adapter instanceof PostgresAdapter
      ? sql`gen_random_uuid()::text`
      : sql`lower(hex(randomblob(4)) || '-' || hex(randomblob(2)) || '-4' || substr(hex(randomblob(2)), 2)
          || '-' || substr('89ab', 1 + (abs(random()) % 4), 1) || substr(hex(randomblob(2)), 2)
          || '-' || hex(randomblob(6)))`;
  await sql`
    insert into notifications (id, user_id, kind, event_key, title, body, url, created_at, read_at, pushed)
    select ${uuid}, user_id, 'weekly_summary', week_start, 'Your week''s summary',
      'Sent to you by email.', '/dashboard', queued_at, queued_at, 0
    from weekly_summary_mails
    where true
    on conflict (user_id, kind, event_key) do nothing`.execute(db);
  await db.schema.dropTable("weekly_summary_mails").execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable("weekly_summary_mails")
    .addColumn("user_id", "text", (col) => col.notNull().references("users.id").onDelete("cascade"))
    .addColumn("week_start", "text", (col) => col.notNull())
    .addColumn("queued_at", "bigint", (col) => col.notNull())
    .addPrimaryKeyConstraint("weekly_summary_mails_pk", ["user_id", "week_start"])
    .execute();
  await sql`
    insert into weekly_summary_mails (user_id, week_start, queued_at)
    select user_id, event_key, created_at from notifications where kind = 'weekly_summary'`.execute(db);
}
