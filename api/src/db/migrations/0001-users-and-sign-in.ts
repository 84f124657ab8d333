import type { Kysely } from "kysely";

// Migrations take Kysely<unknown>: they must not depend on today's schema types.
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable("users")
    .addColumn("id", "text", (col) => col.primaryKey())
    .addColumn("issuer", "text", (col) => col.notNull())
    .addColumn("subject", "text", (col) => col.notNull())
    .addColumn("email", "text")
    .addColumn("first_name", "text")
    .addColumn("last_name", "text")
    .addColumn("profile_image_url", "text")
    .addColumn("created_at", "bigint", (col) => col.notNull())
    .addColumn("updated_at", "bigint", (col) => col.notNull())
    .addUniqueConstraint("users_issuer_subject_unique", ["issuer", "subject"])
    .execute();

  await db.schema
    .createTable("sessions")
    .addColumn("id_hash", "text", (col) => col.primaryKey())
    .addColumn("user_id", "text", (col) => col.notNull().references("users.id").onDelete("cascade"))
    .addColumn("created_at", "bigint", (col) => col.notNull())
    .addColumn("expires_at", "bigint", (col) => col.notNull())
    .addColumn("renewed_at", "bigint", (col) => col.notNull())
    .execute();
  await db.schema.createIndex("sessions_user_id_idx").on("sessions").column("user_id").execute();
  await db.schema.createIndex("sessions_expires_at_idx").on("sessions").column("expires_at").execute();

  await db.schema
    .createTable("local_accounts")
    .addColumn("id", "text", (col) => col.primaryKey())
    .addColumn("email", "text", (col) => col.notNull().unique())
    .addColumn("password_hash", "text", (col) => col.notNull())
    .addColumn("first_name", "text", (col) => col.notNull())
    .addColumn("last_name", "text", (col) => col.notNull())
    .addColumn("created_at", "bigint", (col) => col.notNull())
    .execute();

  await db.schema
    .createTable("oidc_payloads")
    .addColumn("model", "text", (col) => col.notNull())
    .addColumn("id", "text", (col) => col.notNull())
    .addColumn("payload", "text", (col) => col.notNull())
    .addColumn("grant_id", "text")
    .addColumn("user_code", "text")
    .addColumn("uid", "text")
    .addColumn("expires_at", "bigint")
    .addColumn("consumed_at", "bigint")
    .addPrimaryKeyConstraint("oidc_payloads_pk", ["model", "id"])
    .execute();
  await db.schema.createIndex("oidc_payloads_grant_id_idx").on("oidc_payloads").column("grant_id").execute();
  await db.schema.createIndex("oidc_payloads_uid_idx").on("oidc_payloads").column("uid").execute();
  await db.schema
    .createIndex("oidc_payloads_user_code_idx")
    .on("oidc_payloads")
    .column("user_code")
    .execute();
  await db.schema
    .createIndex("oidc_payloads_expires_at_idx")
    .on("oidc_payloads")
    .column("expires_at")
    .execute();

  await db.schema
    .createTable("app_secrets")
    .addColumn("name", "text", (col) => col.primaryKey())
    .addColumn("value", "text", (col) => col.notNull())
    .addColumn("created_at", "bigint", (col) => col.notNull())
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  for (const table of ["app_secrets", "oidc_payloads", "local_accounts", "sessions", "users"]) {
    await db.schema.dropTable(table).execute();
  }
}
