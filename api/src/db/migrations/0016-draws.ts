import type { Kysely } from "kysely";

/**
 * One row per month's prize draw. The seed is the secret the winners are later drawn from; its
 * SHA-256 (the commitment) is published while the month is open, so the seed cannot be changed
 * once anyone has seen the commitment.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable("draws")
    .addColumn("month", "text", (col) => col.primaryKey())
    .addColumn("seed", "text", (col) => col.notNull())
    .addColumn("commitment", "text", (col) => col.notNull())
    .addColumn("status", "text", (col) => col.notNull().defaultTo("open"))
    .addColumn("created_at", "bigint", (col) => col.notNull())
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable("draws").execute();
}
