import { addDays, STEP_HISTORY_PATH, type StepHistoryResponse } from "@charity-steps/shared-types";
import { QueryClientProvider } from "@tanstack/react-query";
import { render, screen, within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { HttpResponse, http } from "msw";
import { describe, expect, it } from "vitest";
import {
  axisTop,
  barText,
  type HistoryDay,
  StepHistoryChart,
  yearDaysFor,
} from "../../../src/features/dashboard/step-history-chart";
import { createQueryClient } from "../../../src/lib/query-client";
import { recordRequests, server } from "../../support/server";

const TODAY = "2026-11-30";
const day = (date: string, steps: number, parts: Partial<HistoryDay> = {}): HistoryDay => ({
  date,
  steps,
  motionSteps: steps,
  healthSteps: 0,
  manualSteps: 0,
  goal: 8_000,
  ...parts,
});
/** The last 30 days to the 30th of November: the 1st walked 100, each day 100 more, today 12,000. */
const MONTH = Array.from({ length: 30 }, (_, i) =>
  day(addDays(TODAY, i - 29), i === 29 ? 12_000 : (i + 1) * 100),
);

function renderChart(days: HistoryDay[] = MONTH, dailyGoal = 8_000) {
  return render(
    <QueryClientProvider client={createQueryClient()}>
      <StepHistoryChart days={days} dailyGoal={dailyGoal} />
    </QueryClientProvider>,
  );
}

describe("the step history chart", () => {
  it("shows 30 days against the walker's goal, with a y-axis, the goal on its line, and a table", () => {
    renderChart();
    expect(screen.getByRole("heading", { name: "Last 30 days" })).toBeTruthy();
    const chart = screen.getByRole("slider", { name: /Steps per day for the last 30 days/ });
    expect(chart.getAttribute("aria-label")).toContain("your daily goal of 8,000 steps");
    expect(screen.getByText("Goal 8,000")).toBeTruthy();
    // 0, half way and the top: above the goal and the tallest day, at a round number.
    expect(screen.getByText("15k")).toBeTruthy();
    expect(screen.getByText("7.5k")).toBeTruthy();
    expect(screen.getByText("55,500 steps · daily goal reached on 1 day")).toBeTruthy();

    const table = screen.getByRole("table", { name: "Steps per day for the last 30 days" });
    const rows = within(table).getAllByRole("row");
    expect(rows).toHaveLength(31);
    expect(within(rows[1] as HTMLElement).getByRole("rowheader").textContent).toBe("Sun 1 Nov");
    expect(
      within(rows[30] as HTMLElement)
        .getAllByRole("cell")
        .map((cell) => cell.textContent),
    ).toEqual(["12,000", "Reached"]);
    // A day that is over did not reach its goal; today has not reached it yet.
    const goalOf = (row: number) => within(rows[row] as HTMLElement).getAllByRole("cell")[1]?.textContent;
    expect(goalOf(29)).toBe("Not reached");
  });

  it("judges each day by the goal it had, so raising the goal today leaves the days before it reached", () => {
    // Two days of 9,000 on a goal of 8,000, then today the goal was raised to 12,000.
    const days = [
      day(addDays(TODAY, -2), 9_000),
      day(addDays(TODAY, -1), 9_000),
      day(TODAY, 9_000, { goal: 12_000 }),
    ];
    renderChart(days, 12_000);
    expect(screen.getByText("Goal 12,000")).toBeTruthy();
    const rows = within(screen.getByRole("table")).getAllByRole("row");
    const goalOf = (row: number) => within(rows[row] as HTMLElement).getAllByRole("cell")[1]?.textContent;
    expect([goalOf(1), goalOf(2), goalOf(3)]).toEqual(["Reached", "Reached", "Not yet"]);
    expect(screen.getByText("27,000 steps · daily goal reached on 2 days")).toBeTruthy();
  });

  it("says today's goal is not reached yet, where a day that is over did not reach it", () => {
    renderChart([...MONTH.slice(0, 29), day(TODAY, 3_000)]);
    const rows = within(screen.getByRole("table")).getAllByRole("row");
    const goalOf = (row: number) => within(rows[row] as HTMLElement).getAllByRole("cell")[1]?.textContent;
    expect(goalOf(1)).toBe("Not reached");
    expect(goalOf(30)).toBe("Not yet");
  });

  it("reads a bar's steps and where they came from, by arrow keys or a tap", async () => {
    const user = userEvent.setup();
    const days = [
      ...MONTH.slice(0, 28),
      day(addDays(TODAY, -1), 10_000, {
        motionSteps: 6_000,
        healthSteps: 7_500,
        manualSteps: 2_500,
        pendingSteps: 2_500,
      }),
      // Today: the server has 3,000; this phone has counted 1,200 more it has not sent.
      day(TODAY, 4_200, { motionSteps: 3_000 }),
    ];
    renderChart(days);
    const chart = screen.getByRole("slider");
    expect(chart.getAttribute("aria-valuetext")).toBe(
      "Mon 30 Nov: 4,200 steps. This phone 3,000 · Not yet sent 1,200.",
    );
    chart.focus();
    await user.keyboard("{ArrowLeft}");
    const yesterday =
      "Sun 29 Nov: 10,000 steps. This phone 6,000 · Apple Health 7,500 · By hand 2,500 · Waiting for a check 2,500.";
    expect(chart.getAttribute("aria-valuetext")).toBe(yesterday);
    expect(screen.getByTestId("chart-detail").textContent).toBe(yesterday);
    await user.keyboard("{Home}");
    expect(screen.getByTestId("chart-detail").textContent).toBe("Sun 1 Nov: 100 steps. This phone 100.");
  });

  it('says a day of one step as "1 step"', () => {
    const one = { key: "d", label: "Thu 3 Dec", value: 1, steps: 1, motionSteps: 1 };
    const none = { healthSteps: 0, manualSteps: 0, pendingSteps: 0, unsentSteps: 0 };
    expect(barText({ ...one, ...none })).toBe("Thu 3 Dec: 1 step. This phone 1.");
  });

  it("shows the last 7 days in the week's view, and the year as months from the server", async () => {
    const user = userEvent.setup();
    const sent = recordRequests();
    const yearDays = yearDaysFor(TODAY);
    expect(yearDays).toBe(365); // 1 December 2025 to 30 November 2026
    server.use(
      http.get(STEP_HISTORY_PATH, ({ request }) => {
        const count = Number(new URL(request.url).searchParams.get("days"));
        return HttpResponse.json({
          days: Array.from({ length: count }, (_, i) => day(addDays(TODAY, i - (count - 1)), 5_000)),
        } satisfies StepHistoryResponse);
      }),
    );
    renderChart();

    await user.click(screen.getByRole("button", { name: "Week" }));
    expect(screen.getByRole("heading", { name: "Last 7 days" })).toBeTruthy();
    expect(
      within(screen.getByRole("table", { hidden: true })).getAllByRole("row", { hidden: true }),
    ).toHaveLength(8);

    await user.click(screen.getByRole("button", { name: "Year" }));
    expect(await screen.findByRole("heading", { name: "Last 12 months" })).toBeTruthy();
    const chart = await screen.findByRole("slider", { name: /month by month/ });
    expect(sent.map((request) => request.url)).toContain(`${STEP_HISTORY_PATH}?days=365`);
    // The last bar is November: the server's days, with the last 30 (this phone's view) in their place.
    expect(chart.getAttribute("aria-valuetext")).toBe(
      "November 2026: 55,500 steps, 1,850 a day on average. This phone 55,500.",
    );
    const rows = within(screen.getByRole("table", { hidden: true })).getAllByRole("row", { hidden: true });
    expect(rows).toHaveLength(13);
    expect(within(rows[1] as HTMLElement).getByRole("rowheader", { hidden: true }).textContent).toBe(
      "December 2025",
    );
    expect(screen.getByRole("button", { name: "Year" }).getAttribute("aria-pressed")).toBe("true");
  });

  it("rounds the axis' top above the goal and the tallest bar", () => {
    expect(axisTop(10_000, [3_000])).toBe(15_000);
    expect(axisTop(8_000, [21_000])).toBe(30_000);
    expect(axisTop(2_000, [0])).toBe(5_000);
  });
});
