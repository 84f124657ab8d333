import {
  type AuthUser,
  DRAW_MESSAGES,
  DRAW_RUN_MESSAGES,
  DRAW_TIER_NAME_MAX_CHARS,
  DRAWS_PATH,
  type DrawResults,
  type DrawSummary,
  drawMinePath,
  drawResultsPagePath,
  drawResultsPath,
  formatMonth,
  londonMonth,
  type MyDraw,
  OPERATOR_AUDIT_LOG_PATH,
  type OperatorDraw,
  type OperatorPrize,
  operatorDrawOutliersPath,
  operatorDrawPath,
  operatorDrawRunPath,
  operatorDrawTiersPath,
  operatorPrizeRedrawPath,
} from "@charity-steps/shared-types";
import { fireEvent, screen, waitFor, within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { HttpResponse, http, type JsonBodyType } from "msw";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { useToastStore } from "../../../src/lib/toast-store";
import { drawResults, openOperatorDraw } from "../../support/draws";
import { signedInAs } from "../../support/handlers";
import { renderApp } from "../../support/render-app";
import { recordRequests, server } from "../../support/server";
import { testWalker } from "../../support/walker";

const operator: AuthUser = { ...testWalker, isOperator: true };
// 21 November 2026 in London: October's draw has closed, November's is open, December's opened.
const NOW = new Date("2026-11-21T12:00:00Z");
const [nextMonth, thisMonth, lastMonth, monthBefore] = ["2026-12", "2026-11", "2026-10", "2026-09"];
const hex = (digit: string) => digit.repeat(64);

function closedDraw(month: string): OperatorDraw {
  return {
    results: drawResults(month, { status: "closed" }),
    walkerTickets: 120,
    postalTickets: 3,
    tiersEditable: false,
    prizes: [],
  };
}

const drawnResults = (month: string): DrawResults =>
  drawResults(month, {
    status: "drawn",
    ticketCount: 123,
    ticketListSha256: hex("a"),
    seed: hex("5"),
    beacon: { round: 4242, randomness: hex("b"), signature: "ab".repeat(48), chainHash: hex("d") },
    winners: [
      { tier: "Platinum", ticket: "t-0001", holder: "h1", pick: 0 },
      { tier: "Gold", ticket: "t-0077", holder: "h2", pick: 1 },
    ],
  });

function prize(overrides: Partial<OperatorPrize>): OperatorPrize {
  return {
    id: "prize-1",
    tier: "Platinum",
    ticket: "t-0001",
    pick: 0,
    replaces: null,
    status: "awaiting_claim",
    drawnAt: "2026-11-03T12:05:00.000Z",
    claimBy: "2026-11-17T12:05:00.000Z",
    winner: { kind: "walker", name: "Wendy Walker", email: "wendy@example.org", address: null },
    claimedAt: null,
    publicName: null,
    county: null,
    deliveryAddress: null,
    canRedraw: false,
    canRecordClaim: false,
    ...overrides,
  };
}

function drawnDraw(month: string, prizes: OperatorPrize[]): OperatorDraw {
  return { results: drawnResults(month), walkerTickets: 120, postalTickets: 3, tiersEditable: false, prizes };
}

type Answer = [number, JsonBodyType, (() => void)?];

/**
 * The draw API as the server answers it: each month's draw from `draws` (an open one with the
 * default tiers otherwise), the list of draws from the same (this month's always among them) unless
 * `list` gives it, a 404 for the `missing` months, and each write answered by the next of its
 * queue; an answer's third element changes the stored draws, as the write would.
 */
function stubDrawServer(
  draws: Record<string, OperatorDraw>,
  answers: {
    put?: Answer[];
    run?: Answer[];
    redraw?: Answer[];
    /** The list of draws as given, or "error" for a server error. */
    list?: DrawSummary[] | "error";
    missing?: string[];
  } = {},
) {
  const drawOf = (month: string) => draws[month] ?? openOperatorDraw(month);
  const missing = (month: string) =>
    answers.missing?.includes(month)
      ? HttpResponse.json({ message: DRAW_MESSAGES.neverOpened }, { status: 404 })
      : undefined;
  const next = (queue: Answer[] | undefined) => {
    const [status, body, effect] = queue?.shift() ?? [500, { message: "no answer set" }];
    effect?.();
    return HttpResponse.json(body, { status });
  };
  server.use(
    signedInAs(operator),
    http.get(DRAWS_PATH, () => {
      if (answers.list === "error") return HttpResponse.json({ message: "down" }, { status: 500 });
      const listed = Object.fromEntries(
        Object.entries({ [thisMonth]: openOperatorDraw(thisMonth), ...draws }).map(([month, draw]) => [
          month,
          draw.results.status,
        ]),
      );
      const list =
        answers.list ??
        Object.entries(listed)
          .map(([month, status]) => ({ month, status }))
          .sort((a, b) => b.month.localeCompare(a.month));
      return HttpResponse.json({ draws: list });
    }),
    http.get(drawResultsPath(":month"), ({ params }) => {
      const month = String(params.month);
      // Not a month (the draw rules): the default answer.
      if (!/^\d{4}-\d{2}$/.test(month)) return undefined;
      return missing(month) ?? HttpResponse.json(drawOf(month).results);
    }),
    http.get(operatorDrawPath(":month"), ({ params }) => {
      const month = String(params.month);
      return missing(month) ?? HttpResponse.json(drawOf(month));
    }),
    http.put(
      operatorDrawTiersPath(":month"),
      ({ params }) => missing(String(params.month)) ?? next(answers.put),
    ),
    http.post(
      operatorDrawRunPath(":month"),
      ({ params }) => missing(String(params.month)) ?? next(answers.run),
    ),
    http.post("/api/operator/prizes/*", () => next(answers.redraw)),
  );
  return { calls: recordRequests() };
}

async function drawSection() {
  // The console is a lazily loaded route: the first test of a busy run waits for its import.
  const section = await screen.findByRole("region", { name: "Monthly draw" }, { timeout: 5_000 });
  await within(section).findByRole("combobox", { name: "Month" });
  return section;
}

beforeEach(() => {
  vi.useFakeTimers({ toFake: ["Date"] });
  vi.setSystemTime(NOW);
});

afterEach(() => {
  vi.useRealTimers();
  vi.restoreAllMocks();
  useToastStore.setState({ current: null });
});

describe("the operator console's monthly draw", () => {
  it("opens on the newest month that has closed and waits for its draw, and offers the months that have a draw", async () => {
    // Last month still open (the first days of a month), the one before closed.
    const { calls } = stubDrawServer(
      {
        [lastMonth]: openOperatorDraw(lastMonth, { closesAt: "2099-01-03T12:00:00.000Z" }),
        [monthBefore]: closedDraw(monthBefore),
      },
      {
        list: [
          { month: nextMonth, status: "open" },
          { month: thisMonth, status: "open" },
          { month: lastMonth, status: "open" },
          { month: monthBefore, status: "closed" },
        ],
      },
    );
    renderApp("/operator");
    const section = await drawSection();
    const select = within(section).getByLabelText("Month") as HTMLSelectElement;
    await waitFor(() => expect(select.value).toBe(monthBefore));
    expect(Array.from(select.options).map((option) => option.textContent)).toEqual([
      `${formatMonth(nextMonth)} (open)`,
      `${formatMonth(thisMonth)} (open)`,
      `${formatMonth(lastMonth)} (open)`,
      `${formatMonth(monthBefore)} (closed, not drawn)`,
    ]);
    // One request says which months have a draw: no month's draw is asked for but the chosen one.
    expect(calls.filter((call) => call.url === DRAWS_PATH)).toHaveLength(1);
    expect(calls.some((call) => /^\/api\/draws\/\d{4}-\d{2}$/.test(call.url))).toBe(false);
    expect(
      calls.filter((call) => call.url.startsWith("/api/operator/draws/")).map((call) => call.url),
    ).toEqual([operatorDrawPath(monthBefore)]);
    await within(section).findByText("Closed, not drawn");
    expect(within(section).getByText(hex("c"))).toBeTruthy();
    expect(
      within(section).getByText("123 in all: 120 from walkers' steps, 3 from postal entries"),
    ).toBeTruthy();
    // Closed: the tiers are shown, not editable.
    const tiers = within(section).getByRole("table", {
      name: `Prize tiers for ${formatMonth(monthBefore)}, in the order drawn`,
    });
    expect(
      within(tiers)
        .getAllByRole("rowheader")
        .map((cell) => cell.textContent),
    ).toEqual(["Platinum", "Gold", "Silver", "Bronze"]);
    expect(within(section).queryByRole("form", { name: "Prize tiers" })).toBeNull();
    expect(
      (within(section).getByRole("button", { name: "Run the draw" }) as HTMLButtonElement).disabled,
    ).toBe(false);
  });

  it("prefers a month waiting for its draw to a newer drawn one", async () => {
    stubDrawServer({
      [lastMonth]: drawnDraw(lastMonth, []),
      [monthBefore]: closedDraw(monthBefore),
    });
    renderApp("/operator");
    const section = await drawSection();
    const select = within(section).getByLabelText("Month") as HTMLSelectElement;
    await waitFor(() => expect(select.value).toBe(monthBefore));
    expect(select.options[1]?.textContent).toBe(`${formatMonth(lastMonth)} (drawn)`);
    await within(section).findByText("Closed, not drawn");
  });

  it("opens on this month when no draw is closed or drawn, and shows an open draw's closing time in London time", async () => {
    const closesAt = "2099-01-03T12:00:00.000Z";
    stubDrawServer({ [thisMonth]: openOperatorDraw(thisMonth, { closesAt }) });
    renderApp("/operator");
    const section = await drawSection();
    const select = within(section).getByLabelText("Month") as HTMLSelectElement;
    await waitFor(() => expect(select.value).toBe(thisMonth));
    expect(select.options).toHaveLength(1);
    await within(section).findByText("Open");
    expect(
      within(section).getByText(/Steps synced until 12:00 on 3 Jan 2099 \(London time\) count\./),
    ).toBeTruthy();
    const run = within(section).getByRole("button", { name: "Run the draw" }) as HTMLButtonElement;
    expect(run.disabled).toBe(true);
    expect(
      within(section).getByText("It can be run once it closes, at 12:00 on 3 Jan 2099 (London time)."),
    ).toBeTruthy();
  });

  it("shows the server's word when a month has no draw", async () => {
    stubDrawServer({}, { list: [{ month: lastMonth, status: "closed" }], missing: [lastMonth] });
    renderApp("/operator");
    const section = await drawSection();
    expect((await within(section).findByRole("alert")).textContent).toBe(DRAW_MESSAGES.neverOpened);
  });

  it("shares the list of draws with the prize page, which reads it from the same cache", async () => {
    const user = userEvent.setup();
    const { calls } = stubDrawServer({ [lastMonth]: drawnDraw(lastMonth, []) });
    // The operator walks too: no tickets in last month's draw.
    const noTickets: MyDraw = { month: lastMonth, status: "drawn", tickets: [], ticketCount: 0, prizes: [] };
    server.use(http.get(drawMinePath(lastMonth), () => HttpResponse.json(noTickets)));
    renderApp("/operator");
    const section = await drawSection();
    await within(section).findByText("Drawn");
    await user.click(screen.getAllByRole("link", { name: "Prizes" })[0] as HTMLElement);
    const past = await screen.findByRole("heading", { name: "Past draws' results" }, { timeout: 5_000 });
    expect(within(past.closest("section") as HTMLElement).getByRole("link").textContent).toBe(
      formatMonth(lastMonth),
    );
    expect(calls.filter((call) => call.url === DRAWS_PATH)).toHaveLength(1);
  });

  it("still offers this month when the list of draws cannot be had", async () => {
    stubDrawServer({}, { list: "error" });
    renderApp("/operator");
    const section = await drawSection();
    expect((within(section).getByLabelText("Month") as HTMLSelectElement).value).toBe(thisMonth);
  });

  it("refuses a tier name used twice before sending anything, and takes the refusal back once mended", async () => {
    const user = userEvent.setup();
    const { calls } = stubDrawServer({});
    renderApp("/operator");
    const section = await drawSection();
    const form = await within(section).findByRole("form", { name: "Prize tiers" });
    const firstName = within(form).getAllByLabelText("Name")[0] as HTMLInputElement;
    await user.clear(firstName);
    await user.type(firstName, "Gold");
    await user.click(within(form).getByRole("button", { name: "Save tiers" }));
    expect((await within(form).findByRole("alert")).textContent).toBe(DRAW_RUN_MESSAGES.tierNamesRepeat);
    expect(calls.some((call) => call.method === "PUT")).toBe(false);

    await user.clear(firstName);
    await user.type(firstName, "Grand");
    expect(within(form).queryByRole("alert")).toBeNull();
  });

  it("counts a tier's name in characters and refuses one past the limit before sending", async () => {
    const user = userEvent.setup();
    const { calls } = stubDrawServer({});
    renderApp("/operator");
    const section = await drawSection();
    const form = await within(section).findByRole("form", { name: "Prize tiers" });
    const firstName = within(form).getAllByLabelText("Name")[0] as HTMLInputElement;
    const pasted = "G".repeat(DRAW_TIER_NAME_MAX_CHARS + 4);
    fireEvent.input(firstName, { target: { value: pasted } });
    expect(firstName.value).toBe(pasted);
    expect(within(form).getByText("4 characters too many")).toBeTruthy();
    await user.click(within(form).getByRole("button", { name: "Save tiers" }));
    expect((await within(form).findByRole("alert")).textContent).toBe(
      `A tier's name must be at most ${DRAW_TIER_NAME_MAX_CHARS} characters.`,
    );
    expect(calls.some((call) => call.method === "PUT")).toBe(false);
  });

  it("edits the tiers: reorders, removes and adds, checks them, and sends them with PUT", async () => {
    const user = userEvent.setup();
    const { calls } = stubDrawServer(
      {},
      { put: [[422, { message: "The tiers could not be stored as given." }]] },
    );
    renderApp("/operator");
    const section = await drawSection();
    const form = await within(section).findByRole("form", { name: "Prize tiers" });
    const names = () => within(form).getAllByLabelText("Name") as HTMLInputElement[];
    expect(names().map((input) => input.value)).toEqual(["Platinum", "Gold", "Silver", "Bronze"]);

    await user.clear(names()[0] as HTMLInputElement);
    await user.type(names()[0] as HTMLInputElement, "Grand");
    const moveUp = within(form).getByRole("button", { name: "Move tier 2 up" });
    await user.click(moveUp);
    expect(names().map((input) => input.value)).toEqual(["Gold", "Grand", "Silver", "Bronze"]);
    // The moved tier keeps the focus, on its button that still moves it.
    expect(document.activeElement?.getAttribute("aria-label")).toBe("Move tier 1 down");
    await user.click(within(form).getByRole("button", { name: "Remove tier 4" }));
    expect(names().map((input) => input.value)).toEqual(["Gold", "Grand", "Silver"]);
    await user.click(within(form).getByRole("button", { name: "Add a tier" }));
    expect(names()).toHaveLength(4);
    expect(document.activeElement).toBe(names()[3]);
    await user.type(names()[3] as HTMLInputElement, "Extra");
    const prizes = within(form).getAllByLabelText("Number of prizes")[3] as HTMLInputElement;
    await user.clear(prizes);
    await user.type(prizes, "3");
    await user.type(
      within(form).getAllByLabelText(/Description/)[3] as HTMLTextAreaElement,
      "Walking socks.",
    );
    expect(within(form).getByText(/4 tiers, 7 prizes in all/)).toBeTruthy();

    await user.click(within(form).getByRole("button", { name: "Save tiers" }));
    expect((await within(form).findByRole("alert")).textContent).toBe(
      "The tiers could not be stored as given.",
    );
    const put = calls.find((call) => call.method === "PUT");
    expect(put?.url).toBe(operatorDrawTiersPath(thisMonth));
    expect(put?.body).toEqual({
      tiers: [
        { name: "Gold", prizes: 1, description: "Major prizes for a handful of entries each month." },
        { name: "Grand", prizes: 1, description: "The month's top prize, drawn from every entry." },
        { name: "Silver", prizes: 2, description: "Smaller prizes shared among more winners." },
        { name: "Extra", prizes: 3, description: "Walking socks." },
      ],
    });
  });

  it("saves the tiers, then refuses too many prizes before sending, and gives way to the tiers once closed", async () => {
    const user = userEvent.setup();
    const saved = openOperatorDraw(thisMonth, {
      tiers: [
        { name: "Gold", prizes: 1, description: "Major prizes." },
        { name: "Grand", prizes: 1, description: "The month's top prize." },
        { name: "Silver", prizes: 2, description: "Smaller prizes shared among more winners." },
        { name: "Extra", prizes: 3, description: "Walking socks." },
      ],
    });
    const draws: Record<string, OperatorDraw> = {};
    const { calls } = stubDrawServer(draws, {
      put: [
        [200, saved, () => (draws[thisMonth] = saved)],
        [
          409,
          { message: DRAW_RUN_MESSAGES.tiersAfterClose },
          () => (draws[thisMonth] = closedDraw(thisMonth)),
        ],
      ],
    });
    renderApp("/operator");
    const section = await drawSection();
    const form = await within(section).findByRole("form", { name: "Prize tiers" });
    const names = () => within(form).getAllByLabelText("Name") as HTMLInputElement[];
    // Saved as loaded: the form then shows the tiers as the server stored them.
    const auditReads = calls.filter((call) => call.url.startsWith(OPERATOR_AUDIT_LOG_PATH)).length;
    await user.click(within(form).getByRole("button", { name: "Save tiers" }));
    await waitFor(() => expect(useToastStore.getState().current?.title).toBe("Tiers saved"));
    expect(within(form).queryByRole("alert")).toBeNull();
    expect(names().map((input) => input.value)).toEqual(["Gold", "Grand", "Silver", "Extra"]);
    await waitFor(() =>
      expect(calls.filter((call) => call.url.startsWith(OPERATOR_AUDIT_LOG_PATH)).length).toBeGreaterThan(
        auditReads,
      ),
    );

    // Too many prizes in all is refused before anything is sent.
    const puts = calls.filter((call) => call.method === "PUT").length;
    const first = within(form).getAllByLabelText("Number of prizes")[0] as HTMLInputElement;
    await user.clear(first);
    await user.type(first, "1000");
    await user.click(within(form).getByRole("button", { name: "Save tiers" }));
    expect((await within(form).findByRole("alert")).textContent).toBe(DRAW_RUN_MESSAGES.tooManyPrizes);
    expect(calls.filter((call) => call.method === "PUT")).toHaveLength(puts);

    // Closed meanwhile: the form gives way to the tiers as they stand, and the server's reason stays.
    await user.clear(first);
    await user.type(first, "2");
    await user.click(within(form).getByRole("button", { name: "Save tiers" }));
    await within(section).findByRole("table", { name: /Prize tiers for/ });
    expect(within(section).queryByRole("form", { name: "Prize tiers" })).toBeNull();
    const reason = within(section).getByRole("alert");
    expect(reason.textContent).toBe(DRAW_RUN_MESSAGES.tiersAfterClose);
    // The form the focus was in has gone: the reason takes the focus.
    expect(document.activeElement?.contains(reason)).toBe(true);
  });

  it("asks before running the draw, and shows the server's refusal before the close", async () => {
    const user = userEvent.setup();
    // Loaded as open, with the close already past on this clock: the server decides.
    const stale = openOperatorDraw(lastMonth, { closesAt: "2026-01-03T12:00:00.000Z" });
    const message = DRAW_RUN_MESSAGES.beforeClose("2026-01-03T12:00:00.000Z");
    // The list reads the month as the server sees it: past its close.
    const { calls } = stubDrawServer(
      { [lastMonth]: stale },
      {
        run: [[409, { message }]],
        list: [
          { month: thisMonth, status: "open" },
          { month: lastMonth, status: "closed" },
        ],
      },
    );
    renderApp("/operator");
    const section = await drawSection();
    const run = await within(section).findByRole("button", { name: "Run the draw" });

    await user.click(run);
    const confirm = within(section).getByRole("group", {
      name: `This draws the winners for ${formatMonth(lastMonth)} once and for all.`,
    });
    expect(document.activeElement).toBe(within(confirm).getByRole("button", { name: "Cancel" }));
    await user.click(within(confirm).getByRole("button", { name: "Cancel" }));
    expect(within(section).queryByRole("group", { name: /This draws the winners/ })).toBeNull();
    expect(document.activeElement).toBe(within(section).getByRole("button", { name: "Run the draw" }));
    expect(calls.some((call) => call.method === "POST")).toBe(false);

    await user.click(within(section).getByRole("button", { name: "Run the draw" }));
    await user.click(within(section).getByRole("button", { name: "Draw the winners" }));
    expect((await within(section).findByRole("alert")).textContent).toBe(message);
    expect(calls.find((call) => call.method === "POST")?.url).toBe(operatorDrawRunPath(lastMonth));
    expect(document.activeElement).toBe(within(section).getByRole("button", { name: "Run the draw" }));
  });

  it("shows the beacon's refusal as the server words it, and the run can be tried again", async () => {
    const user = userEvent.setup();
    stubDrawServer(
      { [lastMonth]: closedDraw(lastMonth) },
      { run: [[503, { message: DRAW_RUN_MESSAGES.beaconUnavailable }]] },
    );
    renderApp("/operator");
    const section = await drawSection();
    await user.click(await within(section).findByRole("button", { name: "Run the draw" }));
    await user.click(within(section).getByRole("button", { name: "Draw the winners" }));
    expect((await within(section).findByRole("alert")).textContent).toBe(DRAW_RUN_MESSAGES.beaconUnavailable);
    expect(
      (within(section).getByRole("button", { name: "Run the draw" }) as HTMLButtonElement).disabled,
    ).toBe(false);
  });

  it("runs the draw and shows its seed, beacon, ticket list hash, public page and winners", async () => {
    const user = userEvent.setup();
    const draws: Record<string, OperatorDraw> = { [lastMonth]: closedDraw(lastMonth) };
    const winners = [
      prize({}),
      prize({
        id: "prize-2",
        tier: "Gold",
        ticket: "t-0077",
        pick: 1,
        winner: {
          kind: "postal",
          name: "Mary O'Brien",
          email: null,
          address: "1 High Street\nLittle Walking",
        },
      }),
    ];
    const { calls } = stubDrawServer(draws, {
      run: [[200, drawnResults(lastMonth), () => (draws[lastMonth] = drawnDraw(lastMonth, winners))]],
    });
    renderApp("/operator");
    const section = await drawSection();
    await user.click(await within(section).findByRole("button", { name: "Run the draw" }));
    await user.click(within(section).getByRole("button", { name: "Draw the winners" }));

    const heading = await within(section).findByRole("heading", { name: "Results" });
    await waitFor(() => expect(document.activeElement).toBe(heading));
    expect(within(section).getByText("Drawn")).toBeTruthy();
    expect(within(section).getByText(hex("5"))).toBeTruthy();
    expect(within(section).getByText("drand round 4242")).toBeTruthy();
    expect(within(section).getByText(hex("a"))).toBeTruthy();
    expect(
      within(section)
        .getByRole("link", { name: `Public results for ${formatMonth(lastMonth)}` })
        .getAttribute("href"),
    ).toBe(drawResultsPagePath(lastMonth));
    expect(within(section).queryByRole("button", { name: "Run the draw" })).toBeNull();
    await waitFor(() => expect(useToastStore.getState().current?.title).toBe("Winners drawn"));

    const table = await within(section).findByRole("table", { name: "Prizes" });
    expect(
      within(table)
        .getAllByRole("columnheader")
        .map((cell) => cell.textContent),
    ).toEqual(["Tier", "Ticket", "Winner", "Status"]);
    const rows = within(table).getAllByRole("row").slice(1);
    expect(rows).toHaveLength(2);
    expect(rows[0]?.textContent).toContain("Wendy Walker");
    expect(rows[0]?.textContent).toContain("wendy@example.org");
    expect(rows[0]?.textContent).toContain("Walker");
    expect(rows[0]?.textContent).toContain("Awaiting claim until 17 Nov");
    expect(rows[1]?.textContent).toContain("Mary O'Brien");
    expect(rows[1]?.textContent).toContain("1 High Street");
    expect(rows[1]?.textContent).toContain("Postal entry");
    // Two people in the draw, nine prizes: the console says which went to nobody, as the public page does.
    expect(within(section).getByTestId("draw-not-awarded").textContent).toBe(
      "Not awarded, as fewer people were in the draw than there were prizes: Silver 2 prizes, Bronze 5 prizes.",
    );
    expect(calls.filter((call) => call.url.startsWith(OPERATOR_AUDIT_LOG_PATH)).length).toBeGreaterThan(1);
  });

  it("shows the results of the one draw there is when the run is refused as already drawn", async () => {
    const user = userEvent.setup();
    const draws: Record<string, OperatorDraw> = { [lastMonth]: closedDraw(lastMonth) };
    stubDrawServer(draws, {
      run: [
        [
          409,
          { message: DRAW_RUN_MESSAGES.alreadyDrawn, results: drawnResults(lastMonth) },
          () => (draws[lastMonth] = drawnDraw(lastMonth, [prize({})])),
        ],
      ],
    });
    renderApp("/operator");
    const section = await drawSection();
    await user.click(await within(section).findByRole("button", { name: "Run the draw" }));
    await user.click(within(section).getByRole("button", { name: "Draw the winners" }));
    expect((await within(section).findByRole("alert")).textContent).toBe(DRAW_RUN_MESSAGES.alreadyDrawn);
    const heading = await within(section).findByRole("heading", { name: "Results" });
    await waitFor(() => expect(document.activeElement).toBe(heading));
    expect(within(section).getByText(hex("5"))).toBeTruthy();
    await within(section).findByRole("table", { name: "Prizes" });
  });

  it("shows a draw decided by the seed alone, claimed and redrawn prizes, and redraws an expired one", async () => {
    const user = userEvent.setup();
    const expired = prize({
      id: "prize-2",
      tier: "Gold",
      ticket: "t-0077",
      pick: 1,
      status: "expired",
      canRedraw: true,
      winner: { kind: "walker", name: "Sam Slow", email: "sam@example.org", address: null },
    });
    const claimed = prize({
      status: "claimed",
      claimedAt: "2026-11-05T09:30:00.000Z",
      publicName: "W. Walker",
      county: "Kent",
      deliveryAddress: "3 Long Lane\nCanterbury",
    });
    const newWinner = prize({
      id: "prize-3",
      tier: "Gold",
      ticket: "t-0102",
      pick: 5,
      replaces: 1,
      claimBy: "2026-12-01T10:00:00.000Z",
      winner: { kind: "postal", name: "Pat Post", email: "pat@example.org", address: "9 Letter Row" },
    });
    const seedAlone = { ...drawnDraw(lastMonth, [claimed, expired]) };
    seedAlone.results = { ...seedAlone.results, beacon: null };
    const draws: Record<string, OperatorDraw> = { [lastMonth]: seedAlone };
    const { calls } = stubDrawServer(draws, {
      redraw: [
        [
          200,
          { results: seedAlone.results, prize: newWinner },
          () =>
            (draws[lastMonth] = {
              ...seedAlone,
              prizes: [claimed, { ...expired, status: "redrawn", canRedraw: false }, newWinner],
            }),
        ],
      ],
    });
    renderApp("/operator");
    const section = await drawSection();
    const table = await within(section).findByRole("table", { name: "Prizes" });
    expect(within(section).getByText("None: the seed alone decided")).toBeTruthy();
    const rows = within(table).getAllByRole("row").slice(1);
    expect(rows[0]?.textContent).toContain("Claimed 5 Nov");
    expect(rows[0]?.textContent).toContain("Published as W. Walker, Kent");
    expect(rows[0]?.textContent).toContain("3 Long Lane");
    expect(rows[1]?.textContent).toContain("Expired");
    expect(within(rows[0] as HTMLElement).queryByRole("button", { name: /Redraw/ })).toBeNull();

    await user.click(within(table).getByRole("button", { name: "Redraw Gold, ticket t-0077" }));
    const confirm = within(table).getByRole("group", {
      name: /This gives the prize \(Gold, ticket t-0077\) to the next pick/,
    });
    expect(document.activeElement).toBe(within(confirm).getByRole("button", { name: "Cancel" }));
    await user.click(within(confirm).getByRole("button", { name: "Redraw the prize" }));

    const news = await within(section).findByText(/New winner for Gold/);
    expect(news.textContent).toContain("t-0102");
    expect(news.textContent).toContain("Pat Post (pat@example.org), postal entry");
    await waitFor(() => expect(document.activeElement?.contains(news)).toBe(true));
    expect(calls.find((call) => call.method === "POST")?.url).toBe(operatorPrizeRedrawPath("prize-2"));
    await waitFor(() => expect(within(table).getAllByRole("row")).toHaveLength(4));
    const after = within(table).getAllByRole("row").slice(1);
    expect(after[1]?.textContent).toContain("Redrawn: given to pick 5");
    expect(after[2]?.textContent).toContain("Pat Post");
    expect(after[2]?.textContent).toContain("redraw of pick 1");
    expect(within(table).queryByRole("button", { name: /^Redraw / })).toBeNull();
  });

  it("shows a redraw's refusal as the server words it", async () => {
    const user = userEvent.setup();
    const expired = prize({ status: "expired", canRedraw: true });
    stubDrawServer(
      { [lastMonth]: drawnDraw(lastMonth, [expired]) },
      { redraw: [[409, { message: DRAW_RUN_MESSAGES.redrawClaimed }]] },
    );
    renderApp("/operator");
    const section = await drawSection();
    const table = await within(section).findByRole("table", { name: "Prizes" });
    await user.click(within(table).getByRole("button", { name: /^Redraw Platinum/ }));
    await user.click(within(table).getByRole("button", { name: "Redraw the prize" }));
    expect((await within(section).findByRole("alert")).textContent).toBe(DRAW_RUN_MESSAGES.redrawClaimed);
  });

  it("records a postal winner's claim, once they have confirmed they are 18 or over", async () => {
    const user = userEvent.setup();
    const postalWinner = prize({
      canRecordClaim: true,
      winner: { kind: "postal", name: "Pam Post", email: null, address: "1 Letterbox Lane" },
    });
    const claimed = {
      ...postalWinner,
      status: "claimed" as const,
      canRecordClaim: false,
      publicName: "P. Post",
    };
    const draws = { [lastMonth]: drawnDraw(lastMonth, [postalWinner]) };
    const { calls } = stubDrawServer(draws, {
      redraw: [[200, claimed, () => (draws[lastMonth] = drawnDraw(lastMonth, [claimed]))]],
    });
    renderApp("/operator");
    const section = await drawSection();
    const table = await within(section).findByRole("table", { name: "Prizes" });
    await user.click(within(table).getByText("Record their claim"));
    await user.type(within(table).getByLabelText("Name to publish (e.g. J. Smith)"), "P. Post");
    // Spaces and a last line break are the form's to trim: the server counts what arrives.
    await user.type(within(table).getByLabelText("County"), "Devon  ");
    await user.type(within(table).getByLabelText("Where to send the prize"), "1 Letterbox Lane{Enter}");
    await user.click(within(table).getByRole("button", { name: "Record the claim" }));
    expect((await within(table).findByRole("alert")).textContent).toBe(
      "Record the claim only once the winner has confirmed that they are 18 or over.",
    );
    expect(calls.filter((call) => call.method === "POST")).toEqual([]);

    await user.click(within(table).getByLabelText("The winner confirmed that they are 18 or over"));
    await user.click(within(table).getByRole("button", { name: "Record the claim" }));
    await within(section).findByText(/Published as P\. Post/);
    expect(calls.filter((call) => call.method === "POST")).toEqual([
      {
        method: "POST",
        url: `/api/operator/prizes/${postalWinner.id}/claim`,
        body: { over18: true, publicName: "P. Post", county: "Devon", deliveryAddress: "1 Letterbox Lane" },
      },
    ]);
  });

  it("says so when a redraw finds every entrant has already won", async () => {
    const user = userEvent.setup();
    const expired = prize({ status: "expired", canRedraw: true });
    const draws = { [lastMonth]: drawnDraw(lastMonth, [expired]) };
    const redrawn = drawnDraw(lastMonth, [{ ...expired, status: "redrawn", canRedraw: false }]);
    stubDrawServer(draws, {
      redraw: [[200, { results: drawnResults(lastMonth), prize: null }, () => (draws[lastMonth] = redrawn)]],
    });
    renderApp("/operator");
    const section = await drawSection();
    const table = await within(section).findByRole("table", { name: "Prizes" });
    await user.click(within(table).getByRole("button", { name: "Redraw Platinum, ticket t-0001" }));
    await user.click(within(table).getByRole("button", { name: "Redraw the prize" }));
    const news = await within(section).findByText(/Platinum: the prize was not given again/);
    await waitFor(() => expect(document.activeElement?.contains(news)).toBe(true));
    await waitFor(() =>
      expect(within(table).getAllByRole("row")[1]?.textContent).toContain(
        "Redrawn: not given again, as every entrant had already won",
      ),
    );
  });

  it("keeps this month's draw open to tier changes", async () => {
    const user = userEvent.setup();
    stubDrawServer({ [lastMonth]: drawnDraw(lastMonth, []) });
    renderApp("/operator");
    const section = await drawSection();
    const select = within(section).getByLabelText("Month") as HTMLSelectElement;
    await waitFor(() => expect(select.value).toBe(lastMonth));
    await user.selectOptions(select, thisMonth);
    expect(londonMonth()).toBe(thisMonth);
    await within(section).findByRole("form", { name: "Prize tiers" });
  });

  it("lists, before the close, the walkers whose tickets are above the month's 99th percentile", async () => {
    const user = userEvent.setup();
    stubDrawServer({ [lastMonth]: drawnDraw(lastMonth, []) });
    server.use(
      http.get(operatorDrawOutliersPath(thisMonth), () =>
        HttpResponse.json({
          month: thisMonth,
          walkers: 240,
          percentile99Tickets: 9,
          above: [
            {
              userId: "far-walker",
              walkerName: "Fay Far",
              walkerEmail: "fay@example.org",
              tickets: 41,
              countedSteps: 440_000,
              eligibleSteps: 410_000,
              pendingSteps: 30_000,
              lateDays: [`${thisMonth}-02`, `${thisMonth}-03`],
              heldDays: [
                {
                  date: `${thisMonth}-03`,
                  countedSteps: 40_000,
                  eligibleSteps: 10_000,
                  pendingSteps: 30_000,
                  late: true,
                  reasons: [],
                },
              ],
            },
          ],
        }),
      ),
    );
    renderApp("/operator");
    const section = await drawSection();
    const select = within(section).getByLabelText("Month") as HTMLSelectElement;
    await waitFor(() => expect(select.value).toBe(lastMonth));
    await user.selectOptions(select, thisMonth);
    const list = await within(section).findByRole("list", {
      name: "Walkers above the 99th percentile, the most tickets first",
    });
    expect(list.textContent).toContain("Fay Far: 41 tickets");
    expect(list.textContent).toContain("440,000 counted, 410,000 for prizes, 30,000 waiting");
    expect(list.textContent).toContain("(30,000 waiting)");
    expect(
      within(section).getByText(/Tickets above 9, the month's 99th percentile over 240 walkers/),
    ).toBeTruthy();
  });

  it("says none is far above the rest in words that fit one ticket and one walker", async () => {
    const user = userEvent.setup();
    stubDrawServer({ [lastMonth]: drawnDraw(lastMonth, []) });
    server.use(
      http.get(operatorDrawOutliersPath(thisMonth), () =>
        HttpResponse.json({ month: thisMonth, walkers: 1, percentile99Tickets: 1, above: [] }),
      ),
    );
    renderApp("/operator");
    const section = await drawSection();
    const select = within(section).getByLabelText("Month") as HTMLSelectElement;
    await waitFor(() => expect(select.value).toBe(lastMonth));
    await user.selectOptions(select, thisMonth);
    expect(
      await within(section).findByText(
        "No walker's tickets are above the month's 99th percentile (1 ticket, over 1 walker).",
      ),
    ).toBeTruthy();
  });
});
