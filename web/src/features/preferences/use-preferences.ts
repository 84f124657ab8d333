import {
  ACCOUNT_PREFERENCES_PATH,
  type AuthUser,
  NOTIFICATION_PREFERENCES_PATH,
  type PreferencesResponse,
  type PreferencesUpdate,
} from "@charity-steps/shared-types";
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { apiRequest } from "../../lib/api-client";
import { DASHBOARD_STATS_KEY } from "../../lib/step-queries";
import { toast } from "../../lib/toast-store";
import { handleUnauthorizedError } from "../../lib/unauthorized";
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
    // A theme picked just before a reload is kept: the request outlives the page.
    mutationFn: async (change: PreferencesUpdate) =>
      (await (
        await apiRequest("PUT", ACCOUNT_PREFERENCES_PATH, change, {}, { keepalive: true })
      ).json()) as PreferencesResponse,
    onSuccess: async (saved, change) => {
      queryClient.setQueryData(PREFERENCES_KEY, saved);
      // The weekly email is also the Notifications section's "Your week" email switch.
      if (change.weeklyEmail !== undefined) {
        await queryClient.invalidateQueries({ queryKey: [NOTIFICATION_PREFERENCES_PATH] });
      }
      queryClient.setQueryData<AuthUser | null>(AUTH_USER_QUERY_KEY, (user) =>
        user ? { ...user, theme: saved.theme, onboardedAt: saved.onboardedAt } : user,
      );
      await queryClient.invalidateQueries({ queryKey: DASHBOARD_STATS_KEY });
    },
  });
}

/** What a settings control does once the change is saved, or however it ended. */
interface SaveOutcome {
  onSuccess?: (saved: PreferencesResponse) => void;
  onSettled?: () => void;
}

/**
 * `useSavePreferences` for a settings control: `change` saves, and a failure says so in a toast (a
 * session that has ended goes to sign in instead).
 */
export function useChangePreferences() {
  const save = useSavePreferences();
  const change = (update: PreferencesUpdate, outcome: SaveOutcome = {}) =>
    save.mutate(update, {
      ...outcome,
      onError: (error) => {
        if (handleUnauthorizedError(error)) return;
        toast({
          title: "Not saved",
          description: error instanceof Error ? error.message : "Please try again.",
          variant: "destructive",
        });
      },
    });
  return { change, isPending: save.isPending };
}
