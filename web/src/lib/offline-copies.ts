import type { QueryClient } from "@tanstack/react-query";

/** What the page needs of its service worker container (`navigator.serviceWorker`). */
export type WorkerContainer = Pick<ServiceWorkerContainer, "controller" | "addEventListener">;

/**
 * Asks again, through the service worker, for what the page read before the worker controlled it.
 * On a walker's first visit the worker installs while the first screens load, and their reads go
 * straight to the network: the worker keeps no copy of them for offline, and since screens do not
 * ask again for what they have, a walker who loses signal before their next visit would have none.
 * Only a page that started without a worker waits for one: a new version taking over reloads it.
 */
export function keepReadsOnceControlled(
  queryClient: QueryClient,
  container: WorkerContainer | undefined = navigator.serviceWorker,
): void {
  if (!container || container.controller) return;
  container.addEventListener(
    "controllerchange",
    () => {
      void queryClient.refetchQueries({ predicate: (query) => query.state.status === "success" });
    },
    { once: true },
  );
}
