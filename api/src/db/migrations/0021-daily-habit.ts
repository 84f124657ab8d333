import { type Kysely, sql } from "kysely";

/**
 * A walker's own settings and daily goals. `users.theme` is the app's look (system, light or dark);
 * `users.onboarded_at` is when the walker finished or skipped the welcome. Walkers who joined before
 * the welcome existed are taken as welcomed: it is for new walkers. `daily_goals` keeps each goal
 * from the London day it was set, so that every past day is judged by the goal it had. The months'
 * index by month serves the charities' impact, which adds up one month across walkers.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .alterTable("users")
    .addColumn("theme", "text", (col) =>
      col.notNull().defaultTo("system").check(sql`theme in ('system', 'light', 'dark')`),
    )
    .execute();
  await db.schema.alterTable("users").addColumn("onboarded_at", "bigint").execute();
  await sql`update users set onboarded_at = created_at`.execute(db);
  await db.schema
    .createTable("daily_goals")
    .addColumn("user_id", "text", (col) => col.notNull().references("users.id").onDelete("cascade"))
    .addColumn("from_day", "text", (col) => col.notNull())
    .addColumn("goal", "integer", (col) => col.notNull().check(sql`goal between 2000 and 30000`))
    .addColumn("set_at", "bigint", (col) => col.notNull())
    .addPrimaryKeyConstraint("daily_goals_pk", ["user_id", "from_day"])
    .execute();
  await db.schema
    .createIndex("step_months_month_idx")
    .on("step_months")
    .columns(["month", "user_id"])
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropIndex("step_months_month_idx").execute();
  await db.schema.dropTable("daily_goals").execute();
  await db.schema.alterTable("users").dropColumn("onboarded_at").execute();
  await db.schema.alterTable("users").dropColumn("theme").execute();
}
