import {
  ACCOUNT_PREFERENCES_PATH,
  type AuthUser,
  type PreferencesResponse,
  type PreferencesUpdate,
} from "@charity-steps/shared-types";
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { apiRequest } from "../../lib/api-client";
import { DASHBOARD_STATS_KEY } from "../../lib/step-queries";
import { AUTH_USER_QUERY_KEY } from "../../lib/use-auth";

export const PREFERENCES_KEY = [ACCOUNT_PREFERENCES_PATH] as const;

export function usePreferences() {
  return useQuery<PreferencesResponse | null>({ queryKey: PREFERENCES_KEY });
}

/**
 * Saves any of the walker's settings. The signed-in walker (who carries the theme and the welcome's
 * end) and the dashboard (which shows the goal) take the answer at once.
 */
export function useSavePreferences() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async (change: PreferencesUpdate) =>
      (await (await apiRequest("PUT", ACCOUNT_PREFERENCES_PATH, change)).json()) as PreferencesResponse,
    onSuccess: async (saved) => {
      queryClient.setQueryData(PREFERENCES_KEY, saved);
      queryClient.setQueryData<AuthUser | null>(AUTH_USER_QUERY_KEY, (user) =>
        user ? { ...user, theme: saved.theme, onboardedAt: saved.onboardedAt } : user,
      );
      await queryClient.invalidateQueries({ queryKey: DASHBOARD_STATS_KEY });
    },
  });
}
