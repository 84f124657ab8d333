import type { Kysely } from "kysely";

/**
 * When a built-in account last moved to a new email through a mailed change-of-email link. An
 * address reached that way makes no operator: only an account signed up with the address and
 * confirmed from it does.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable("users").addColumn("email_changed_at", "bigint").execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable("users").dropColumn("email_changed_at").execute();
}
