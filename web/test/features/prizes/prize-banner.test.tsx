import { MY_PRIZES_PATH } from "@charity-steps/shared-types";
import { QueryClientProvider } from "@tanstack/react-query";
import { render, screen } from "@testing-library/react";
import { HttpResponse, http } from "msw";
import { MemoryRouter } from "react-router-dom";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { PrizeBanner } from "../../../src/features/prizes/prize-banner";
import { createQueryClient } from "../../../src/lib/query-client";
import { signedInAs } from "../../support/handlers";
import { renderApp } from "../../support/render-app";
import { server } from "../../support/server";
import { trackingStartWatched } from "../../support/tracking-start";
import { testWalker } from "../../support/walker";
import { prize } from "./draw-fixtures";

function renderBanner() {
  const queryClient = createQueryClient();
  const view = render(
    <MemoryRouter>
      <QueryClientProvider client={queryClient}>
        <PrizeBanner />
      </QueryClientProvider>
    </MemoryRouter>,
  );
  return { ...view, queryClient };
}

describe("the dashboard's prize banner", () => {
  beforeEach(() => {
    vi.useFakeTimers({ toFake: ["Date"] });
    vi.setSystemTime(new Date("2026-11-04T09:00:00Z"));
  });
  afterEach(() => {
    vi.useRealTimers();
  });

  it("tells a winner of a prize awaiting claim what they won and by when, with a link to claim", async () => {
    server.use(
      http.get(MY_PRIZES_PATH, () =>
        HttpResponse.json({
          prizes: [prize(), prize({ id: "prize-2", month: "2026-09", status: "claimed" })],
        }),
      ),
    );
    renderBanner();
    const banner = await screen.findByTestId("prize-banner");
    expect(banner.textContent).toContain(
      "You won a Gold prize in the October 2026 draw! Claim it by 17 November 2026.",
    );
    expect(screen.getAllByTestId("prize-banner")).toHaveLength(1);
    expect(screen.getByRole("link", { name: "Claim your Gold prize" }).getAttribute("href")).toBe(
      "/prizes/prize-1/claim",
    );
  });

  it("says an before a tier an operator named with a vowel first", async () => {
    server.use(http.get(MY_PRIZES_PATH, () => HttpResponse.json({ prizes: [prize({ tier: "Eco" })] })));
    renderBanner();
    const banner = await screen.findByTestId("prize-banner");
    expect(banner.textContent).toContain(
      "You won an Eco prize in the October 2026 draw! Claim it by 17 November 2026.",
    );
  });

  it("shows nothing when no prize awaits a claim, nor when the prizes cannot be loaded", async () => {
    server.use(http.get(MY_PRIZES_PATH, () => HttpResponse.json({ prizes: [prize({ status: "claimed" })] })));
    const first = renderBanner();
    await vi.waitFor(() => expect(first.queryClient.getQueryState([MY_PRIZES_PATH])?.status).toBe("success"));
    expect(first.container.innerHTML).toBe("");
    first.unmount();

    server.use(
      http.get(MY_PRIZES_PATH, () =>
        HttpResponse.json({ message: "Something went wrong." }, { status: 500 }),
      ),
    );
    const second = renderBanner();
    expect(second.container.innerHTML).toBe("");
    await vi.waitFor(() => expect(second.queryClient.getQueryState([MY_PRIZES_PATH])?.status).toBe("error"));
    expect(second.container.innerHTML).toBe("");
  });

  it("is on the dashboard, above the month's progress", async () => {
    const trackingStarted = trackingStartWatched();
    server.use(
      signedInAs(testWalker),
      http.get(MY_PRIZES_PATH, () => HttpResponse.json({ prizes: [prize()] })),
    );
    renderApp("/dashboard");
    const banner = await screen.findByTestId("prize-banner");
    const progress = screen.getByRole("heading", { name: "Monthly Progress" });
    expect(banner.compareDocumentPosition(progress) & Node.DOCUMENT_POSITION_FOLLOWING).toBeTruthy();
    await trackingStarted();
  });
});
