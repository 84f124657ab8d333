import { QUERY_CACHE_LIFETIME_MS } from "@charity-steps/shared-types";
import { QueryClient } from "@tanstack/react-query";
import { getQueryFn } from "./api-client";

/**
 * Query data never goes stale on its own and is never retried or polled; screens refresh
 * it explicitly after the writes that change it. A query that failed (no signal, say) is not asked
 * again because another screen shows it: it is asked again when the signal comes back, or when the
 * walker asks. Otherwise every screen that mounts while the first one waits would ask once more, and
 * a screen that remounts as it asks would ask without end.
 *
 * A read is asked even when the browser says it is offline ("offlineFirst"): the service worker
 * answers it from what it kept. Left to the library's default, a screen first opened after the
 * signal dropped would ask nothing at all and show its empty state ("No Groups Yet") for a walker
 * who has groups.
 */
export function createQueryClient(): QueryClient {
  return new QueryClient({
    defaultOptions: {
      queries: {
        queryFn: getQueryFn({ on401: "returnNull" }),
        staleTime: Number.POSITIVE_INFINITY,
        gcTime: QUERY_CACHE_LIFETIME_MS,
        retry: false,
        retryOnMount: false,
        refetchOnWindowFocus: false,
        refetchInterval: false,
        networkMode: "offlineFirst",
      },
      mutations: { retry: false },
    },
  });
}
