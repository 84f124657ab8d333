import { setMeta } from "@charity-steps/client-store/db";
import { cleanupOldSteps } from "@charity-steps/client-store/local-steps";
import { startResetChecks } from "@charity-steps/client-store/resets";
import { useQueryClient } from "@tanstack/react-query";
import { useEffect } from "react";
import { refreshStepQueries } from "../../lib/step-queries";
import { startSyncEngine } from "./sync-engine";
import { useTracking } from "./tracking-store";

/** Fired on `window` when the London day changes (spec §4), after the local daily reset. */
export const DAILY_RESET_EVENT = "dailyReset";

/**
 * Everything that runs while a walker is signed in, on every screen (spec §4, DESIGN §7): tidy the
 * device's old days, restore step counting, the London daily and monthly resets, the sync engine,
 * and the background estimate when the app comes back to the front.
 */
export default function StepTrackingLifecycle({ userId }: { userId: string }) {
  const queryClient = useQueryClient();

  useEffect(() => {
    const refresh = () => void refreshStepQueries(queryClient);
    void setMeta("cachedUserId", userId);
    void cleanupOldSteps().then(() => useTracking.getState().restore());
    const stopResets = startResetChecks({
      onDailyReset: (result) => {
        window.dispatchEvent(new CustomEvent(DAILY_RESET_EVENT, { detail: result }));
        refresh();
      },
      onMonthlyReset: refresh,
    });
    const stopSync = startSyncEngine({ onSynced: refresh });

    let hiddenAt: number | null = null;
    const onVisibility = () => {
      if (document.visibilityState === "hidden") {
        hiddenAt = Date.now();
      } else if (hiddenAt !== null) {
        const since = hiddenAt;
        hiddenAt = null;
        void useTracking.getState().returnFromBackground(since);
      }
    };
    document.addEventListener("visibilitychange", onVisibility);
    return () => {
      stopResets();
      stopSync();
      document.removeEventListener("visibilitychange", onVisibility);
    };
  }, [userId, queryClient]);

  return null;
}
