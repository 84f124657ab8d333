import { PACE_STEPS_PER_MINUTE_MAX } from "@charity-steps/shared-types";
import { type RawBuilder, sql } from "kysely";
import type { DialectName } from "../db/database.js";

/** A counter reading as the pace rule sees it: its steps, and when its London day begins and ends. */
export interface PacedReading {
  steps: RawBuilder<number>;
  dayStart: RawBuilder<number>;
  dayEnd: RawBuilder<number>;
}

/** The counter as stored before the reading (both null for a counter not seen before). */
export interface StoredCounter {
  steps: RawBuilder<number | null>;
  /** When it was last raised, in epoch milliseconds. */
  at: RawBuilder<number | null>;
}

/**
 * The pace rule, the one place either database learns it: the most a counter can read at `now` is
 * what it read at its previous raise plus the pace for every minute since (since the day began, for
 * the day's first reading). A day that is over is judged by the pace over the whole day, however
 * late it arrives: a week offline is no burst, and the whole day's pace is above the daily cap, so
 * such a day is never held.
 *
 * As SQL over the reading and the stored counter, the same on both databases but for the names of
 * the larger and smaller of several values. SQLite's writer runs it in a statement; PostgreSQL's
 * builds it into its functions at boot.
 */
export function paceCeiling(
  dialect: DialectName,
  reading: PacedReading,
  stored: StoredCounter,
  now: RawBuilder<number>,
): RawBuilder<number> {
  const larger = sql.raw(dialect === "postgres" ? "greatest" : "max");
  const pace = sql.lit(PACE_STEPS_PER_MINUTE_MAX);
  const steps = sql`coalesce(${stored.steps}, 0)`;
  const since = sql`${larger}(coalesce(${stored.at}, ${reading.dayStart}), ${reading.dayStart})`;
  return sql<number>`case
    when ${now} >= ${reading.dayEnd}
      then ${larger}(${steps}, ${pace} * (${reading.dayEnd} - ${reading.dayStart}) / 60000.0)
    else ${steps} + ${pace} * ${larger}(0, ${now} - ${since}) / 60000.0
  end`;
}

/**
 * The steps a reading holds back for a check: what it reads above the pace ceiling, in whole steps,
 * when it raises the counter; 0 otherwise (a replay or a lower count holds nothing).
 */
export function stepsAbovePace(
  dialect: DialectName,
  reading: PacedReading,
  stored: StoredCounter,
  now: RawBuilder<number>,
): RawBuilder<number> {
  const larger = sql.raw(dialect === "postgres" ? "greatest" : "max");
  const ceiling = paceCeiling(dialect, reading, stored, now);
  return sql<number>`case
    when ${stored.steps} is not null and ${stored.steps} >= ${reading.steps} then 0
    else cast(${larger}(0, ceil(${reading.steps} - ${ceiling})) as integer)
  end`;
}

/** The pace rule's view of a reading `r` (a row of a writer's JSON) and the counter `c` it raises. */
export const READING_R: PacedReading = {
  steps: sql`r.steps`,
  dayStart: sql`r.day_start`,
  dayEnd: sql`r.day_end`,
};
export const STORED_C: StoredCounter = { steps: sql`c.steps`, at: sql`c.updated_at` };
