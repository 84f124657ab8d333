import {
  type DashboardStatsResponse,
  FAIR_PLAY_MESSAGES,
  MANUAL_ENTRIES_PATH,
  type ManualEntry,
  REVIEW_REASON_MESSAGES,
} from "@charity-steps/shared-types";
import { screen, waitFor, within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { HttpResponse, http } from "msw";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { useToastStore } from "../../../src/lib/toast-store";
import { signedInAs } from "../../support/handlers";
import { renderApp } from "../../support/render-app";
import { server } from "../../support/server";
import { testWalker } from "../../support/walker";

const stats: DashboardStatsResponse = {
  date: "2026-11-21",
  month: "2026-11",
  todaySteps: 5_500,
  monthlySteps: 25_500,
  dailyGoal: 10_000,
  todayOnGoal: false,
  streak: { current: 0, best: 0 },
  monthlyGoal: 100_000,
  monthlyStepsRemaining: 74_500,
  eligibleMonthSteps: 25_500,
  pendingMonthSteps: 0,
  prizeEntries: 2,
  stepsToNextEntry: 4_500,
  charityName: null,
  prizePool: 0,
  appleHealthLastImportAt: null,
};

function manualEntry(overrides: Partial<ManualEntry>): ManualEntry {
  return {
    id: "entry-1",
    date: "2026-11-21",
    steps: 4_000,
    note: "",
    source: "manual_verified",
    createdAt: "2026-11-21T10:00:00.000Z",
    status: "approved",
    reasons: [],
    decisionReason: null,
    ...overrides,
  };
}

const reason = (code: keyof typeof REVIEW_REASON_MESSAGES) => ({
  code,
  message: REVIEW_REASON_MESSAGES[code],
});

/** The walker's API: the stats and entries given, and the manual upload answered with `added`. */
function stubWalkerApi({
  statsChanges = {},
  entries = [],
  added,
}: {
  statsChanges?: Partial<DashboardStatsResponse>;
  entries?: ManualEntry[];
  added?: ManualEntry;
}) {
  const listed = [...entries];
  let current = { ...stats, ...statsChanges };
  server.use(
    signedInAs(testWalker),
    http.get("/api/dashboard/stats", () => HttpResponse.json(current)),
    http.get("/api/steps/history", () => HttpResponse.json({ days: [] })),
    http.get(MANUAL_ENTRIES_PATH, () => HttpResponse.json({ entries: listed })),
  );
  if (!added) return;
  server.use(
    http.post("/api/steps/add-manual-verified", () => {
      listed.unshift(added);
      current = {
        ...current,
        monthlySteps: current.monthlySteps + added.steps,
        ...(added.status === "pending"
          ? { pendingMonthSteps: current.pendingMonthSteps + added.steps }
          : { eligibleMonthSteps: current.eligibleMonthSteps + added.steps }),
      };
      return HttpResponse.json(
        {
          entry: added,
          daySteps: added.steps,
          todaySteps: added.steps,
          monthlySteps: current.monthlySteps,
        },
        { status: 201 },
      );
    }),
  );
}

/** The first render loads the app's lazy chunks (the manual form): slow while other suites run. */
const LOADED = { timeout: 10_000 };

const currentToast = () => useToastStore.getState().current;

async function addByHand(steps: string) {
  const user = userEvent.setup();
  await user.type(await screen.findByLabelText("Steps", {}, LOADED), steps);
  const photo = new File([new Uint8Array([0x89, 0x50, 0x4e, 0x47])], "proof.png", { type: "image/png" });
  await user.upload(screen.getByLabelText("Photo proof"), photo);
  await user.click(screen.getByRole("button", { name: "Add Steps" }));
}

describe("fair play as the walker sees it", () => {
  beforeEach(() => {
    vi.useFakeTimers({ toFake: ["Date"] });
    vi.setSystemTime(new Date("2026-11-21T12:00:00Z"));
  });
  afterEach(() => {
    vi.useRealTimers();
    useToastStore.setState({ current: null });
  });

  it("says neutrally that an entry waits for a check, lists it as waiting, and keeps prize entries", async () => {
    const pending = manualEntry({
      id: "entry-2",
      steps: 12_000,
      status: "pending",
      reasons: [reason("capture-date-missing")],
    });
    stubWalkerApi({ added: pending });
    renderApp("/dashboard");
    expect((await screen.findByTestId("prize-entries", {}, LOADED)).textContent).toBe("2");
    expect(screen.queryByTestId("prize-entries-waiting")).toBeNull();

    await addByHand("12000");
    await waitFor(() => expect(currentToast()?.title).toBe("Steps Added Successfully"));
    expect(currentToast()?.description).toBe(FAIR_PLAY_MESSAGES.pending);
    expect(currentToast()?.description).not.toContain("verified");

    // The steps show on the month; the prize entries come from eligible steps only, and say why.
    await waitFor(() => expect(screen.getByTestId("month-steps").textContent).toBe("37,500"));
    expect(screen.getByTestId("prize-entries").textContent).toBe("2");
    expect(screen.getByTestId("prize-entries-waiting").textContent).toBe(
      "12,000 steps waiting for a quick check",
    );
    const list = await screen.findByRole("list", { name: "Your manual entries" }, LOADED);
    const item = within(list).getAllByTestId("manual-entry")[0] as HTMLElement;
    expect(item.textContent).toContain("Sat, 21 Nov 2026");
    expect(item.textContent).toContain("12,000 steps");
    expect(item.textContent).toContain("Waiting for a quick check");
    expect(item.textContent).toContain("The photo does not say when it was taken.");
  });

  it("keeps the approved wording for an entry counted at once", async () => {
    stubWalkerApi({ added: manualEntry({}) });
    renderApp("/dashboard");
    await addByHand("4000");
    await waitFor(() => expect(currentToast()?.title).toBe("Steps Added Successfully"));
    expect(currentToast()?.description).toBe("Your steps have been added and automatically verified!");
    await waitFor(() => expect(screen.getByTestId("prize-entries").textContent).toBe("2"));
    expect(screen.queryByTestId("prize-entries-waiting")).toBeNull();
    const list = await screen.findByRole("list", { name: "Your manual entries" }, LOADED);
    expect(within(list).getByTestId("manual-entry").textContent).toContain("Counted");
  });

  it("lists each entry's status in words, with the reasons and the operator's reason", async () => {
    stubWalkerApi({
      statsChanges: { monthlySteps: 46_500, eligibleMonthSteps: 25_500, pendingMonthSteps: 21_000 },
      entries: [
        manualEntry({
          id: "a",
          date: "2026-11-20",
          steps: 21_000,
          status: "pending",
          reasons: [reason("manual-day-over"), reason("similar-photo")],
        }),
        manualEntry({
          id: "b",
          date: "2026-11-19",
          steps: 8_000,
          status: "rejected",
          reasons: [reason("capture-date-other-day")],
          decisionReason: "The photo shows last year's race.",
        }),
        manualEntry({ id: "c", date: "2026-11-18", steps: 3_000, note: "Park run, phone at home" }),
      ],
    });
    renderApp("/dashboard");
    const list = await screen.findByRole("list", { name: "Your manual entries" }, LOADED);
    const [pending, rejected, approved] = within(list).getAllByTestId("manual-entry") as HTMLElement[];
    expect(pending?.textContent).toContain("Fri, 20 Nov 2026");
    expect(pending?.textContent).toContain("21,000 steps");
    expect(within(pending as HTMLElement).getByText("Waiting for a quick check")).toBeTruthy();
    expect(within(pending as HTMLElement).getByText(REVIEW_REASON_MESSAGES["manual-day-over"])).toBeTruthy();
    expect(within(pending as HTMLElement).getByText(REVIEW_REASON_MESSAGES["similar-photo"])).toBeTruthy();
    expect(
      within(rejected as HTMLElement).getByText("Not counted for prizes: The photo shows last year's race."),
    ).toBeTruthy();
    expect(within(approved as HTMLElement).getByText("Counted")).toBeTruthy();
    expect(approved?.textContent).toContain("Park run, phone at home");
    // 46,500 steps shown, 25,500 eligible: the prize tile counts 2 entries and says why not 4.
    expect(screen.getByTestId("month-steps").textContent).toBe("46,500");
    expect(screen.getByTestId("prize-entries").textContent).toBe("2");
    expect(screen.getByTestId("prize-entries-waiting").textContent).toBe(
      "21,000 steps waiting for a quick check",
    );
  });

  it("shows the latest five entries, and all of them on asking", async () => {
    stubWalkerApi({
      entries: Array.from({ length: 7 }, (_, index) =>
        manualEntry({
          id: `e${index}`,
          date: `2026-11-${String(20 - index).padStart(2, "0")}`,
          steps: 1_000 + index,
        }),
      ),
    });
    const user = userEvent.setup();
    renderApp("/dashboard");
    const list = await screen.findByRole("list", { name: "Your manual entries" }, LOADED);
    expect(within(list).getAllByTestId("manual-entry")).toHaveLength(5);
    const more = screen.getByRole("button", { name: "Show all 7 entries" });
    expect(more.getAttribute("aria-expanded")).toBe("false");
    await user.click(more);
    expect(within(list).getAllByTestId("manual-entry")).toHaveLength(7);
    expect(screen.getByRole("button", { name: "Show the latest only" }).getAttribute("aria-expanded")).toBe(
      "true",
    );
  });

  it("shows no list before the walker has added steps by hand", async () => {
    stubWalkerApi({});
    renderApp("/dashboard");
    await screen.findByTestId("prize-entries", {}, LOADED);
    await screen.findByRole("button", { name: "Add Steps" }, LOADED);
    expect(screen.queryByRole("heading", { name: "Your manual entries" })).toBeNull();
  });
});
