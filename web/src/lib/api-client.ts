import { ApiError, apiRequest } from "@charity-steps/client-store/api-client";
import type { QueryFunction } from "@tanstack/react-query";

export { ApiError, apiRequest };

export type UnauthorizedBehavior = "returnNull" | "throw";

/** The path a query asks for: its key's segments joined with "/" (["/api/groups", 7] → /api/groups/7). */
export function queryPath(queryKey: readonly unknown[]): string {
  return queryKey.join("/");
}

/** GET on the query key's path (`queryPath`). */
export function getQueryFn<T>({ on401 }: { on401: UnauthorizedBehavior }): QueryFunction<T | null> {
  return async ({ queryKey }) => {
    try {
      return (await (await apiRequest("GET", queryPath(queryKey))).json()) as T;
    } catch (error) {
      if (on401 === "returnNull" && isUnauthorizedError(error)) return null;
      throw error;
    }
  };
}

/** True for the errors `apiRequest` throws when the session has ended. */
export function isUnauthorizedError(error: unknown): boolean {
  return error instanceof ApiError && error.status === 401;
}

/** The server's `{ message }` inside an `apiRequest` error, or `fallback` when there is none. */
export function serverMessage(error: unknown, fallback: string): string {
  // Anything else (a proxy's error page, a network failure) the fallback says better.
  return error instanceof ApiError && error.fromApi ? error.message : fallback;
}
