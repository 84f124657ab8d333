import type { Kysely } from "kysely";

/**
 * New accounts per network address, in a window: kept in the database, like the sign-in
 * throttle's counts, so that every API process counts the same sign-ups. Its window is longer than
 * the sign-in throttle's, so it has a table of its own (each table's housekeeping drops the rows
 * whose window has ended).
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable("sign_up_attempts")
    .addColumn("key", "text", (col) => col.primaryKey())
    .addColumn("attempts", "integer", (col) => col.notNull())
    .addColumn("window_started_at", "bigint", (col) => col.notNull())
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable("sign_up_attempts").execute();
}
