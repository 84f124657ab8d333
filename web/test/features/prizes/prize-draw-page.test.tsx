import {
  type AuthUser,
  DEFAULT_DRAW_TIERS,
  DRAW_RULES_PATH,
  DRAWS_PATH,
  type DrawList,
  type DrawResults,
  drawMinePath,
  drawResultsPath,
  type MyDraw,
} from "@charity-steps/shared-types";
import { focusManager } from "@tanstack/react-query";
import { act, screen, waitFor, within } from "@testing-library/react";
import { HttpResponse, http, type JsonBodyType } from "msw";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { dashboardStats, signedInAs } from "../../support/handlers";
import { renderApp } from "../../support/render-app";
import { server } from "../../support/server";
import { trackingStartWatched } from "../../support/tracking-start";
import { testWalker } from "../../support/walker";

const commitment = "9f86d081884c7d659a2feaa0c55ad015a3bf4f1b2b0b822cd15d6c15b0f00a08";
const draw: DrawResults = {
  month: "2026-11",
  status: "open",
  commitment,
  closesAt: "2026-12-03T12:00:00.000Z",
  postalClosesAt: "2026-11-25T23:59:59.000Z",
  tiers: [...DEFAULT_DRAW_TIERS],
};
const address = "Charity Steps Prize Draw\nPO Box 123\nLondon AB1 2CD";

function stubApi() {
  server.use(
    signedInAs(testWalker),
    http.get(drawResultsPath("2026-11"), () => HttpResponse.json(draw)),
    http.get(DRAW_RULES_PATH, () => HttpResponse.json({ postalEntryAddress: address })),
  );
}

let trackingStarted: () => Promise<void>;
beforeEach(() => {
  trackingStarted = trackingStartWatched();
  vi.useFakeTimers({ toFake: ["Date"] });
  vi.setSystemTime(new Date("2026-11-21T12:00:00Z"));
});
afterEach(async () => {
  await trackingStarted();
  vi.useRealTimers();
});

describe("the prize draw's commitment and free postal route", () => {
  beforeEach(() => {
    stubApi();
  });

  it("the prize page shows this month's commitment, the closing dates and the postal address", async () => {
    renderApp("/prize-draw");
    expect((await screen.findByTestId("draw-commitment")).textContent).toBe(commitment);
    expect(screen.getByText(/This month's draw commitment:/)).toBeTruthy();
    expect(screen.getByTestId("postal-closing").textContent).toBe(
      "Free postal entries for this month's draw must arrive by 25 November 2026.",
    );
    expect(screen.getByText(/at 12:00 \(UK time\) on 3 December 2026/)).toBeTruthy();
    expect((await screen.findByTestId("postal-address")).textContent).toBe(address);
    expect(screen.getByText(/One entry per envelope/)).toBeTruthy();
    expect(screen.getByText(/same chance of winning as any other entry/)).toBeTruthy();
    expect(screen.getByText(/UK residents aged 18 or over/)).toBeTruthy();
  });

  it("the terms page's postal section shows the same address", async () => {
    renderApp("/terms");
    expect((await screen.findByTestId("postal-address")).textContent).toBe(address);
    expect(screen.getByText(/must arrive by the 25th of the month/)).toBeTruthy();
  });
});

describe("the prize page's layout", () => {
  /** A handler that answers only once `release` is called, as a slow connection would. */
  function heldAnswer<T extends JsonBodyType>(path: string, body: T) {
    let release = () => {};
    const released = new Promise<void>((resolve) => {
      release = resolve;
    });
    return {
      handler: http.get(path, async () => {
        await released;
        return HttpResponse.json(body);
      }),
      release: () => release(),
    };
  }

  it("shows its sections only once every card above them has its answer, so none moves under a tap", async () => {
    const lateDraw = heldAnswer(drawResultsPath("2026-11"), draw);
    const lateTickets = heldAnswer<MyDraw>(drawMinePath("2026-10"), {
      month: "2026-10",
      status: "closed",
      ticketCount: 3,
      tickets: ["aa01", "aa02", "aa03"],
      prizes: [],
    });
    server.use(
      signedInAs(testWalker),
      http.get(DRAWS_PATH, () =>
        HttpResponse.json({ draws: [{ month: "2026-10", status: "closed" }] } satisfies DrawList),
      ),
      http.get(DRAW_RULES_PATH, () => HttpResponse.json({ postalEntryAddress: address })),
      lateDraw.handler,
      lateTickets.handler,
    );
    renderApp("/prize-draw");
    await screen.findByRole("status");
    // Past the stats' answer, still waiting for the draw and the tickets.
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(screen.queryByText("Prize Categories")).toBeNull();
    expect(screen.queryByTestId("entry-count")).toBeNull();

    lateDraw.release();
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(screen.queryByText("Prize Categories")).toBeNull();

    lateTickets.release();
    await screen.findByText("Prize Categories");
    // Everything above the sections came in the same render as them.
    expect(screen.getByTestId("draw-commitment").textContent).toBe(commitment);
    expect(screen.getByTestId("my-tickets").textContent).toBe("Your tickets for October 2026: 3");
    expect(screen.getByTestId("postal-address").textContent).toBe(address);
    expect(screen.getByTestId("entry-count")).toBeTruthy();
  });
});

describe("the prize page's entries", () => {
  it("counts them from eligible steps, and says how many wait for a check", async () => {
    server.use(
      signedInAs(testWalker),
      http.get("/api/dashboard/stats", () =>
        HttpResponse.json(
          dashboardStats({ monthlySteps: 46_500, eligibleMonthSteps: 9_500, pendingMonthSteps: 37_000 }),
        ),
      ),
    );
    renderApp("/prize-draw");
    expect((await screen.findByTestId("entry-count")).textContent).toBe("0");
    expect(screen.getByText("Walk 500 more steps this month to earn your first prize entry")).toBeTruthy();
    expect(screen.getByText("46,500 steps walked this month")).toBeTruthy();
    expect(screen.getByTestId("entry-count-waiting").textContent).toBe(
      "37,000 steps waiting for a quick check",
    );
  });

  const withEntries = (user: AuthUser) =>
    server.use(
      signedInAs(user),
      http.get("/api/dashboard/stats", () =>
        HttpResponse.json(dashboardStats({ monthlySteps: 25_000, eligibleMonthSteps: 25_000 })),
      ),
    );

  it("says a walker with entries is eligible only once their email is confirmed", async () => {
    withEntries(testWalker);
    const confirmed = renderApp("/prize-draw");
    expect((await screen.findByTestId("entry-count")).textContent).toBe("2");
    expect(screen.getByText("Eligible for Prize Distribution!")).toBeTruthy();
    expect(screen.queryByTestId("draw-email-notice")).toBeNull();
    confirmed.unmount();

    withEntries({ ...testWalker, emailVerified: false });
    renderApp("/prize-draw");
    expect((await screen.findByTestId("entry-count")).textContent).toBe("2");
    expect(screen.getByText("Confirm your email to be in the draw")).toBeTruthy();
    expect(screen.queryByText("Eligible for Prize Distribution!")).toBeNull();
    expect(screen.getByTestId("draw-email-notice").textContent).toBe(
      "Only walkers with a confirmed email are in the prize draw. Follow the link we sent to ada@example.com, or send it again from Account.",
    );
    const notice = screen.getByTestId("draw-email-notice");
    expect(within(notice).getByRole("link", { name: "Account" }).getAttribute("href")).toBe("/account");
  });

  it("takes the notice away once the walker comes back having followed the link", async () => {
    withEntries({ ...testWalker, emailVerified: false });
    renderApp("/prize-draw");
    await screen.findByTestId("draw-email-notice");
    // Confirmed in another tab; this one comes back to the front.
    server.use(signedInAs(testWalker));
    act(() => {
      focusManager.setFocused(false);
      focusManager.setFocused(true);
    });
    await waitFor(() => expect(screen.queryByTestId("draw-email-notice")).toBeNull());
    expect(screen.getByText("Eligible for Prize Distribution!")).toBeTruthy();
    focusManager.setFocused(undefined);
  });

  it("sends a walker of another sign-in service to that service to confirm their email", async () => {
    withEntries({ ...testWalker, emailVerified: false, accountKind: "external" });
    renderApp("/prize-draw");
    expect((await screen.findByTestId("draw-email-notice")).textContent).toBe(
      "Only walkers with a confirmed email are in the prize draw. Confirm your email with the service you sign in with, then sign out and sign in here again.",
    );
  });
});
