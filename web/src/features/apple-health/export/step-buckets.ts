import {
  addDays,
  DAILY_STEP_MAX,
  type DayString,
  londonDay,
  STEP_HISTORY_DAYS,
} from "@charity-steps/shared-types";

const HOUR_MS = 3_600_000;

/** One day's measured steps, as the import sends it. */
export interface ImportedDay {
  day: DayString;
  steps: number;
}

/**
 * Step records summed per hour and per source, for the days the server accepts (London today and
 * the 30 days before it); everything else is dropped as it arrives, so what is kept is bounded by
 * those days' hours times the walker's sources, whatever the size of the export.
 *
 * An hour is a real hour (one UTC hour): London's offset is a whole hour and changes on the hour, so
 * each UTC hour is exactly one London clock hour, and the hour repeated when the clocks go back is
 * two hours here, as it was two hours of walking.
 */
export class StepBuckets {
  /** Hour number (ms since the epoch / 1 h) → the London day it belongs to, for the accepted days. */
  private readonly dayOfHour = new Map<number, DayString>();
  private readonly firstHour: number;
  private readonly lastHour: number;
  /** Hour number → source name → steps (fractions kept until the day is totalled). */
  private readonly hours = new Map<number, Map<string, number>>();
  readonly days: readonly DayString[];

  constructor(today: DayString) {
    const first = addDays(today, -STEP_HISTORY_DAYS);
    this.days = Array.from({ length: STEP_HISTORY_DAYS + 1 }, (_, index) => addDays(first, index));
    // London midnight is 23:00 or 00:00 UTC: start an hour early, keep only hours on accepted days.
    const from = Date.parse(`${first}T00:00:00Z`) / HOUR_MS - 1;
    const to = Date.parse(`${addDays(today, 1)}T00:00:00Z`) / HOUR_MS;
    const accepted = new Set(this.days);
    for (let hour = from; hour < to; hour++) {
      const day = londonDay(hour * HOUR_MS);
      if (accepted.has(day)) this.dayOfHour.set(hour, day);
    }
    this.firstHour = from;
    this.lastHour = to - 1;
  }

  /** Whether any of `start` to `end` (ms since the epoch, either way round) falls in the accepted days. */
  covers(start: number, end: number): boolean {
    const first = Math.floor(Math.min(start, end) / HOUR_MS);
    const last = Math.floor(Math.max(start, end) / HOUR_MS);
    return last >= this.firstHour && first <= this.lastHour;
  }

  /**
   * Adds a record of `steps` from `source` measured from `start` to `end` (ms since the epoch). A
   * record spanning several hours is shared between them by time: sources cut their records at
   * different moments (a phone every few minutes, a watch by workout, an app a whole day at once),
   * and comparing sources hour by hour is only fair if each hour holds the steps walked in it.
   */
  add(source: string, start: number, end: number, steps: number): void {
    if (!(steps > 0) || !Number.isFinite(start)) return;
    if (!(end > start)) {
      this.addToHour(Math.floor(start / HOUR_MS), source, steps);
      return;
    }
    const firstHour = Math.max(Math.floor(start / HOUR_MS), this.firstHour);
    const lastHour = Math.min(Math.floor((end - 1) / HOUR_MS), this.lastHour);
    const perMs = steps / (end - start);
    for (let hour = firstHour; hour <= lastHour; hour++) {
      const from = Math.max(start, hour * HOUR_MS);
      const to = Math.min(end, (hour + 1) * HOUR_MS);
      this.addToHour(hour, source, (to - from) * perMs);
    }
  }

  private addToHour(hour: number, source: string, steps: number): void {
    if (!this.dayOfHour.has(hour)) return;
    let sources = this.hours.get(hour);
    if (sources === undefined) {
      sources = new Map();
      this.hours.set(hour, sources);
    }
    sources.set(source, (sources.get(source) ?? 0) + steps);
  }

  /**
   * Each accepted day with steps, oldest first: per hour the largest source (an iPhone and an Apple
   * Watch both count the same walk, so adding them would count it twice), the day the sum of its
   * hours, rounded, capped at the daily maximum.
   */
  totals(): ImportedDay[] {
    const byDay = new Map<DayString, number>();
    for (const [hour, sources] of this.hours) {
      const day = this.dayOfHour.get(hour);
      if (day === undefined) continue;
      let largest = 0;
      for (const steps of sources.values()) largest = Math.max(largest, steps);
      byDay.set(day, (byDay.get(day) ?? 0) + largest);
    }
    return this.days.flatMap((day) => {
      const steps = Math.min(DAILY_STEP_MAX, Math.round(byDay.get(day) ?? 0));
      return steps > 0 ? [{ day, steps }] : [];
    });
  }
}
