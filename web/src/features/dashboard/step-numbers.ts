import { MONTHLY_STEP_GOAL, prizeEntries, stepsToNextEntry } from "@charity-steps/shared-types";
import { formatSteps } from "../../lib/format";

/** The wordings of the dashboard's tiles, from the month's and today's steps. */
export function monthlyProgressText(monthSteps: number): string {
  const remaining = MONTHLY_STEP_GOAL - monthSteps;
  return remaining > 0 ? `${formatSteps(remaining)} steps remaining` : "Goal Achieved!";
}

export function prizeEntriesText(monthSteps: number): string {
  const toNext = stepsToNextEntry(monthSteps);
  return prizeEntries(monthSteps) === 0
    ? `Need ${formatSteps(toNext)} more steps for first entry`
    : `${formatSteps(toNext)} steps until next entry`;
}

/** What a screen reader says for the monthly ring: "42,318 of 100,000 steps this month". */
export function monthlyRingText(monthSteps: number): string {
  return `${formatSteps(monthSteps)} of ${formatSteps(MONTHLY_STEP_GOAL)} steps this month`;
}
