import {
  ACCOUNT_PREFERENCES_PATH,
  NOTIFICATION_PREFERENCES_PATH,
  NOTIFICATIONS_PATH,
  NOTIFICATIONS_READ_PATH,
  type NotificationPreferences,
  type NotificationPreferencesUpdate,
  type NotificationsResponse,
} from "@charity-steps/shared-types";
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { apiRequest } from "../../lib/api-client";

export const NOTIFICATIONS_KEY = [NOTIFICATIONS_PATH] as const;
export const NOTIFICATION_PREFERENCES_KEY = [NOTIFICATION_PREFERENCES_PATH] as const;

/** The walker's latest notifications and how many are unread; looked at again every minute. */
export function useNotifications() {
  return useQuery<NotificationsResponse | null>({ queryKey: NOTIFICATIONS_KEY, refetchInterval: 60_000 });
}

/** Marks the given notifications read, or all of them when given none. */
export function useMarkRead() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async (ids?: string[]) =>
      (await (await apiRequest("POST", NOTIFICATIONS_READ_PATH, ids ? { ids } : {})).json()) as {
        unread: number;
      },
    onSuccess: () => queryClient.invalidateQueries({ queryKey: NOTIFICATIONS_KEY }),
  });
}

export function useNotificationPreferences() {
  return useQuery<NotificationPreferences | null>({ queryKey: NOTIFICATION_PREFERENCES_KEY });
}

/**
 * Saves part of the notification preferences; the answer (all of them) replaces what is shown. The
 * week's summary by email is also the Account page's own switch: that one is asked again.
 */
export function useSaveNotificationPreferences() {
  const queryClient = useQueryClient();
  return useMutation({
    // One change at a time, in the order made: two on their way at once could be answered out of
    // order, and the older answer would then show (and on the server, win) over the newer.
    scope: { id: "notification-preferences" },
    mutationFn: async (change: NotificationPreferencesUpdate) =>
      (await (
        await apiRequest("PUT", NOTIFICATION_PREFERENCES_PATH, change)
      ).json()) as NotificationPreferences,
    onSuccess: async (saved, change) => {
      queryClient.setQueryData(NOTIFICATION_PREFERENCES_KEY, saved);
      if (change.kinds?.weekly_summary?.email !== undefined) {
        await queryClient.invalidateQueries({ queryKey: [ACCOUNT_PREFERENCES_PATH] });
      }
    },
  });
}
