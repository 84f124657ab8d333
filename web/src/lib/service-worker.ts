import { useRegisterSW } from "virtual:pwa-register/react";

// An installed app can stay open for days without a navigation (which is when browsers look for a
// new service worker), so it also asks every hour.
const UPDATE_CHECK_INTERVAL_MS = 60 * 60_000;

export interface ServiceWorkerUpdate {
  updateAvailable: boolean;
  /** Activates the waiting service worker, then reloads the page onto the new version. */
  reload: () => Promise<void>;
  dismiss: () => void;
}

/** Registers the service worker and reports when a new version is waiting. */
export function useServiceWorkerUpdate(): ServiceWorkerUpdate {
  const {
    needRefresh: [updateAvailable, setUpdateAvailable],
    updateServiceWorker,
  } = useRegisterSW({
    onRegisteredSW(_url, registration) {
      if (!registration) return;
      setInterval(() => {
        if (navigator.onLine && !registration.installing) void registration.update();
      }, UPDATE_CHECK_INTERVAL_MS);
    },
    onRegisterError(error) {
      console.error("Service worker registration failed", error);
    },
  });

  return {
    updateAvailable,
    reload: () => updateServiceWorker(true),
    dismiss: () => setUpdateAvailable(false),
  };
}
