import { STEPS_PER_PRIZE_ENTRY } from "./constants.js";

/** One prize-draw entry per 10,000 steps walked in the month (not per day). */
export function prizeEntries(monthSteps: number): number {
  return Math.floor(Math.max(0, monthSteps) / STEPS_PER_PRIZE_ENTRY);
}

/** Steps still to walk this month before the next entry is earned. */
export function stepsToNextEntry(monthSteps: number): number {
  return STEPS_PER_PRIZE_ENTRY - (Math.max(0, monthSteps) % STEPS_PER_PRIZE_ENTRY);
}
