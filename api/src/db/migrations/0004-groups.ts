import { type Kysely, PostgresAdapter } from "kysely";

export async function up(db: Kysely<unknown>): Promise<void> {
  const postgres = db.getExecutor().adapter instanceof PostgresAdapter;

  // Ids are never reused (AUTOINCREMENT, identity), so a link to a deleted group never opens another.
  // A walker's groups go with their account: a group cannot be left without its admin.
  await db.schema
    .createTable("groups")
    .addColumn("id", "integer", (col) =>
      postgres ? col.primaryKey().generatedAlwaysAsIdentity() : col.primaryKey().autoIncrement(),
    )
    .addColumn("name", "text", (col) => col.notNull())
    .addColumn("description", "text", (col) => col.notNull())
    .addColumn("join_code", "text", (col) => col.notNull().unique())
    .addColumn("admin_user_id", "text", (col) => col.notNull().references("users.id").onDelete("cascade"))
    .addColumn("created_at", "bigint", (col) => col.notNull())
    .execute();

  // The primary key serves a group's members; the user index serves a walker's groups.
  await db.schema
    .createTable("group_members")
    .addColumn("group_id", "integer", (col) => col.notNull().references("groups.id").onDelete("cascade"))
    .addColumn("user_id", "text", (col) => col.notNull().references("users.id").onDelete("cascade"))
    .addColumn("joined_at", "bigint", (col) => col.notNull())
    .addPrimaryKeyConstraint("group_members_pk", ["group_id", "user_id"])
    .execute();
  await db.schema.createIndex("group_members_user_idx").on("group_members").column("user_id").execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable("group_members").execute();
  await db.schema.dropTable("groups").execute();
}
