import { type Kysely, sql } from "kysely";

/**
 * A walker's counted steps per month, kept beside the day rows in the same transaction as every
 * change to a day: a month total, a dashboard and a leaderboard then read one row per
 * walker instead of a month of day rows. The row also keeps the month's latest day with steps and
 * that day's total, so a leaderboard reads "today" from it too. The day rows' month index served
 * only those reads; every rewrite of a day also rewrote it, so it goes.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable("step_months")
    .addColumn("user_id", "text", (col) => col.notNull().references("users.id").onDelete("cascade"))
    .addColumn("month", "text", (col) => col.notNull())
    .addColumn("total_steps", "bigint", (col) => col.notNull().check(sql`total_steps >= 0`))
    .addColumn("last_day", "text", (col) => col.notNull())
    .addColumn("last_day_steps", "integer", (col) => col.notNull())
    .addColumn("updated_at", "bigint", (col) => col.notNull())
    .addPrimaryKeyConstraint("step_months_pk", ["user_id", "month"])
    .execute();
  await sql`
    insert into step_months (user_id, month, total_steps, last_day, last_day_steps, updated_at)
    select m.user_id, m.month, m.total_steps, m.last_day, d.total_steps, m.updated_at
    from (
      select user_id, month, sum(total_steps) as total_steps, max(day) as last_day, max(updated_at) as updated_at
      from step_days where total_steps > 0 group by user_id, month
    ) m
    join step_days d on d.user_id = m.user_id and d.day = m.last_day
  `.execute(db);
  await db.schema.dropIndex("step_days_month_user_idx").execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createIndex("step_days_month_user_idx")
    .on("step_days")
    .columns(["month", "user_id", "total_steps"])
    .execute();
  await db.schema.dropTable("step_months").execute();
}
