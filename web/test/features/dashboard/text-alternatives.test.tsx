import { render, screen } from "@testing-library/react";
import { describe, expect, it } from "vitest";
import { ProgressRing } from "../../../src/features/dashboard/progress-ring";
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
});
