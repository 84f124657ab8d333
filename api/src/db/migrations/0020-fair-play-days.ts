import { type Kysely, sql } from "kysely";

/**
 * Fair play's day rules: when each counter and each day was first seen (a day first seen long after
 * it ended is late; a day's devices count in the order they appeared), and what operators decided
 * of the steps those rules hold (`day_reviews`, one row per walker and day, its approved and
 * turned-down steps adding up over decisions). Rows kept before this have no first-seen time and
 * are taken as on time.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable("step_counters").addColumn("created_at", "bigint").execute();
  await db.schema.alterTable("step_days").addColumn("first_reading_at", "bigint").execute();
  await db.schema
    .createTable("day_reviews")
    .addColumn("user_id", "text", (col) => col.notNull().references("users.id").onDelete("cascade"))
    .addColumn("day", "text", (col) => col.notNull())
    .addColumn("approved_steps", "integer", (col) =>
      col.notNull().defaultTo(0).check(sql`approved_steps >= 0`),
    )
    .addColumn("rejected_steps", "integer", (col) =>
      col.notNull().defaultTo(0).check(sql`rejected_steps >= 0`),
    )
    .addColumn("decision_reason", "text")
    .addColumn("decided_at", "bigint", (col) => col.notNull())
    .addColumn("decided_by", "text")
    .addPrimaryKeyConstraint("day_reviews_pk", ["user_id", "day"])
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable("day_reviews").execute();
  await db.schema.alterTable("step_days").dropColumn("first_reading_at").execute();
  await db.schema.alterTable("step_counters").dropColumn("created_at").execute();
}
