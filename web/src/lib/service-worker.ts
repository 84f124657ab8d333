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

/**
 * Whether this page started without a service worker: the walker's first visit (or a hard reload).
 * Read once, as the page starts: a worker taking it later does not change what loaded it.
 */
const startedWithoutWorker = typeof navigator !== "undefined" && !navigator.serviceWorker?.controller;

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
    reload: async () => {
      // workbox-window reloads the page when the new version takes it only if a worker already ran
      // the page when it started: a page from the walker's first visit would stay on the old
      // version, the prompt still showing, whatever they tapped.
      if (startedWithoutWorker) {
        navigator.serviceWorker?.addEventListener("controllerchange", () => window.location.reload(), {
          once: true,
        });
      }
      await updateServiceWorker(true);
    },
    dismiss: () => setUpdateAvailable(false),
  };
}
