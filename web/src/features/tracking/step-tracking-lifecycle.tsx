import { cleanupOldSteps } from "@charity-steps/client-store/local-steps";
import { startResetChecks } from "@charity-steps/client-store/resets";
import { checkStoreHealth, requestPersistentStorage } from "@charity-steps/client-store/store-health";
import { claimDeviceFor } from "@charity-steps/client-store/walker";
import { useQueryClient } from "@tanstack/react-query";
import { useEffect } from "react";
import { refreshStepQueries } from "../../lib/step-queries";
import { toast } from "../../lib/toast-store";
import { startSyncEngine } from "./sync-engine";
import { useTracking } from "./tracking-store";

export const STORE_LOST_TOAST = {
  title: "Saved steps were cleared",
  description:
    "Your browser removed this app's offline storage. Steps already synced are safe and shown here; steps this phone had not synced yet could not be recovered.",
} as const;

/**
 * Everything that runs while a walker is signed in, on every screen: tidy the
 * device's old days, restore step counting, the London daily and monthly resets, the sync engine,
 * and noting the time the app spends in the background (counting pauses then).
 */
export default function StepTrackingLifecycle({ userId }: { userId: string }) {
  const queryClient = useQueryClient();

  useEffect(() => {
    // Answers that arrive after the walker signed out (or the app closed) are not theirs to show.
    let stopped = false;
    const refresh = () => void refreshStepQueries(queryClient);
    const tracking = useTracking.getState();
    // The server took steps this tab counted: its totals changed.
    const stopRefreshingOnSteps = useTracking.subscribe((state, previous) => {
      if (state.stepsTakenByServer !== previous.stepsTakenByServer) refresh();
    });
    // A store the browser threw away is said so, instead of showing zeros as if nothing was walked.
    void checkStoreHealth()
      .then((health) => {
        if (health === "lost" && !stopped) {
          toast({ ...STORE_LOST_TOAST, variant: "destructive", duration: 15_000 });
          refresh();
        }
      })
      // Storage that refuses to open (some private modes) has nothing to check; counting goes on.
      .catch((error) => console.warn("Could not check the steps store", error))
      .finally(() => void requestPersistentStorage());
    // Another walker's steps on this device are set aside before anything counts or syncs.
    void claimDeviceFor(userId)
      .then(() => cleanupOldSteps())
      .then(() => tracking.restore());
    // A new London day or month changes what "today" and "this month" are on the server, so the
    // screens ask again. A device's first run (no reset before) changes nothing they already have.
    const stopResets = startResetChecks({
      onDailyReset: (result) => {
        if (result.previousDay !== null) refresh();
      },
      onMonthlyReset: (result) => {
        if (result.previousMonth !== null) refresh();
      },
    });
    const stopSync = startSyncEngine({ onSynced: refresh });

    const onVisibility = () => {
      if (document.visibilityState === "hidden") void tracking.noteHidden();
      else void tracking.noteReturned();
    };
    document.addEventListener("visibilitychange", onVisibility);
    return () => {
      stopped = true;
      stopResets();
      stopSync();
      document.removeEventListener("visibilitychange", onVisibility);
      stopRefreshingOnSteps();
      tracking.stop();
    };
  }, [userId, queryClient]);

  return null;
}
