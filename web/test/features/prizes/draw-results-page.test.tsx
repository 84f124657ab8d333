import { DRAW_MESSAGES, drawResultsPath, drawTicketsPath } from "@charity-steps/shared-types";
import { screen, within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { HttpResponse, http } from "msw";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { renderApp } from "../../support/render-app";
import { server } from "../../support/server";
import { chainHash, commitment, drawnOctober, openDraw, seed, ticketListSha256 } from "./draw-fixtures";

// The page is public: a visitor, signed out (as the API answers by default), sees all of it.

describe("a month's public draw results", () => {
  beforeEach(() => {
    vi.useFakeTimers({ toFake: ["Date"] });
    vi.setSystemTime(new Date("2026-11-21T12:00:00Z"));
  });
  afterEach(() => {
    vi.useRealTimers();
  });

  it("before the draw: when it closes (London time) and the commitment, no seed and no winners", async () => {
    server.use(http.get(drawResultsPath("2026-11"), () => HttpResponse.json(openDraw)));
    renderApp("/prize-draw/results/2026-11");
    expect(await screen.findByRole("heading", { level: 1, name: "November 2026 prize draw" })).toBeTruthy();
    expect(screen.getByTestId("draw-status").textContent).toBe("Open: entries are still being counted");
    expect(screen.getByTestId("draw-closes").textContent).toBe(
      "This draw closes on 3 December 2026 at 12:00 (London time).",
    );
    expect(screen.getByTestId("draw-commitment").textContent).toBe(commitment);
    expect(screen.queryByTestId("draw-seed")).toBeNull();
    expect(screen.queryByRole("heading", { name: "Winners" })).toBeNull();
    expect(screen.queryByRole("heading", { name: "How to check this draw yourself" })).toBeNull();
  });

  it("set up ahead for next month: says the month has not begun, not that entries are being counted", async () => {
    server.use(
      http.get(drawResultsPath("2026-12"), () =>
        HttpResponse.json({ ...openDraw, month: "2026-12", closesAt: "2027-01-03T12:00:00.000Z" }),
      ),
    );
    renderApp("/prize-draw/results/2026-12");
    expect((await screen.findByTestId("draw-status")).textContent).toBe(
      "Open from the 1st: the month has not begun",
    );
  });

  it("closed but not drawn: says it closed and that winners come with the draw", async () => {
    server.use(
      http.get(drawResultsPath("2026-10"), () =>
        HttpResponse.json({
          ...openDraw,
          month: "2026-10",
          status: "closed",
          closesAt: "2026-11-03T12:00:00.000Z",
        }),
      ),
    );
    renderApp("/prize-draw/results/2026-10");
    expect((await screen.findByTestId("draw-closes")).textContent).toMatch(
      /^This draw closed on 3 November 2026 at 12:00 \(London time\)\. The winners are published here once it has been drawn\.$/,
    );
    expect(screen.getByTestId("draw-status").textContent).toBe("Closed: waiting to be drawn");
    expect(screen.queryByRole("heading", { name: "Winners" })).toBeNull();
  });

  it("once drawn: seed, beacon round with its link, ticket count and list hash, winners by tier, a redraw", async () => {
    server.use(http.get(drawResultsPath("2026-10"), () => HttpResponse.json(drawnOctober)));
    renderApp("/prize-draw/results/2026-10");
    expect(await screen.findByRole("heading", { level: 1, name: "October 2026 prize draw" })).toBeTruthy();
    expect(screen.getByTestId("draw-status").textContent).toBe("Drawn");
    expect(screen.getByTestId("draw-seed").textContent).toBe(seed);
    expect(screen.getByTestId("draw-commitment").textContent).toBe(commitment);
    const round = screen.getByRole("link", { name: "4242" });
    expect(round.getAttribute("href")).toBe(`https://api.drand.sh/${chainHash}/public/4242`);
    expect(screen.getByTestId("draw-ticket-count").textContent).toBe("1,234");
    expect(screen.getByTestId("draw-ticket-list-sha256").textContent).toBe(ticketListSha256);
    expect(screen.getByRole("link", { name: "Download the ticket list" }).getAttribute("href")).toBe(
      drawTicketsPath("2026-10"),
    );

    const platinum = screen.getByRole("list", { name: "Platinum winners" });
    expect(within(platinum).getByText("T-0007")).toBeTruthy();
    expect(within(platinum).getByText("J. Smith, Kent")).toBeTruthy();
    const gold = within(screen.getByRole("list", { name: "Gold winners" })).getAllByRole("listitem");
    expect(gold).toHaveLength(2);
    expect(gold[0]?.textContent).toContain("T-0042");
    expect(gold[0]?.textContent).toContain("Unclaimed: this prize was redrawn");
    expect(gold[1]?.textContent).toContain("T-0099");
    expect(gold[1]?.textContent).toContain("Awaiting claim");
    expect(gold[1]?.textContent).toContain(
      "Redrawn: replaces pick 2 (ticket T-0042), whose prize went unclaimed.",
    );
  });

  it("says a prize whose days to claim ended without a claim, and that nobody else won, is unclaimed", async () => {
    const winners = (drawnOctober.winners ?? []).filter((winner) => winner.replaces === undefined);
    server.use(
      http.get(drawResultsPath("2026-10"), () =>
        HttpResponse.json({
          ...drawnOctober,
          winners: winners.map((winner) => (winner.publicName ? winner : { ...winner, unclaimed: true })),
        }),
      ),
    );
    renderApp("/prize-draw/results/2026-10");
    const gold = within(await screen.findByRole("list", { name: "Gold winners" })).getAllByRole("listitem");
    expect(gold.map((item) => item.textContent)).toEqual([
      expect.stringContaining("Unclaimed: not claimed within 14 days"),
    ]);
  });

  it("says how many prizes of a tier went to nobody when fewer people were in the draw than prizes", async () => {
    server.use(
      http.get(drawResultsPath("2026-10"), () =>
        HttpResponse.json({
          ...drawnOctober,
          tiers: [
            { name: "Platinum", prizes: 1, description: "A weekend away." },
            { name: "Gold", prizes: 2, description: "A smartwatch." },
            { name: "Bronze", prizes: 5, description: "A water bottle." },
          ],
          ticketCount: 3,
        }),
      ),
    );
    renderApp("/prize-draw/results/2026-10");
    const winners = await screen.findByRole("region", { name: "Winners" });
    // Platinum's one prize was won; one of Gold's two (its redraw replaces the first winner, it is
    // not a second prize); none of Bronze's five.
    expect(within(winners).queryByText(/Platinum.*not awarded/)).toBeNull();
    expect(within(winners).getByTestId("unawarded-Gold").textContent).toBe(
      "1 prize not awarded: fewer people were in the draw than there were prizes.",
    );
    expect(within(winners).getByRole("heading", { level: 3, name: "Bronze" })).toBeTruthy();
    expect(within(winners).getByTestId("unawarded-Bronze").textContent).toBe(
      "5 prizes not awarded: fewer people were in the draw than there were prizes.",
    );
  });

  it("with no beacon: says the seed alone decided", async () => {
    server.use(
      http.get(drawResultsPath("2026-10"), () => HttpResponse.json({ ...drawnOctober, beacon: null })),
    );
    renderApp("/prize-draw/results/2026-10");
    expect((await screen.findByTestId("draw-beacon")).textContent).toBe(
      "No drand beacon was used: the seed alone decided.",
    );
  });

  it("gives the verify-draw command for this server and month, with a copy button", async () => {
    const user = userEvent.setup();
    server.use(http.get(drawResultsPath("2026-10"), () => HttpResponse.json(drawnOctober)));
    renderApp("/prize-draw/results/2026-10");
    expect(await screen.findByRole("heading", { name: "How to check this draw yourself" })).toBeTruthy();
    const command = `pnpm verify-draw ${window.location.origin} 2026-10`;
    expect(screen.getByTestId("verify-command").textContent).toBe(command);
    expect(screen.getByText(/the seed matches the commitment/)).toBeTruthy();
    await user.click(screen.getByRole("button", { name: "Copy the command" }));
    expect(await navigator.clipboard.readText()).toBe(command);
  });

  it("a malformed month shows the API's 400 message, an out-of-range one its 404 message", async () => {
    server.use(
      http.get(drawResultsPath("2026-13"), () =>
        HttpResponse.json({ message: DRAW_MESSAGES.badMonth }, { status: 400 }),
      ),
      http.get(drawResultsPath("2019-01"), () =>
        HttpResponse.json({ message: DRAW_MESSAGES.monthOutOfRange }, { status: 404 }),
      ),
    );
    const first = renderApp("/prize-draw/results/2026-13");
    expect((await screen.findByTestId("draw-results-problem")).textContent).toBe(DRAW_MESSAGES.badMonth);
    expect(screen.getByRole("heading", { level: 1, name: "Prize draw results" })).toBeTruthy();
    first.unmount();
    renderApp("/prize-draw/results/2019-01");
    expect((await screen.findByTestId("draw-results-problem")).textContent).toBe(
      DRAW_MESSAGES.monthOutOfRange,
    );
  });
});
