import { isCachedApiRead } from "@charity-steps/client-store/api-cache";
import type { Query, QueryClient } from "@tanstack/react-query";

/** What the page needs of its service worker container (`navigator.serviceWorker`). */
export type WorkerContainer = Pick<ServiceWorkerContainer, "controller" | "addEventListener">;

/**
 * Asks again, through the service worker, for what the page read before the worker controlled it.
 * On a walker's first visit the worker installs while the first screens load, and their reads go
 * straight to the network: the worker keeps no copy of them for offline, and since screens do not
 * ask again for what they have, a walker who loses signal before their next visit would have none.
 * Only a page that started without a worker waits for one (a page that had one is already kept).
 */
export function keepReadsOnceControlled(
  queryClient: QueryClient,
  container: WorkerContainer | undefined = navigator.serviceWorker,
): void {
  if (!container || container.controller) return;
  container.addEventListener("controllerchange", () => void askAgainThroughWorker(queryClient), {
    once: true,
  });
}

/**
 * The reads the worker keeps that the page has, or has on their way: one on its way went out before
 * the worker and would be kept by nobody, so it is called off and asked for again. Reads that failed
 * are left for the screens, which ask again when the signal returns.
 */
async function askAgainThroughWorker(queryClient: QueryClient): Promise<void> {
  // A read's key is its path (the app's default query function asks for `queryKey.join("/")`).
  const kept = (query: Query) => {
    try {
      return isCachedApiRead(new URL(query.queryKey.join("/"), location.origin), location.origin, "GET");
    } catch {
      return false;
    }
  };
  const reads = queryClient.getQueryCache().findAll({
    predicate: (query) =>
      kept(query) && (query.state.status === "success" || query.state.fetchStatus === "fetching"),
  });
  if (reads.length === 0) return;
  const these = { predicate: (query: Query) => reads.includes(query) };
  await queryClient.cancelQueries(these);
  await queryClient.refetchQueries(these);
}
