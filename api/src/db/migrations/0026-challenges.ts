import type { Kysely } from "kysely";

/**
 * Challenges. `challenges` holds each one: public (set by operators) or a group's (set by its
 * admin, gone with the group). `challenge_members` holds the walkers who joined each, when they
 * completed it (set once), and the address of their fundraising page. Progress is not stored: it
 * is read from the walkers' days (`step_days`) over the challenge's period.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable("challenges")
    .addColumn("id", "text", (col) => col.primaryKey())
    .addColumn("name", "text", (col) => col.notNull())
    .addColumn("description", "text", (col) => col.notNull())
    .addColumn("charity_name", "text")
    .addColumn("kind", "text", (col) => col.notNull())
    .addColumn("target", "integer", (col) => col.notNull())
    .addColumn("daily_target", "integer")
    .addColumn("starts_on", "text", (col) => col.notNull())
    .addColumn("ends_on", "text", (col) => col.notNull())
    .addColumn("scope", "text", (col) => col.notNull())
    .addColumn("group_id", "integer", (col) => col.references("groups.id").onDelete("cascade"))
    .addColumn("created_by", "text", (col) => col.references("users.id").onDelete("set null"))
    .addColumn("created_at", "bigint", (col) => col.notNull())
    .addColumn("updated_at", "bigint", (col) => col.notNull())
    .execute();
  await db.schema
    .createIndex("challenges_by_scope_end")
    .on("challenges")
    .columns(["scope", "ends_on"])
    .execute();
  await db.schema
    .createIndex("challenges_by_group")
    .on("challenges")
    .columns(["group_id", "ends_on"])
    .execute();
  await db.schema
    .createTable("challenge_members")
    .addColumn("challenge_id", "text", (col) => col.notNull().references("challenges.id").onDelete("cascade"))
    .addColumn("user_id", "text", (col) => col.notNull().references("users.id").onDelete("cascade"))
    .addColumn("joined_at", "bigint", (col) => col.notNull())
    .addColumn("completed_at", "bigint")
    .addColumn("fundraising_url", "text")
    .addPrimaryKeyConstraint("challenge_members_pk", ["challenge_id", "user_id"])
    .execute();
  await db.schema
    .createIndex("challenge_members_by_user")
    .on("challenge_members")
    .column("user_id")
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable("challenge_members").execute();
  await db.schema.dropTable("challenges").execute();
}
