import {
  type DashboardStatsResponse,
  MANUAL_ENTRIES_PATH,
  PACE_REVIEWS_PATH,
  type PaceReview,
  REVIEW_REASON_MESSAGES,
} from "@charity-steps/shared-types";
import { QueryClientProvider } from "@tanstack/react-query";
import { render, screen, waitFor, within } from "@testing-library/react";
import { HttpResponse, http } from "msw";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { PACE_REVIEWS_KEY } from "../../../src/features/manual-steps/fair-play-words";
import { PaceHoldsList } from "../../../src/features/manual-steps/pace-holds-list";
import { createQueryClient } from "../../../src/lib/query-client";
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
  eligibleMonthSteps: 13_500,
  pendingMonthSteps: 12_000,
  prizeEntries: 1,
  stepsToNextEntry: 6_500,
  charityName: null,
  prizePool: 0,
  appleHealthLastImportAt: null,
};

function paceHold(overrides: Partial<PaceReview>): PaceReview {
  return {
    id: "hold-1",
    date: "2026-11-21",
    steps: 7_750,
    createdAt: "2026-11-21T10:00:00.000Z",
    status: "pending",
    reasons: [{ code: "pace", message: REVIEW_REASON_MESSAGES.pace }],
    decisionReason: null,
    ...overrides,
  };
}

/** The walker's API with the pace holds given (or the holds' list failing when `holds` is null). */
function stubWalkerApi(holds: PaceReview[] | null) {
  server.use(
    signedInAs(testWalker),
    http.get("/api/dashboard/stats", () => HttpResponse.json(stats)),
    http.get("/api/steps/history", () => HttpResponse.json({ days: [] })),
    http.get(MANUAL_ENTRIES_PATH, () => HttpResponse.json({ entries: [] })),
    http.get(PACE_REVIEWS_PATH, () =>
      holds
        ? HttpResponse.json({ reviews: holds })
        : HttpResponse.json({ message: "Something went wrong." }, { status: 500 }),
    ),
  );
}

/** The first render loads the app's lazy chunks: slow while other suites run. */
const LOADED = { timeout: 10_000 };

/** The list on its own, settled: its request answered, however it was answered. */
async function renderSettled() {
  const queryClient = createQueryClient();
  const view = render(
    <QueryClientProvider client={queryClient}>
      <PaceHoldsList />
    </QueryClientProvider>,
  );
  await waitFor(() => expect(queryClient.getQueryState(PACE_REVIEWS_KEY)?.status).not.toBe("pending"));
  return view;
}

describe("steps held for their pace, as the walker sees them", () => {
  beforeEach(() => {
    vi.useFakeTimers({ toFake: ["Date"] });
    vi.setSystemTime(new Date("2026-11-21T12:00:00Z"));
  });
  afterEach(() => {
    vi.useRealTimers();
  });

  it("lists each hold on the dashboard with its day, steps and status in words", async () => {
    stubWalkerApi([
      paceHold({ id: "a", date: "2026-11-21", steps: 12_000 }),
      paceHold({
        id: "b",
        date: "2026-11-20",
        steps: 7_750,
        status: "rejected",
        decisionReason: "The count jumped by 8,000 in one minute.",
      }),
      paceHold({ id: "c", date: "2026-11-19", steps: 1_500, status: "approved" }),
    ]);
    renderApp("/dashboard");
    const list = await screen.findByRole("list", { name: "Steps held for a quick check" }, LOADED);
    const [waiting, rejected, approved] = within(list).getAllByTestId("pace-hold") as HTMLElement[];

    expect(waiting?.textContent).toContain("Sat, 21 Nov 2026");
    expect(waiting?.textContent).toContain("12,000 steps");
    expect(
      within(waiting as HTMLElement).getByText(
        "Counted a little faster than walking pace: these steps count toward prize entries once checked",
      ),
    ).toBeTruthy();

    expect(rejected?.textContent).toContain("Fri, 20 Nov 2026");
    expect(rejected?.textContent).toContain("7,750 steps");
    expect(
      within(rejected as HTMLElement).getByText(
        "Not counted for prizes: The count jumped by 8,000 in one minute.",
      ),
    ).toBeTruthy();

    expect(approved?.textContent).toContain("Thu, 19 Nov 2026");
    expect(approved?.textContent).toContain("1,500 steps");
    expect(within(approved as HTMLElement).getByText("Counted")).toBeTruthy();
  });

  it("shows nothing when the walker has no holds", async () => {
    stubWalkerApi([]);
    const { container } = await renderSettled();
    expect(container.textContent).toBe("");
    expect(screen.queryByText("Steps held for a quick check")).toBeNull();
  });

  it("shows nothing when the holds could not be loaded", async () => {
    stubWalkerApi(null);
    const { container } = await renderSettled();
    expect(container.textContent).toBe("");
  });
});
