import { randomUUID } from "node:crypto";
import { addDays, type DayString, londonDay, PACE_STEPS_PER_MINUTE_MAX } from "@charity-steps/shared-types";
import { type Kysely, sql } from "kysely";
import type { DialectName } from "../db/database.js";
import { jsonRows, rowsParam } from "../db/json-rows.js";
import type { DatabaseSchema } from "../db/schema/index.js";
import type { CounterRecord } from "./ledger-queries.js";

const MINUTE_MS = 60_000;
const HOUR_MS = 60 * MINUTE_MS;

/** The instant London's calendar day `day` begins (midnight, in GMT or in British Summer Time). */
export function londonDayStart(day: DayString): number {
  const utcMidnight = Date.parse(`${day}T00:00:00Z`);
  // In summer time London's midnight is 23:00 UTC the evening before.
  return londonDay(utcMidnight - HOUR_MS) === day ? utcMidnight - HOUR_MS : utcMidnight;
}

/** The steps a counter's reading holds back for a check, above the pace. */
export interface PaceHold {
  user_id: string;
  day: DayString;
  counter_id: string;
  steps: number;
}

interface StoredCounter {
  user_id: string;
  day: string;
  counter_id: string;
  steps: number;
  updated_at: number;
}

/**
 * The most a counter can read at `now` at a walker's pace: what it read at its previous raise plus the pace
 * for every minute since (since the day began, for the day's first reading). A day that is over is
 * judged by the pace over the whole day, however late it arrives: a week offline is no burst.
 */
export function paceCeiling(
  day: DayString,
  previous: { steps: number; at: number } | undefined,
  now: number,
): number {
  const start = londonDayStart(day);
  const end = londonDayStart(addDays(day, 1));
  const wholeDay = (PACE_STEPS_PER_MINUTE_MAX * (end - start)) / MINUTE_MS;
  if (now >= end) return Math.max(previous?.steps ?? 0, wholeDay);
  const since = Math.max(previous?.at ?? start, start);
  return (previous?.steps ?? 0) + (PACE_STEPS_PER_MINUTE_MAX * Math.max(0, now - since)) / MINUTE_MS;
}

/**
 * The readings among `counters` that rose faster than the pace since their counter's previous raise,
 * each with the steps above it. Only a reading that could be above it is looked up (one query for
 * the group): a day that is over never is, its whole day's pace being above the daily cap.
 */
export async function paceHolds(
  db: Kysely<DatabaseSchema>,
  dialect: DialectName,
  counters: CounterRecord[],
  now: number,
): Promise<PaceHold[]> {
  const today = londonDay(now);
  const candidates = counters.filter(
    (counter) => counter.day >= today || counter.steps > paceCeiling(counter.day, undefined, now),
  );
  if (candidates.length === 0) return [];
  const keys = candidates.map(({ user_id, day, counter_id }) => ({ user_id, day, counter_id }));
  const { rows } = await sql<StoredCounter>`
    select c.user_id, c.day, c.counter_id, c.steps, c.updated_at
    from ${jsonRows(dialect, rowsParam(keys), { user_id: "text", day: "text", counter_id: "text" })}
    join step_counters c on c.user_id = r.user_id and c.day = r.day and c.counter_id = r.counter_id`.execute(
    db,
  );
  const stored = new Map(rows.map((row) => [`${row.user_id}|${row.day}|${row.counter_id}`, row]));
  const holds: PaceHold[] = [];
  for (const counter of candidates) {
    const previous = stored.get(`${counter.user_id}|${counter.day}|${counter.counter_id}`);
    if (previous && Number(previous.steps) >= counter.steps) continue;
    const ceiling = paceCeiling(
      counter.day,
      previous && { steps: Number(previous.steps), at: Number(previous.updated_at) },
      now,
    );
    const excess = Math.ceil(counter.steps - ceiling);
    if (excess > 0) {
      holds.push({
        user_id: counter.user_id,
        day: counter.day,
        counter_id: counter.counter_id,
        steps: excess,
      });
    }
  }
  return holds;
}

/**
 * Holds back each of `holds` from prizes, in the transaction `trx` that raised its counter: the
 * counter's pending steps grow, and so does its waiting review (made if none waits). Two
 * statements, however many holds.
 */
export async function holdPace(
  trx: Kysely<DatabaseSchema>,
  dialect: DialectName,
  holds: PaceHold[],
  now: number,
): Promise<void> {
  const rows = (columns: Parameters<typeof jsonRows>[2], values: object[]) =>
    jsonRows(dialect, rowsParam(values), columns);
  const keyed = { user_id: "text", day: "text", counter_id: "text", steps: "integer" } as const;
  await sql`
    update step_counters set pending_steps = step_counters.pending_steps + r.steps
    from ${rows(keyed, holds)}
    where step_counters.user_id = r.user_id and step_counters.day = r.day
      and step_counters.counter_id = r.counter_id`.execute(trx);
  const reviews = holds.map((hold) => ({ id: randomUUID(), ...hold }));
  await sql`
    insert into pace_reviews (id, user_id, day, counter_id, steps, status, created_at)
    select r.id, r.user_id, r.day, r.counter_id, r.steps, 'pending', ${now}
    from ${rows({ id: "text", ...keyed }, reviews)}
    where true
    order by r.user_id, r.day, r.counter_id
    on conflict (user_id, day, counter_id) where status = 'pending'
    do update set steps = pace_reviews.steps + excluded.steps`.execute(trx);
}
