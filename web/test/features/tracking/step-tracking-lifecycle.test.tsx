import { db, getMeta } from "@charity-steps/client-store/db";
import { STORE_MARKER_KEY } from "@charity-steps/client-store/store-health";
import { QueryClientProvider } from "@tanstack/react-query";
import { render } from "@testing-library/react";
import { beforeEach, describe, expect, it, vi } from "vitest";
import StepTrackingLifecycle, {
  STORE_LOST_TOAST,
} from "../../../src/features/tracking/step-tracking-lifecycle";
import { useTracking } from "../../../src/features/tracking/tracking-store";
import { createQueryClient } from "../../../src/lib/query-client";
import { DASHBOARD_STATS_KEY } from "../../../src/lib/step-queries";
import { useToastStore } from "../../../src/lib/toast-store";
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

  it("says when the browser cleared the steps store, but not once the walker has signed out", async () => {
    const lifecycle = () => (
      <QueryClientProvider client={createQueryClient()}>
        <StepTrackingLifecycle userId="user-1" />
      </QueryClientProvider>
    );
    // A marker kept in localStorage with none in the (emptied) store: the store was lost.
    localStorage.setItem(STORE_MARKER_KEY, "an-earlier-store");
    const signedOut = render(lifecycle());
    signedOut.unmount();
    await vi.waitFor(async () => expect(await getMeta("storeMarker")).toBeDefined());
    await new Promise((resolve) => setTimeout(resolve, 0));
    expect(useToastStore.getState().current).toBeNull();

    await db.delete();
    await db.open();
    localStorage.setItem(STORE_MARKER_KEY, "an-earlier-store");
    render(lifecycle());
    await vi.waitFor(() =>
      expect(useToastStore.getState().current).toMatchObject({ title: STORE_LOST_TOAST.title }),
    );
  });
});
