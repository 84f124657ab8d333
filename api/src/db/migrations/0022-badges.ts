import type { Kysely } from "kysely";

/**
 * The badges each walker has earned, kept once awarded: a day's steps removed later, a streak
 * broken or a group left take nothing back. The key makes each badge a walker's once.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable("user_badges")
    .addColumn("user_id", "text", (col) => col.notNull().references("users.id").onDelete("cascade"))
    .addColumn("badge_id", "text", (col) => col.notNull())
    .addColumn("earned_at", "bigint", (col) => col.notNull())
    .addPrimaryKeyConstraint("user_badges_pk", ["user_id", "badge_id"])
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable("user_badges").execute();
}
