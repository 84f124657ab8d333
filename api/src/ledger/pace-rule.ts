import { NEW_DEVICES_PER_DAY_MAX, PACE_STEPS_PER_MINUTE_MAX } from "@charity-steps/shared-types";
import { type RawBuilder, sql } from "kysely";
import type { DialectName } from "../db/database.js";

/** A counter reading as the pace rule sees it: its steps, and when its London day begins and ends. */
export interface PacedReading {
  /** `motion` or `health`. */
  kind: RawBuilder<string>;
  steps: RawBuilder<number>;
  dayStart: RawBuilder<number>;
  dayEnd: RawBuilder<number>;
}

/** The counter as stored before the reading (both null for a counter not seen before). */
export interface StoredCounter {
  steps: RawBuilder<number | null>;
  /** When it was last raised, in epoch milliseconds. */
  at: RawBuilder<number | null>;
  /** When any counter of the walker's day was last raised (null for the day's first reading). */
  dayLastAt: RawBuilder<number | null>;
  /** How many of the day's motion counters were first seen before this one (all of them, for a new one). */
  devicesBefore: RawBuilder<number>;
}

/**
 * The pace rule, the one place either database learns it: the most a counter can read at `now` is
 * what it read at its previous raise plus the pace for every minute since. A counter not seen
 * before (a new device, say) is judged from the walker's last reading of the day from any counter,
 * so that a device brought in late in the day cannot claim the whole day's pace; the day's first
 * reading is judged from the day's start. A day that is over is judged by the pace over the whole day, however
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
  const since = sql`${larger}(coalesce(${stored.at}, ${stored.dayLastAt}, ${reading.dayStart}), ${reading.dayStart})`;
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
  // A device past the day's first few is held whole by fair play's day rules, as one review of the
  // day: judging its pace too would make one review per device.
  return sql<number>`case
    when ${stored.steps} is not null and ${stored.steps} >= ${reading.steps} then 0
    when ${reading.kind} = 'motion' and ${stored.devicesBefore} >= ${sql.lit(NEW_DEVICES_PER_DAY_MAX)} then 0
    else cast(${larger}(0, ceil(${reading.steps} - ${ceiling})) as integer)
  end`;
}

/** The pace rule's view of a reading `r` (a row of a writer's JSON) and the counter `c` it raises. */
export const READING_R: PacedReading = {
  kind: sql`r.kind`,
  steps: sql`r.steps`,
  dayStart: sql`r.day_start`,
  dayEnd: sql`r.day_end`,
};
export const STORED_C: StoredCounter = {
  steps: sql`c.steps`,
  at: sql`c.updated_at`,
  // Read only for a counter not seen before: coalesce stops at the first value that is not null.
  dayLastAt: sql`(select max(w.updated_at) from step_counters w where w.user_id = r.user_id and w.day = r.day)`,
  // Counters first seen at the same moment (one group of syncs) take their order from their ids.
  devicesBefore: sql`(select count(*) from step_counters w
    where w.user_id = r.user_id and w.day = r.day and w.kind = 'motion'
      and (c.steps is null or coalesce(w.created_at, 0) < coalesce(c.created_at, 0)
        or (coalesce(w.created_at, 0) = coalesce(c.created_at, 0) and w.counter_id < r.counter_id)))`,
};
