import type { Kysely } from "kysely";

/**
 * Step-import keys: the personal secrets an iPhone Shortcut sends Apple Health's steps with. Only
 * each key's SHA-256 is stored. A key's calls are counted per minute in the database, so that every
 * API process counts the same calls; the count goes with its key.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable("step_import_keys")
    .addColumn("id", "text", (col) => col.primaryKey())
    .addColumn("user_id", "text", (col) => col.notNull().references("users.id").onDelete("cascade"))
    .addColumn("name", "text", (col) => col.notNull())
    .addColumn("key_hash", "text", (col) => col.notNull().unique())
    .addColumn("created_at", "bigint", (col) => col.notNull())
    .addColumn("last_used_at", "bigint")
    .execute();
  await db.schema.createIndex("step_import_keys_user_idx").on("step_import_keys").column("user_id").execute();

  await db.schema
    .createTable("step_import_calls")
    .addColumn("key_id", "text", (col) =>
      col.primaryKey().references("step_import_keys.id").onDelete("cascade"),
    )
    .addColumn("calls", "integer", (col) => col.notNull())
    .addColumn("window_started_at", "bigint", (col) => col.notNull())
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable("step_import_calls").execute();
  await db.schema.dropTable("step_import_keys").execute();
}
