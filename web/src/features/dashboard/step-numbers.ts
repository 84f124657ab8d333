import {
  DAILY_STEP_GOAL,
  MONTHLY_STEP_GOAL,
  prizeEntries,
  stepsToNextEntry,
} from "@charity-steps/shared-types";

const numberFormat = new Intl.NumberFormat("en-GB");
export const formatSteps = (steps: number) => numberFormat.format(steps);

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

export function dailyGoalPercent(todaySteps: number): number {
  return Math.min(100, Math.floor((todaySteps / DAILY_STEP_GOAL) * 100));
}
