import { DAILY_STEP_MAX, type DayString, type MonthString } from "@charity-steps/shared-types";
import { type Kysely, sql } from "kysely";
import type { Database } from "../db/database.js";
import { jsonRows, rowsParam } from "../db/json-rows.js";
import type { DatabaseSchema } from "../db/schema/index.js";
import { type CountedSteps, countedDays } from "./day-rule.js";

/** A walker's month: every step counted, those that count for prizes, and those waiting for a check. */
export interface EligibleMonth {
  userId: string;
  countedSteps: number;
  eligibleSteps: number;
  pendingSteps: number;
}

/** A day holding steps back from prizes: its counted total, its eligible steps, and those that wait. */
export interface HeldDay {
  userId: string;
  day: DayString;
  countedSteps: number;
  eligibleSteps: number;
  pendingSteps: number;
}

/**
 * The ledger read as fair play counts it: which steps count for prizes, and which wait for a check.
 * Reads on the database, or on a transaction (`db`) when the caller counts inside one.
 */
export class EligibleSteps {
  constructor(private readonly database: Database) {}

  /**
   * The days from `from` to `to` (of every walker, or only `userId`'s, or only the members of group
   * `groupId`) that hold steps back from prizes: a manual entry not approved, or a counter's steps
   * above the pace not approved. Each is counted again by the day rule itself (`countedDays`) from
   * its eligible parts, and from what would be eligible were everything waiting approved, so that
   * the daily cap and the larger-of-motion-and-health rule apply to eligible steps as they do to
   * every step. Every other day counts for prizes exactly as it is counted.
   */
  async heldDays(
    range: { from: DayString; to: DayString; userId?: string; groupId?: number },
    db: Kysely<DatabaseSchema> = this.database.db,
  ): Promise<HeldDay[]> {
    const { dialect } = this.database;
    let entries = db
      .selectFrom("manual_step_entries")
      .select(["user_id", "day"])
      .where("status", "<>", "approved")
      .where("day", ">=", range.from)
      .where("day", "<=", range.to);
    let counters = db
      .selectFrom("step_counters")
      .select(["user_id", "day"])
      .where(sql<boolean>`(pending_steps > 0 or rejected_steps > 0)`)
      .where("day", ">=", range.from)
      .where("day", "<=", range.to);
    if (range.userId !== undefined) {
      entries = entries.where("user_id", "=", range.userId);
      counters = counters.where("user_id", "=", range.userId);
    }
    if (range.groupId !== undefined) {
      const members = db.selectFrom("group_members").select("user_id").where("group_id", "=", range.groupId);
      entries = entries.where("user_id", "in", members);
      counters = counters.where("user_id", "in", members);
    }
    const held = await entries.union(counters).execute();
    if (held.length === 0) return [];

    const recount = async (steps: CountedSteps) => {
      const days = jsonRows(dialect, rowsParam(held), { user_id: "text", day: "text" });
      const { rows } = await countedDays(dialect, days, sql.lit(DAILY_STEP_MAX), steps).execute(db);
      return new Map(rows.map((row) => [`${row.user_id}|${row.day}`, row]));
    };
    const eligible = await recount("eligible");
    const unrejected = await recount("unrejected");
    return [...eligible].map(([key, day]) => {
      const total = Number(day.total);
      return {
        userId: day.user_id,
        day: day.day,
        // The day as stored: the ledger rewrites it with every change to its counters and entries.
        countedSteps: Number(day.before),
        eligibleSteps: total,
        pendingSteps: Number(unrejected.get(key)?.total ?? total) - total,
      };
    });
  }

  /**
   * Each walker's month (or only `userId`'s) split by fair play: its counted total (the ledger's
   * month row) less what its few held days hold back (`heldDays`). Walkers without steps that
   * month are not in the map.
   */
  async months(
    month: MonthString,
    userId?: string,
    db: Kysely<DatabaseSchema> = this.database.db,
  ): Promise<Map<string, EligibleMonth>> {
    let months = db.selectFrom("step_months").select(["user_id", "total_steps"]).where("month", "=", month);
    if (userId !== undefined) months = months.where("user_id", "=", userId);
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
    const range = { from: `${month}-01`, to: `${month}-31`, ...(userId === undefined ? {} : { userId }) };
    for (const day of await this.heldDays(range, db)) {
      const walker = result.get(day.userId);
      if (!walker) continue;
      walker.eligibleSteps -= day.countedSteps - day.eligibleSteps;
      walker.pendingSteps += day.pendingSteps;
    }
    return result;
  }

  /** One walker's month split by fair play (all zero for a month without steps). */
  async month(month: MonthString, userId: string): Promise<EligibleMonth> {
    const months = await this.months(month, userId);
    return months.get(userId) ?? { userId, countedSteps: 0, eligibleSteps: 0, pendingSteps: 0 };
  }
}
