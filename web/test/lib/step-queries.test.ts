import { HttpResponse, http } from "msw";
import { describe, expect, it, vi } from "vitest";
import { createQueryClient } from "../../src/lib/query-client";
import { DASHBOARD_STATS_KEY, refreshStepQueries } from "../../src/lib/step-queries";
import { server } from "../support/server";

/** The dashboard's numbers, answered by the test one by one, in the order they were asked for. */
function heldStats() {
  const waiting: ((response: Response) => void)[] = [];
  server.use(
    http.get("/api/dashboard/stats", () => new Promise<Response>((resolve) => waiting.push(resolve))),
  );
  const answer = async (index: number, body: object) => {
    await vi.waitFor(() => expect(waiting[index]).toBeDefined());
    waiting[index]?.(HttpResponse.json(body));
  };
  return { asked: () => waiting.length, answer };
}

describe("refreshStepQueries", () => {
  it("asks again for numbers still on their way before their screen shows, so an older answer is not kept", async () => {
    const { asked, answer } = heldStats();
    const client = createQueryClient();
    // As the app starts, the dashboard's numbers are asked for before the dashboard shows...
    void client.prefetchQuery({ queryKey: DASHBOARD_STATS_KEY });
    // ...and a sync lands before they arrive: the server's first answer predates it.
    const refreshed = refreshStepQueries(client);
    await answer(0, { monthSteps: 100 });
    await answer(1, { monthSteps: 250 });
    await refreshed;

    expect(asked()).toBe(2);
    expect(client.getQueryData(DASHBOARD_STATS_KEY)).toEqual({ monthSteps: 250 });
  });

  it("only marks stale the numbers no screen shows and nothing is fetching, asking for nothing", async () => {
    const { asked } = heldStats();
    const client = createQueryClient();
    client.setQueryData(DASHBOARD_STATS_KEY, { monthSteps: 100 });

    await refreshStepQueries(client);

    expect(asked()).toBe(0);
    expect(client.getQueryState(DASHBOARD_STATS_KEY)?.isInvalidated).toBe(true);
  });
});
