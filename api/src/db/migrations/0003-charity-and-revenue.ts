import { type Kysely, sql } from "kysely";

export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable("users").addColumn("charity_name", "text").execute();

  await db.schema
    .createTable("subscription_payments")
    .addColumn("id", "text", (col) => col.primaryKey())
    .addColumn("user_id", "text", (col) => col.references("users.id").onDelete("set null"))
    .addColumn("month", "text", (col) => col.notNull())
    .addColumn("amount_pence", "integer", (col) => col.notNull().check(sql`amount_pence >= 0`))
    .addColumn("created_at", "bigint", (col) => col.notNull())
    .execute();
  await db.schema
    .createIndex("subscription_payments_month_idx")
    .on("subscription_payments")
    .column("month")
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable("subscription_payments").execute();
  await db.schema.alterTable("users").dropColumn("charity_name").execute();
}
