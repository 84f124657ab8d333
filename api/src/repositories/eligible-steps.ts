import { DAILY_STEP_MAX, type MonthString } from "@charity-steps/shared-types";
import { type Kysely, sql } from "kysely";
import type { DialectName } from "../db/database.js";
import { jsonRows, rowsParam } from "../db/json-rows.js";
import type { DatabaseSchema } from "../db/schema/index.js";
import { type CountedSteps, countedDays } from "./ledger-rule.js";

/** A walker's month: every step counted, those that count for prizes, and those waiting for a check. */
export interface EligibleMonth {
  userId: string;
  countedSteps: number;
  eligibleSteps: number;
  pendingSteps: number;
}

/**
 * Each walker's month (or only `userId`'s) split by fair play, read on `db` (a transaction too).
 *
 * Almost every day counts for prizes exactly as it is counted, so a month's eligible steps are its
 * counted total (the ledger's month row) less what its few held days hold back: the days with a
 * manual entry not approved or a counter's steps above the pace not approved. Only those days are
 * counted again, by the day rule itself (`countedDays` of `ledger-rule.ts`) from their eligible
 * parts, so the daily cap and the larger-of-motion-and-health rule apply to eligible steps as they
 * do to every step. Walkers without steps that month are not in the map.
 */
export async function eligibleMonths(
  db: Kysely<DatabaseSchema>,
  dialect: DialectName,
  month: MonthString,
  userId?: string,
): Promise<Map<string, EligibleMonth>> {
  const [first, last] = [`${month}-01`, `${month}-31`];
  let months = db.selectFrom("step_months").select(["user_id", "total_steps"]).where("month", "=", month);
  let entries = db
    .selectFrom("manual_step_entries")
    .select(["user_id", "day"])
    .where("status", "<>", "approved")
    .where("day", ">=", first)
    .where("day", "<=", last);
  let counters = db
    .selectFrom("step_counters")
    .select(["user_id", "day"])
    .where(sql<boolean>`pending_steps > 0 or rejected_steps > 0`)
    .where("day", ">=", first)
    .where("day", "<=", last);
  if (userId !== undefined) {
    months = months.where("user_id", "=", userId);
    entries = entries.where("user_id", "=", userId);
    counters = counters.where("user_id", "=", userId);
  }
  const result = new Map<string, EligibleMonth>();
  for (const row of await months.execute()) {
    const steps = Number(row.total_steps);
    result.set(row.user_id, {
      userId: row.user_id,
      countedSteps: steps,
      eligibleSteps: steps,
      pendingSteps: 0,
    });
  }
  const held = await entries.union(counters).execute();
  if (held.length === 0) return result;

  const recount = async (steps: CountedSteps) => {
    const days = jsonRows(dialect, rowsParam(held), { user_id: "text", day: "text" });
    const { rows } = await countedDays(dialect, days, sql.lit(DAILY_STEP_MAX), steps).execute(db);
    return new Map(rows.map((row) => [`${row.user_id}|${row.day}`, row]));
  };
  const eligible = await recount("eligible");
  const unrejected = await recount("unrejected");
  for (const [key, day] of eligible) {
    const month = result.get(day.user_id);
    if (!month) continue;
    const total = Number(day.total);
    month.eligibleSteps -= Number(day.before) - total;
    month.pendingSteps += Number(unrejected.get(key)?.total ?? total) - total;
  }
  return result;
}

/** One walker's month split by fair play (all zero for a month without steps). */
export async function eligibleMonth(
  db: Kysely<DatabaseSchema>,
  dialect: DialectName,
  month: MonthString,
  userId: string,
): Promise<EligibleMonth> {
  const months = await eligibleMonths(db, dialect, month, userId);
  return months.get(userId) ?? { userId, countedSteps: 0, eligibleSteps: 0, pendingSteps: 0 };
}
