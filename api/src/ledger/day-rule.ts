import { type RawBuilder, sql } from "kysely";
import type { DialectName } from "../db/database.js";

/** A day to recount, read from `days` (a table of user_id and day). */
export interface CountedDayRow {
  user_id: string;
  day: string;
  month: string;
  motion: number;
  health: number;
  manual: number;
  /** The day's total as it stood before this recount (0 for a day without a row). */
  before: number;
  total: number;
}

/**
 * The day rule, the one place either database learns it: a day's steps are the larger of the
 * motion devices' counters added up and the largest health source (each health source already
 * gathers the walker's devices, so the same walk seen both ways counts once), plus the manual
 * entries, capped at the daily maximum.
 *
 * `days` is a table `r` of (user_id, day), and `cap` the daily maximum (`DAILY_STEP_MAX`). Each
 * day comes back with its parts, its month, its total as it stood (`before`) and its new `total`.
 * SQLite's writer runs it as a statement; PostgreSQL's writer builds its functions from it at boot.
 * `shared-types`' `dayTotal` states the same rule for the page (and fair play's `fairPlayDay`
 * builds on it for prizes), and the ledger's tests hold both databases to it.
 *
 * The parts are materialized so that each of their subqueries runs once per day, not once more
 * inside the total.
 */
export function countedDays(
  dialect: DialectName,
  days: RawBuilder<unknown>,
  cap: RawBuilder<number>,
): RawBuilder<CountedDayRow> {
  // The same functions under their two names: SQLite's min and max of several values.
  const [larger, smaller] = dialect === "postgres" ? ["greatest", "least"] : ["max", "min"];
  const total = sql`${sql.raw(smaller)}(${cap}, ${sql.raw(larger)}(p.motion, p.health) + p.manual)`;
  return sql<CountedDayRow>`
    with parts as materialized (
      select r.user_id, r.day, substr(r.day, 1, 7) as month,
        coalesce((select sum(c.steps) from step_counters c
          where c.user_id = r.user_id and c.day = r.day and c.kind = 'motion'), 0) as motion,
        coalesce((select max(c.steps) from step_counters c
          where c.user_id = r.user_id and c.day = r.day and c.kind = 'health'), 0) as health,
        coalesce((select sum(e.steps) from manual_step_entries e
          where e.user_id = r.user_id and e.day = r.day), 0) as manual,
        coalesce((select s.total_steps from step_days s
          where s.user_id = r.user_id and s.day = r.day), 0) as before
      from ${days}
    )
    select p.user_id, p.day, p.month, p.motion, p.health, p.manual, p.before, ${total} as total
    from parts p`;
}

/**
 * How a recounted day is written over the one stored: every part and the total replaced. One text
 * for SQLite's statements and PostgreSQL's functions.
 */
export const WRITE_DAY_ON_CONFLICT = `on conflict (user_id, day) do update
  set motion_steps = excluded.motion_steps, health_steps = excluded.health_steps,
    manual_steps = excluded.manual_steps, total_steps = excluded.total_steps,
    updated_at = excluded.updated_at`;

/**
 * How a month takes its days' change: added to its total, and its latest day moved forward when a
 * later day (or the latest itself) changed. One text for both databases.
 */
export const ADD_TO_MONTH_ON_CONFLICT = `on conflict (user_id, month) do update
  set total_steps = step_months.total_steps + excluded.total_steps,
    last_day_steps = case when excluded.last_day >= step_months.last_day
      then excluded.last_day_steps else step_months.last_day_steps end,
    last_day = case when excluded.last_day >= step_months.last_day
      then excluded.last_day else step_months.last_day end,
    updated_at = excluded.updated_at`;
