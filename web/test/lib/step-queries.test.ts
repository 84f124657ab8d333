import { afterEach, describe, expect, it, vi } from "vitest";
import { createQueryClient } from "../../src/lib/query-client";
import { DASHBOARD_STATS_KEY, refreshStepQueries } from "../../src/lib/step-queries";

afterEach(() => vi.unstubAllGlobals());

/** A fetch whose answers the test hands out one by one, in the order they were asked for. */
function heldFetch() {
  const waiting: ((response: Response) => void)[] = [];
  const fetchMock = vi.fn(() => new Promise<Response>((resolve) => waiting.push(resolve)));
  vi.stubGlobal("fetch", fetchMock);
  const answer = async (index: number, body: object) => {
    await vi.waitFor(() => expect(waiting[index]).toBeDefined());
    waiting[index]?.(Response.json(body));
  };
  return { fetchMock, answer };
}

describe("refreshStepQueries", () => {
  it("asks again for numbers still on their way before their screen shows, so an older answer is not kept", async () => {
    const { fetchMock, answer } = heldFetch();
    const client = createQueryClient();
    // As the app starts, the dashboard's numbers are asked for before the dashboard shows...
    void client.prefetchQuery({ queryKey: DASHBOARD_STATS_KEY });
    // ...and a sync lands before they arrive: the server's first answer predates it.
    const refreshed = refreshStepQueries(client);
    await answer(0, { monthSteps: 100 });
    await answer(1, { monthSteps: 250 });
    await refreshed;

    expect(fetchMock).toHaveBeenCalledTimes(2);
    expect(client.getQueryData(DASHBOARD_STATS_KEY)).toEqual({ monthSteps: 250 });
  });

  it("only marks stale the numbers no screen shows and nothing is fetching, asking for nothing", async () => {
    const { fetchMock } = heldFetch();
    const client = createQueryClient();
    client.setQueryData(DASHBOARD_STATS_KEY, { monthSteps: 100 });

    await refreshStepQueries(client);

    expect(fetchMock).not.toHaveBeenCalled();
    expect(client.getQueryState(DASHBOARD_STATS_KEY)?.isInvalidated).toBe(true);
  });
});
