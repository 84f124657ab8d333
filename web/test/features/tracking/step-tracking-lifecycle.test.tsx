import { db } from "@charity-steps/client-store/db";
import { QueryClientProvider } from "@tanstack/react-query";
import { render } from "@testing-library/react";
import { beforeEach, describe, expect, it, vi } from "vitest";
import StepTrackingLifecycle from "../../../src/features/tracking/step-tracking-lifecycle";
import { useTracking } from "../../../src/features/tracking/tracking-store";
import { createQueryClient } from "../../../src/lib/query-client";
import { DASHBOARD_STATS_KEY } from "../../../src/lib/step-queries";
import { trackingStartWatched } from "../../support/tracking-start";

beforeEach(async () => {
  await db.delete();
  await db.open();
});

/** The server took steps this tab counted, as the real-time sync reports it to the store. */
const serverTookSteps = () =>
  useTracking.setState((state) => ({ stepsTakenByServer: state.stepsTakenByServer + 1 }));

describe("the signed-in walker's step tracking", () => {
  it("has the screens ask for the server's totals again each time it takes steps, until sign-out", async () => {
    const trackingStarted = trackingStartWatched();
    const queryClient = createQueryClient();
    const view = render(
      <QueryClientProvider client={queryClient}>
        <StepTrackingLifecycle userId="user-1" />
      </QueryClientProvider>,
    );
    await trackingStarted();
    const numbersStale = () => queryClient.getQueryState(DASHBOARD_STATS_KEY)?.isInvalidated;

    queryClient.setQueryData(DASHBOARD_STATS_KEY, { monthlySteps: 100 });
    serverTookSteps();
    await vi.waitFor(() => expect(numbersStale()).toBe(true));

    // Signed out, the lifecycle is gone: a sync the server takes later refreshes nothing.
    view.unmount();
    queryClient.setQueryData(DASHBOARD_STATS_KEY, { monthlySteps: 200 });
    serverTookSteps();
    await new Promise((resolve) => setTimeout(resolve, 0));
    expect(numbersStale()).toBe(false);
  });
});
