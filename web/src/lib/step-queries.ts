import type { QueryClient } from "@tanstack/react-query";

/** What a step event or sync changes on the server: the spec's list of queries to refresh (§7). */
export const STEP_QUERY_KEYS = [
  ["/api/steps/today"],
  ["/api/steps/monthly"],
  ["/api/steps/history"],
  ["/api/dashboard/stats"],
  ["/api/charity/current"],
  ["/api/revenue/current"],
  ["/api/subscription/status"],
] as const;

export async function refreshStepQueries(queryClient: QueryClient): Promise<void> {
  await Promise.all(STEP_QUERY_KEYS.map((queryKey) => queryClient.invalidateQueries({ queryKey })));
}
