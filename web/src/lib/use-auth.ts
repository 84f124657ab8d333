import { AUTH_USER_CACHE_MS, type AuthUser } from "@charity-steps/shared-types";
import { queryOptions, useQuery } from "@tanstack/react-query";
import { useEffect } from "react";
import { getQueryFn } from "./api-client";
import { lastUser, rememberUser } from "./last-user";

export const AUTH_USER_QUERY_KEY = ["/api/auth/user"] as const;

export interface AuthState {
  /** The signed-in walker, or null when signed out (or not yet known). */
  user: AuthUser | null;
  isLoading: boolean;
  isAuthenticated: boolean;
  /** Set when the server could not be asked (offline, 5xx): signed-in state is then unknown. */
  error: Error | null;
  /** The server could not be reached and `user` is the walker last seen signed in on this device. */
  offline: boolean;
  retry: () => void;
}

/** `GET /api/auth/user`, where 401 means signed out; also fetched as the app starts. */
export const authUserQuery = queryOptions<AuthUser | null>({
  queryKey: AUTH_USER_QUERY_KEY,
  queryFn: getQueryFn<AuthUser>({ on401: "returnNull" }),
  staleTime: AUTH_USER_CACHE_MS,
  retry: false,
  // Offline, the signed-in screens mount under this query while it fails: each mount must not ask
  // again (a fetch with no answer yet shows the spinner, which unmounts them, and so on).
  retryOnMount: false,
});

/** Who is signed in. */
export function useAuth(): AuthState {
  const query = useQuery(authUserQuery);
  useEffect(() => {
    if (query.isSuccess) rememberUser(query.data);
  }, [query.isSuccess, query.data]);
  // Offline (or the server failing), the walker last signed in here keeps using the app; their
  // steps queue up and reach the server once it answers (a 401 then keeps them queued).
  const offlineUser = query.error ? lastUser() : null;
  const user = query.data ?? offlineUser;
  return {
    user,
    isLoading: query.isLoading,
    isAuthenticated: user !== null,
    error: offlineUser ? null : query.error,
    offline: offlineUser !== null,
    retry: () => void query.refetch(),
  };
}
