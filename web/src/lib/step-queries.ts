import type { QueryClient } from "@tanstack/react-query";

/** The dashboard's numbers and its chart's days. */
export const DASHBOARD_STATS_KEY = ["/api/dashboard/stats"] as const;
export const STEP_HISTORY_KEY = ["/api/steps/history"] as const;

/** What a step event or sync changes on the server: the queries to refresh. */
export const STEP_QUERY_KEYS = [
  ["/api/steps/today"],
  ["/api/steps/monthly"],
  STEP_HISTORY_KEY,
  DASHBOARD_STATS_KEY,
  ["/api/charity/current"],
  ["/api/revenue/current"],
  ["/api/subscription/status"],
] as const;

/**
 * Marks the step queries stale and asks again for those a screen shows. One asked for before its
 * screen showed (as the app starts) may still be on its way with the server's answer from before the
 * change, which would then be kept as fresh: it is called off and asked for again.
 */
export async function refreshStepQueries(queryClient: QueryClient): Promise<void> {
  await Promise.all(
    STEP_QUERY_KEYS.map(async (queryKey) => {
      await queryClient.invalidateQueries({ queryKey });
      const early = { queryKey, type: "inactive", fetchStatus: "fetching" } as const;
      const onTheirWay = queryClient.getQueryCache().findAll(early);
      if (onTheirWay.length === 0) return;
      await queryClient.cancelQueries(early);
      await Promise.all(onTheirWay.map((query) => queryClient.prefetchQuery({ queryKey: query.queryKey })));
    }),
  );
}
