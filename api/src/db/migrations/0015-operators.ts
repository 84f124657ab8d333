import { type Kysely, PostgresAdapter, sql } from "kysely";

/**
 * What operators do, and the record of it. The audit log is append-only in the database itself,
 * not only in the code: an operator with a database console cannot quietly rewrite what they did.
 * Its operator is a plain id, not a foreign key, since erasing an account must not need to change
 * (or delete) the log's rows.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  const postgres = db.getExecutor().adapter instanceof PostgresAdapter;

  await db.schema
    .createTable("audit_log")
    .addColumn("id", "integer", (col) =>
      postgres ? col.primaryKey().generatedAlwaysAsIdentity() : col.primaryKey().autoIncrement(),
    )
    .addColumn("at", "bigint", (col) => col.notNull())
    .addColumn("operator_user_id", "text")
    .addColumn("action", "text", (col) => col.notNull())
    .addColumn("subject", "text", (col) => col.notNull())
    .addColumn("before_json", "text")
    .addColumn("after_json", "text")
    .execute();

  if (postgres) {
    await sql`
      create function audit_log_append_only() returns trigger language plpgsql as $$
      begin
        raise exception 'audit_log is append-only';
      end
      $$`.execute(db);
    await sql`
      create trigger audit_log_append_only before update or delete on audit_log
      for each row execute function audit_log_append_only()`.execute(db);
    await sql`
      create trigger audit_log_no_truncate before truncate on audit_log
      for each statement execute function audit_log_append_only()`.execute(db);
  } else {
    await sql`
      create trigger audit_log_no_update before update on audit_log
      begin select raise(abort, 'audit_log is append-only'); end`.execute(db);
    await sql`
      create trigger audit_log_no_delete before delete on audit_log
      begin select raise(abort, 'audit_log is append-only'); end`.execute(db);
  }

  await db.schema
    .createTable("postal_entries")
    .addColumn("id", "text", (col) => col.primaryKey())
    .addColumn("month", "text", (col) => col.notNull())
    .addColumn("full_name", "text", (col) => col.notNull())
    /** The name lower-cased with its spaces and punctuation folded: what duplicates are matched on. */
    .addColumn("name_key", "text", (col) => col.notNull())
    .addColumn("address", "text", (col) => col.notNull())
    .addColumn("email", "text")
    .addColumn("email_key", "text")
    .addColumn("received_on", "text", (col) => col.notNull())
    .addColumn("recorded_by", "text", (col) => col.references("users.id").onDelete("set null"))
    .addColumn("duplicate_of", "text")
    .addColumn("created_at", "bigint", (col) => col.notNull())
    .execute();
  await db.schema
    .createIndex("postal_entries_month_idx")
    .on("postal_entries")
    .columns(["month", "received_on"])
    .execute();
  await db.schema
    .createIndex("postal_entries_recorded_by_idx")
    .on("postal_entries")
    .columns(["recorded_by", "created_at"])
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable("postal_entries").execute();
  await db.schema.dropTable("audit_log").execute();
  if (db.getExecutor().adapter instanceof PostgresAdapter) {
    await sql`drop function audit_log_append_only()`.execute(db);
  }
}
