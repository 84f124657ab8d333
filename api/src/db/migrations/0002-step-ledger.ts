import { type Kysely, PostgresAdapter, sql } from "kysely";

export async function up(db: Kysely<unknown>): Promise<void> {
  const bytes = db.getExecutor().adapter instanceof PostgresAdapter ? sql`bytea` : sql`blob`;

  await db.schema
    .createTable("step_counters")
    .addColumn("user_id", "text", (col) => col.notNull().references("users.id").onDelete("cascade"))
    .addColumn("day", "text", (col) => col.notNull())
    .addColumn("counter_id", "text", (col) => col.notNull())
    .addColumn("kind", "text", (col) => col.notNull().check(sql`kind in ('motion', 'health')`))
    .addColumn("source", "text", (col) => col.notNull())
    .addColumn("steps", "integer", (col) => col.notNull().check(sql`steps >= 0`))
    .addColumn("updated_at", "bigint", (col) => col.notNull())
    .addPrimaryKeyConstraint("step_counters_pk", ["user_id", "day", "counter_id"])
    .execute();

  // The primary key (user_id, day) serves a walker's day, range of days and month; the month index
  // serves leaderboards: one month for a set of walkers.
  await db.schema
    .createTable("step_days")
    .addColumn("user_id", "text", (col) => col.notNull().references("users.id").onDelete("cascade"))
    .addColumn("day", "text", (col) => col.notNull())
    .addColumn("month", "text", (col) => col.notNull())
    .addColumn("motion_steps", "integer", (col) => col.notNull())
    .addColumn("health_steps", "integer", (col) => col.notNull())
    .addColumn("manual_steps", "integer", (col) => col.notNull())
    .addColumn("total_steps", "integer", (col) =>
      col.notNull().check(sql`total_steps >= 0 and total_steps <= 50000`),
    )
    .addColumn("updated_at", "bigint", (col) => col.notNull())
    .addPrimaryKeyConstraint("step_days_pk", ["user_id", "day"])
    .execute();
  await db.schema
    .createIndex("step_days_month_user_idx")
    .on("step_days")
    .columns(["month", "user_id", "total_steps"])
    .execute();

  await db.schema
    .createTable("step_photos")
    .addColumn("id", "text", (col) => col.primaryKey())
    .addColumn("user_id", "text", (col) => col.notNull().references("users.id").onDelete("cascade"))
    .addColumn("content_type", "text", (col) => col.notNull())
    .addColumn("width", "integer", (col) => col.notNull())
    .addColumn("height", "integer", (col) => col.notNull())
    .addColumn("byte_size", "integer", (col) => col.notNull())
    .addColumn("data", bytes, (col) => col.notNull())
    .addColumn("created_at", "bigint", (col) => col.notNull())
    .execute();

  await db.schema
    .createTable("manual_step_entries")
    .addColumn("id", "text", (col) => col.primaryKey())
    .addColumn("user_id", "text", (col) => col.notNull().references("users.id").onDelete("cascade"))
    .addColumn("day", "text", (col) => col.notNull())
    .addColumn("steps", "integer", (col) => col.notNull().check(sql`steps >= 1 and steps <= 50000`))
    .addColumn("note", "text", (col) => col.notNull())
    .addColumn("idempotency_key", "text", (col) => col.notNull())
    .addColumn("photo_id", "text", (col) => col.notNull().references("step_photos.id"))
    .addColumn("created_at", "bigint", (col) => col.notNull())
    .addUniqueConstraint("manual_step_entries_key_unique", ["user_id", "idempotency_key"])
    .execute();
  await db.schema
    .createIndex("manual_step_entries_user_day_idx")
    .on("manual_step_entries")
    .columns(["user_id", "day"])
    .execute();

  await db.schema
    .createTable("idempotency_records")
    .addColumn("user_id", "text", (col) => col.notNull().references("users.id").onDelete("cascade"))
    .addColumn("key", "text", (col) => col.notNull())
    .addColumn("request_hash", "text", (col) => col.notNull())
    .addColumn("status_code", "integer", (col) => col.notNull())
    .addColumn("response_body", "text", (col) => col.notNull())
    .addColumn("created_at", "bigint", (col) => col.notNull())
    .addColumn("expires_at", "bigint", (col) => col.notNull())
    .addPrimaryKeyConstraint("idempotency_records_pk", ["user_id", "key"])
    .execute();
  await db.schema
    .createIndex("idempotency_records_expires_at_idx")
    .on("idempotency_records")
    .column("expires_at")
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  for (const table of [
    "idempotency_records",
    "manual_step_entries",
    "step_photos",
    "step_days",
    "step_counters",
  ]) {
    await db.schema.dropTable(table).execute();
  }
}
