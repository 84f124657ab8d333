import { AUTH_USER_CACHE_MS, type AuthUser } from "@charity-steps/shared-types";
import { useQuery } from "@tanstack/react-query";
import { getQueryFn } from "../../lib/api-client";

export const AUTH_USER_QUERY_KEY = ["/api/auth/user"] as const;

export interface AuthState {
  /** The signed-in walker, or null when signed out (or not yet known). */
  user: AuthUser | null;
  isLoading: boolean;
  isAuthenticated: boolean;
  /** Set when the server could not be asked (offline, 5xx): signed-in state is then unknown. */
  error: Error | null;
  retry: () => void;
}

/** Who is signed in: `GET /api/auth/user`, where 401 means signed out (spec §7). */
export function useAuth(): AuthState {
  const query = useQuery<AuthUser | null>({
    queryKey: AUTH_USER_QUERY_KEY,
    queryFn: getQueryFn<AuthUser>({ on401: "returnNull" }),
    staleTime: AUTH_USER_CACHE_MS,
    retry: false,
  });
  const user = query.data ?? null;
  return {
    user,
    isLoading: query.isLoading,
    isAuthenticated: user !== null,
    error: query.error,
    retry: () => void query.refetch(),
  };
}
