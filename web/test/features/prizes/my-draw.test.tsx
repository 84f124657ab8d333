import {
  DRAW_RULES_PATH,
  DRAWS_PATH,
  type DrawSummary,
  drawMinePath,
  drawResultsPath,
  MY_PRIZES_PATH,
  MY_TICKETS_LIST_MAX,
  type MyPrize,
} from "@charity-steps/shared-types";
import { screen, within } from "@testing-library/react";
import { HttpResponse, http } from "msw";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { signedInAs } from "../../support/handlers";
import { renderApp } from "../../support/render-app";
import { recordRequests, server } from "../../support/server";
import { trackingStartWatched } from "../../support/tracking-start";
import { testWalker } from "../../support/walker";
import { drawnOctober, myDraw, openDraw, prize } from "./draw-fixtures";

const september = { ...drawnOctober, month: "2026-09" };
const prizes = [
  prize(),
  prize({
    id: "prize-2",
    month: "2026-09",
    tier: "Bronze",
    ticket: "S-1",
    status: "claimed",
    claimedAt: "2026-10-05T09:00:00.000Z",
    publicName: "A. Walker",
    county: "Devon",
  }),
  prize({ id: "prize-3", month: "2026-08", tier: "Silver", ticket: "A-1", status: "expired" }),
  prize({ id: "prize-4", month: "2026-07", tier: "Platinum", ticket: "J-1", status: "redrawn" }),
];

/** The list of draws on 4 November 2026: October closed or drawn (as `october`), two months drawn before. */
function drawList(october: DrawSummary["status"], older: DrawSummary[] = []): DrawSummary[] {
  return [
    { month: "2026-12", status: "open" },
    { month: "2026-11", status: "open" },
    { month: "2026-10", status: october },
    ...older,
  ];
}

/** The prize page's API: the walker signed in, with `mine` as their October draw, and the months' records. */
function stubPrizePage(
  mine: ReturnType<typeof myDraw>,
  myPrizes = prizes,
  draws = drawList(mine.status),
  olderMonth?: ReturnType<typeof myDraw>,
) {
  server.use(
    signedInAs(testWalker),
    http.get(DRAWS_PATH, () => HttpResponse.json({ draws })),
    http.get(drawResultsPath("2026-11"), () => HttpResponse.json(openDraw)),
    http.get(DRAW_RULES_PATH, () => HttpResponse.json({ postalEntryAddress: "PO Box 1" })),
    http.get(MY_PRIZES_PATH, () => HttpResponse.json({ prizes: myPrizes })),
    http.get(drawMinePath("2026-10"), () => HttpResponse.json(mine)),
    http.get(drawResultsPath("2026-10"), () => HttpResponse.json(drawnOctober)),
    http.get(drawResultsPath("2026-09"), () => HttpResponse.json(september)),
    http.get(drawResultsPath("2026-08"), () =>
      HttpResponse.json({ ...openDraw, month: "2026-08", status: "closed" }),
    ),
  );
  if (olderMonth) server.use(http.get(drawMinePath(olderMonth.month), () => HttpResponse.json(olderMonth)));
  return { calls: recordRequests() };
}

describe("the prize page after a draw", () => {
  let trackingStarted: () => Promise<void>;
  beforeEach(() => {
    trackingStarted = trackingStartWatched();
    vi.useFakeTimers({ toFake: ["Date"] });
    vi.setSystemTime(new Date("2026-11-04T09:00:00Z"));
  });
  afterEach(async () => {
    await trackingStarted();
    vi.useRealTimers();
  });

  it("shows last month's ticket count and ids, the winning one marked, and links to its results", async () => {
    stubPrizePage(myDraw({ tickets: ["T-0041", "T-0042", "T-0043"], ticketCount: 3, prizes: [prize()] }));
    renderApp("/prize-draw");
    expect((await screen.findByTestId("my-tickets")).textContent).toBe("Your tickets for October 2026: 3");
    const ids = screen.getByRole("list", { name: "Your ticket ids for October 2026" });
    expect(
      within(ids)
        .getAllByRole("listitem")
        .map((item) => item.textContent),
    ).toEqual(["T-0041", "T-0042 (won Gold)", "T-0043"]);
    expect(screen.queryByTestId("my-tickets-more")).toBeNull();
    expect(screen.getByRole("link", { name: "See the October 2026 results" }).getAttribute("href")).toBe(
      "/prize-draw/results/2026-10",
    );
  });

  it("folds a long ticket list away and says how many more the API did not list", async () => {
    const tickets = Array.from({ length: MY_TICKETS_LIST_MAX }, (_, i) => `T-${String(i).padStart(4, "0")}`);
    stubPrizePage(myDraw({ tickets, ticketCount: 612 }));
    renderApp("/prize-draw");
    expect((await screen.findByTestId("my-tickets")).textContent).toBe("Your tickets for October 2026: 612");
    const toggle = screen.getByText("Show your ticket ids");
    expect(toggle.closest("details")?.open).toBe(false);
    const ids = screen.getByRole("list", { name: "Your ticket ids for October 2026", hidden: true });
    expect(ids.children).toHaveLength(MY_TICKETS_LIST_MAX);
    expect(screen.getByTestId("my-tickets-more").textContent).toBe("and 112 more");
  });

  it("while last month is still open says when its tickets are counted, and shows the month before's", async () => {
    vi.setSystemTime(new Date("2026-11-02T09:00:00Z"));
    stubPrizePage(
      myDraw({ status: "open" }),
      prizes,
      drawList("open", [
        { month: "2026-09", status: "drawn" },
        { month: "2026-08", status: "drawn" },
      ]),
      myDraw({ month: "2026-09", tickets: ["S-1", "S-2"], ticketCount: 2 }),
    );
    const first = renderApp("/prize-draw");
    expect(
      await screen.findByText(
        "Your tickets are counted when October 2026's draw closes, on 3 November 2026 at 12:00 (London time).",
      ),
    ).toBeTruthy();
    expect(screen.getByRole("heading", { name: "Your tickets for October 2026" })).toBeTruthy();
    // The newest month already counted is September, not last month.
    expect((await screen.findByTestId("my-tickets")).textContent).toBe("Your tickets for September 2026: 2");
    expect(screen.getByRole("link", { name: "See the September 2026 results" }).getAttribute("href")).toBe(
      "/prize-draw/results/2026-09",
    );
    first.unmount();

    vi.setSystemTime(new Date("2026-11-04T09:00:00Z"));
    stubPrizePage(myDraw({ status: "closed", tickets: ["T-1"], ticketCount: 1 }));
    renderApp("/prize-draw");
    expect((await screen.findByTestId("my-tickets")).textContent).toBe("Your tickets for October 2026: 1");
    expect(
      screen.getByText(/The draw has closed; the winners are published once it has been drawn/),
    ).toBeTruthy();
    expect(screen.queryByText(/Your tickets are counted when/)).toBeNull();
  });

  it("shows the newest counted month's tickets even when last month never had a draw", async () => {
    stubPrizePage(
      myDraw(),
      prizes,
      [
        { month: "2026-12", status: "open" },
        { month: "2026-11", status: "open" },
        { month: "2026-08", status: "drawn" },
      ],
      myDraw({ month: "2026-08", tickets: ["A-1"], ticketCount: 1 }),
    );
    renderApp("/prize-draw");
    expect((await screen.findByTestId("my-tickets")).textContent).toBe("Your tickets for August 2026: 1");
    expect(screen.queryByText(/Your tickets are counted when/)).toBeNull();
  });

  it("lists the walker's prizes with their status in words, and a claim link for the one awaiting", async () => {
    stubPrizePage(myDraw({ tickets: ["T-0042"], ticketCount: 1 }));
    renderApp("/prize-draw");
    expect(await screen.findByRole("heading", { name: "Your prizes" })).toBeTruthy();
    const items = screen.getAllByTestId("my-prize");
    expect(items.map((item) => within(item).getByTestId("my-prize-status").textContent)).toEqual([
      "Awaiting your claim",
      "Claimed",
      "Expired",
      "Redrawn",
    ]);
    expect(items[0]?.textContent).toContain("Gold prize, October 2026 draw");
    // An operator's description, in whatever script, is its own run of text beside "Ticket …".
    expect(within(items[0] as HTMLElement).getByText("A smartwatch.").tagName).toBe("BDI");
    expect(items[0]?.textContent).toContain(
      "Claim by 17 November 2026 at 12:00 (London time): 13 days left.",
    );
    const claim = within(items[0] as HTMLElement).getByRole("link", { name: "Claim your Gold prize" });
    expect(claim.getAttribute("href")).toBe("/prizes/prize-1/claim");
    expect(items[1]?.textContent).toContain("Claimed on 5 October 2026. Published as A. Walker, Devon.");
    expect(items[2]?.textContent).toContain("The 14 days to claim it ended without a claim.");
    expect(items[3]?.textContent).toContain("It was given to another entry after it went unclaimed.");
    for (const item of items.slice(1)) expect(within(item).queryByRole("link")).toBeNull();
  });

  it("links to the results of every drawn month in the list of draws, from one request", async () => {
    const { calls } = stubPrizePage(
      myDraw(),
      [prizes[0] as MyPrize],
      drawList("drawn", [
        { month: "2026-09", status: "drawn" },
        { month: "2026-08", status: "closed" },
        { month: "2026-06", status: "drawn" },
      ]),
    );
    renderApp("/prize-draw");
    const past = await screen.findByRole("heading", { name: "Past draws' results" });
    const links = within(past.closest("section") as HTMLElement).getAllByRole("link");
    expect(links.map((link) => [link.textContent, link.getAttribute("href")])).toEqual([
      ["October 2026", "/prize-draw/results/2026-10"],
      ["September 2026", "/prize-draw/results/2026-09"],
      ["June 2026", "/prize-draw/results/2026-06"],
    ]);
    // Which months were drawn comes from the list alone: no month's record is asked for but this one's.
    expect(calls.filter((call) => call.url === DRAWS_PATH)).toHaveLength(1);
    const asked = calls
      .filter((call) => /^\/api\/draws\/\d{4}-\d{2}$/.test(call.url))
      .map((call) => call.url);
    expect([...new Set(asked)]).toEqual([drawResultsPath("2026-11")]);
  });

  it("shows no past results while no month in the list is drawn, and no prizes when none was won", async () => {
    stubPrizePage(myDraw({ status: "closed" }), []);
    renderApp("/prize-draw");
    await screen.findByTestId("my-tickets");
    expect(screen.queryByRole("heading", { name: "Past draws' results" })).toBeNull();
    expect(screen.queryByRole("heading", { name: "Your prizes" })).toBeNull();
  });
});
