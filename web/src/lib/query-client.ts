import { QUERY_CACHE_LIFETIME_MS } from "@charity-steps/shared-types";
import { QueryClient } from "@tanstack/react-query";
import { getQueryFn } from "./api-client";

/**
 * Query data never goes stale on its own and is never retried or polled; screens refresh
 * it explicitly after the writes that change it.
 */
export function createQueryClient(): QueryClient {
  return new QueryClient({
    defaultOptions: {
      queries: {
        queryFn: getQueryFn({ on401: "returnNull" }),
        staleTime: Number.POSITIVE_INFINITY,
        gcTime: QUERY_CACHE_LIFETIME_MS,
        retry: false,
        refetchOnWindowFocus: false,
        refetchInterval: false,
      },
      mutations: { retry: false },
    },
  });
}
