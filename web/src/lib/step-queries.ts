import type { QueryClient } from "@tanstack/react-query";

/** The dashboard's numbers and its chart's days. */
export const DASHBOARD_STATS_KEY = ["/api/dashboard/stats"] as const;
export const STEP_HISTORY_KEY = ["/api/steps/history"] as const;

/** What a step event or sync changes on the server: the spec's list of queries to refresh (§7). */
export const STEP_QUERY_KEYS = [
  ["/api/steps/today"],
  ["/api/steps/monthly"],
  STEP_HISTORY_KEY,
  DASHBOARD_STATS_KEY,
  ["/api/charity/current"],
  ["/api/revenue/current"],
  ["/api/subscription/status"],
] as const;

export async function refreshStepQueries(queryClient: QueryClient): Promise<void> {
  await Promise.all(STEP_QUERY_KEYS.map((queryKey) => queryClient.invalidateQueries({ queryKey })));
}
