import type { Query, QueryClient } from "@tanstack/react-query";
import { apiRequest, queryPath } from "./api-client";

/** What the page needs of its service worker container (`navigator.serviceWorker`). */
export type WorkerContainer = Pick<ServiceWorkerContainer, "controller" | "addEventListener">;

/**
 * Gives the service worker its copies of what the page read before the worker controlled it. On a
 * walker's first visit the worker installs while the first screens load, and their reads go
 * straight to the network: the worker keeps no copy of them for offline, and since screens do not
 * ask again for what they have, a walker who loses signal before their next visit would have none.
 * Only a page that started without a worker waits for one (a page that had one is already kept).
 */
export function keepReadsOnceControlled(
  queryClient: QueryClient,
  container: WorkerContainer | undefined = navigator.serviceWorker,
): void {
  if (!container || container.controller) return;
  container.addEventListener("controllerchange", () => void askThroughWorker(queryClient), {
    once: true,
  });
}

/**
 * Asks once more, through the worker, for each API read the page has or has on its way (one on its
 * way went out before the worker). The answers are for the worker to keep: the screens keep what
 * they show, so nothing is parsed or drawn again. Reads that failed are left for the screens, which
 * ask again when the signal returns. A read is asked for at its key's path (`queryPath`, as the
 * app's default query function asks); one the worker does not keep (who is signed in, an
 * operator's) costs a request once, less than the worker's rule would add to the app's first script.
 * A read with a query function of its own is left for its screen.
 */
async function askThroughWorker(queryClient: QueryClient): Promise<void> {
  // Only a read made by the default query function was asked for at its key's path: a query with
  // a function of its own (an operator's draw, say) may ask an address its key does not spell.
  const askedAtItsPath = queryClient.getDefaultOptions().queries?.queryFn;
  const read = (query: Query) =>
    query.options.queryFn === askedAtItsPath &&
    queryPath(query.queryKey).startsWith("/api/") &&
    (query.state.status === "success" || query.state.fetchStatus === "fetching");
  const paths = new Set(
    queryClient
      .getQueryCache()
      .findAll({ predicate: read })
      .map((query) => queryPath(query.queryKey)),
  );
  await Promise.all(
    [...paths].map((path) =>
      apiRequest("GET", path).then(
        (response) => response.body?.cancel(),
        // No copy this time: the screen's next read through the worker keeps one.
        () => undefined,
      ),
    ),
  );
}
