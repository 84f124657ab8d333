import { render, screen, within } from "@testing-library/react";
import { describe, expect, it } from "vitest";
import { ProgressRing } from "../../../src/features/dashboard/progress-ring";
import { StepHistoryChart } from "../../../src/features/dashboard/step-history-chart";
import { monthlyRingText } from "../../../src/features/dashboard/step-numbers";
import { todayGoalText } from "../../../src/features/dashboard/today-goal";

describe("what a screen reader says for the dashboard's pictures", () => {
  it("reads the monthly ring as steps of the goal, not a bare percentage", () => {
    render(
      <ProgressRing
        value={42_318}
        goal={100_000}
        label="Steps this month"
        valueText={monthlyRingText(42_318)}
      />,
    );
    const ring = screen.getByRole("progressbar", { name: "Steps this month" });
    expect(ring.getAttribute("aria-valuetext")).toBe("42,318 of 100,000 steps this month");
    expect(ring.getAttribute("aria-valuenow")).toBe("42318");
  });

  it("keeps the ring's value within its range past the goal, and says the real count", () => {
    render(
      <ProgressRing
        value={123_456}
        goal={100_000}
        label="Steps this month"
        valueText={monthlyRingText(123_456)}
      />,
    );
    const ring = screen.getByRole("progressbar");
    expect(ring.getAttribute("aria-valuenow")).toBe("100000");
    expect(ring.getAttribute("aria-valuetext")).toBe("123,456 of 100,000 steps this month");
  });

  it("reads today's steps against the walker's own goal as one sentence", () => {
    expect(todayGoalText(5_500, 8_000)).toBe("5,500 of 8,000 steps today");
    expect(todayGoalText(0, 10_000)).toBe("0 of 10,000 steps today");
    expect(todayGoalText(45_000, 30_000)).toBe("45,000 of 30,000 steps today");
  });

  it("gives the 30-day chart a summary name and a table of every day's steps", () => {
    const days = Array.from({ length: 30 }, (_, i) => ({
      date: `2026-11-${String(i + 1).padStart(2, "0")}`,
      steps: i === 29 ? 12_000 : i * 100,
    }));
    render(<StepHistoryChart days={days} />);
    expect(screen.getByRole("img", { name: /Steps per day for the last 30 days/ })).toBeTruthy();

    const table = screen.getByRole("table", { name: "Steps per day for the last 30 days" });
    const rows = within(table).getAllByRole("row");
    // A header row, then one row a day in order.
    expect(rows).toHaveLength(31);
    expect(within(rows[1] as HTMLElement).getByRole("rowheader").textContent).toBe("1 Nov");
    expect(
      within(rows[30] as HTMLElement)
        .getAllByRole("cell")
        .map((cell) => cell.textContent),
    ).toEqual(["12,000", "Reached"]);
    expect(
      within(rows[2] as HTMLElement)
        .getAllByRole("cell")
        .map((cell) => cell.textContent),
    ).toEqual(["100", "Not yet"]);
  });
});
