import { type Kysely, sql } from "kysely";

/**
 * Fair play: where each manual entry stands (approved at once, waiting for a check, or turned down)
 * and why; each proof photo's perceptual hash, to recognise the same picture sent again; and the
 * steps of a counter that rose faster than anyone walks, held back from prizes until an operator
 * looks (`pace_reviews`). Counted totals are unchanged: every step still shows.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .alterTable("manual_step_entries")
    .addColumn("status", "text", (col) =>
      col.notNull().defaultTo("approved").check(sql`status in ('approved', 'pending', 'rejected')`),
    )
    .execute();
  // Each statement adds one column: SQLite's ALTER TABLE takes one change at a time.
  await db.schema
    .alterTable("manual_step_entries")
    .addColumn("reasons", "text", (col) => col.notNull().defaultTo("[]"))
    .execute();
  await db.schema.alterTable("manual_step_entries").addColumn("decision_reason", "text").execute();
  await db.schema.alterTable("manual_step_entries").addColumn("decided_at", "bigint").execute();
  await db.schema.alterTable("manual_step_entries").addColumn("decided_by", "text").execute();
  // The few entries not approved: the review queue and each walker's eligible steps read only these.
  await db.schema
    .createIndex("manual_step_entries_unapproved_idx")
    .on("manual_step_entries")
    .columns(["user_id", "day"])
    .where(sql.ref("status"), "<>", "approved")
    .execute();

  // Null for photos stored before hashes were kept.
  await db.schema.alterTable("step_photos").addColumn("perceptual_hash", "text").execute();

  // A counter's steps above the pace: waiting for a check, or turned down. Both count, neither wins prizes.
  await db.schema
    .alterTable("step_counters")
    .addColumn("pending_steps", "integer", (col) => col.notNull().defaultTo(0))
    .execute();
  await db.schema
    .alterTable("step_counters")
    .addColumn("rejected_steps", "integer", (col) => col.notNull().defaultTo(0))
    .execute();
  await db.schema
    .createIndex("step_counters_withheld_idx")
    .on("step_counters")
    .columns(["user_id", "day"])
    .where(sql<boolean>`pending_steps > 0 or rejected_steps > 0`)
    .execute();

  await db.schema
    .createTable("pace_reviews")
    .addColumn("id", "text", (col) => col.primaryKey())
    .addColumn("user_id", "text", (col) => col.notNull().references("users.id").onDelete("cascade"))
    .addColumn("day", "text", (col) => col.notNull())
    .addColumn("counter_id", "text", (col) => col.notNull())
    /** The steps above the pace this review holds back. */
    .addColumn("steps", "integer", (col) => col.notNull().check(sql`steps > 0`))
    .addColumn("status", "text", (col) =>
      col.notNull().defaultTo("pending").check(sql`status in ('approved', 'pending', 'rejected')`),
    )
    .addColumn("created_at", "bigint", (col) => col.notNull())
    .addColumn("decision_reason", "text")
    .addColumn("decided_at", "bigint")
    .addColumn("decided_by", "text")
    .execute();
  // One review waits per counter and day: a later burst adds to it.
  await db.schema
    .createIndex("pace_reviews_pending_unique")
    .on("pace_reviews")
    .columns(["user_id", "day", "counter_id"])
    .unique()
    .where(sql.ref("status"), "=", "pending")
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable("pace_reviews").execute();
  await db.schema.dropIndex("step_counters_withheld_idx").execute();
  await db.schema.alterTable("step_counters").dropColumn("rejected_steps").execute();
  await db.schema.alterTable("step_counters").dropColumn("pending_steps").execute();
  await db.schema.alterTable("step_photos").dropColumn("perceptual_hash").execute();
  await db.schema.dropIndex("manual_step_entries_unapproved_idx").execute();
  for (const column of ["decided_by", "decided_at", "decision_reason", "reasons", "status"]) {
    await db.schema.alterTable("manual_step_entries").dropColumn(column).execute();
  }
}
