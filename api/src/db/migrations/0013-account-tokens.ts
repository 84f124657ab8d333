import type { Kysely } from "kysely";

/**
 * Single-use links mailed to built-in accounts (a password reset, an email to confirm, a new email
 * to confirm) and the short-lived ticket that signs a walker in after a reset. Only each token's
 * SHA-256 is stored: the database alone cannot open any of these links. Confirmed emails are kept
 * on the account (so the provider's ID token can say `email_verified`) and on the walker (so the
 * app can show it whatever the provider).
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable("account_tokens")
    .addColumn("token_hash", "text", (col) => col.primaryKey())
    .addColumn("kind", "text", (col) => col.notNull())
    .addColumn("account_id", "text", (col) =>
      col.notNull().references("local_accounts.id").onDelete("cascade"),
    )
    .addColumn("email", "text", (col) => col.notNull())
    .addColumn("created_at", "bigint", (col) => col.notNull())
    .addColumn("expires_at", "bigint", (col) => col.notNull())
    .addColumn("used_at", "bigint")
    .execute();
  await db.schema
    .createIndex("account_tokens_account_idx")
    .on("account_tokens")
    .columns(["account_id", "kind"])
    .execute();
  await db.schema
    .createIndex("account_tokens_expires_idx")
    .on("account_tokens")
    .column("expires_at")
    .execute();
  await db.schema.alterTable("local_accounts").addColumn("email_verified_at", "bigint").execute();
  await db.schema.alterTable("users").addColumn("email_verified_at", "bigint").execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable("users").dropColumn("email_verified_at").execute();
  await db.schema.alterTable("local_accounts").dropColumn("email_verified_at").execute();
  await db.schema.dropTable("account_tokens").execute();
}
