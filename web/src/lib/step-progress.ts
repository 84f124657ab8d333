import type { DashboardStatsResponse } from "@charity-steps/shared-types";
import { formatSteps } from "./format";

/** Today's share of the daily goal, in whole percent, at most 100. */
export function dailyGoalPercent(todaySteps: number, goal: number): number {
  return Math.min(100, Math.floor((todaySteps / goal) * 100));
}

/** "12,000 steps waiting for a quick check": why prize entries lag behind the steps shown. */
export function waitingStepsText(pendingSteps: number): string {
  return `${formatSteps(pendingSteps)} ${pendingSteps === 1 ? "step" : "steps"} waiting for a quick check`;
}

/**
 * The month's steps that count for prize entries, live: the steps shown (the server's and this
 * phone's unsynced ones, which are counted by motion and so eligible) less those the server holds
 * back (waiting for a check, or turned down).
 */
export function liveEligibleSteps(
  stats: Pick<DashboardStatsResponse, "monthlySteps" | "eligibleMonthSteps"> | null | undefined,
  monthSteps: number,
): number {
  if (!stats) return monthSteps;
  const heldBack = Math.max(0, stats.monthlySteps - stats.eligibleMonthSteps);
  return Math.max(0, monthSteps - heldBack);
}
