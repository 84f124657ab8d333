import { WEEK_SUMMARY_PATH, weekChangeText, weekToLookBackOn } from "@charity-steps/shared-types";
import { screen, within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { HttpResponse, http } from "msw";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { dashboardStats, signedInAs } from "../../support/handlers";
import { renderApp } from "../../support/render-app";
import { server } from "../../support/server";
import { testWalker } from "../../support/walker";

describe("the week's card", () => {
  it("looks back on last week from 07:00 London on Monday, through the week", () => {
    // Monday 30 November 2026 (GMT): not before 07:00.
    expect(weekToLookBackOn(Date.parse("2026-11-30T06:59:00Z"))).toBeNull();
    expect(weekToLookBackOn(Date.parse("2026-11-30T07:00:00Z"))).toBe("2026-11-23");
    expect(weekToLookBackOn(Date.parse("2026-12-06T22:00:00Z"))).toBe("2026-11-23");
    // In summer London is an hour ahead: 06:30 UTC on a Monday is 07:30 there.
    expect(weekToLookBackOn(Date.parse("2026-06-29T06:30:00Z"))).toBe("2026-06-22");
    expect(weekToLookBackOn(Date.parse("2026-06-29T05:59:00Z"))).toBeNull();
  });

  it("compares with the week before in words", () => {
    expect(weekChangeText(52_310, 30_000)).toBe("74% more steps than the week before");
    expect(weekChangeText(15_000, 30_000)).toBe("50% fewer steps than the week before");
    expect(weekChangeText(5_000, 0)).toBe("Your first week of steps with us");
  });

  describe("on the dashboard", () => {
    beforeEach(() => {
      vi.useFakeTimers({ toFake: ["Date"] });
      vi.setSystemTime(new Date("2026-11-30T09:00:00Z"));
    });
    afterEach(() => {
      vi.useRealTimers();
    });

    it("shows last week's steps, days on goal, best day, change and impact until dismissed", async () => {
      const asked: string[] = [];
      server.use(
        signedInAs(testWalker),
        http.get("/api/dashboard/stats", () =>
          HttpResponse.json(dashboardStats({ date: "2026-11-30", charityName: "British Heart Foundation" })),
        ),
        http.get(WEEK_SUMMARY_PATH, ({ request }) => {
          asked.push(new URL(request.url).searchParams.get("start") ?? "");
          return HttpResponse.json({
            start: "2026-11-23",
            steps: 52_310,
            daysOnGoal: 4,
            bestDay: { date: "2026-11-27", steps: 12_810 },
            previousWeekSteps: 30_000,
          });
        }),
      );
      const user = userEvent.setup();
      const { unmount } = renderApp("/dashboard");
      const card = await screen.findByRole("region", { name: "Your week, looked back on" });
      expect(asked).toEqual(["2026-11-23"]);
      expect(card.textContent).toContain("52,310");
      expect(card.textContent).toContain("4 of 7");
      expect(card.textContent).toContain("Fri 27 Nov: 12,810 steps");
      expect(card.textContent).toContain("74% more steps than the week before");
      expect(screen.getByTestId("week-impact").textContent).toBe(
        "Your 52,310 steps last week walked for British Heart Foundation",
      );
      await user.click(screen.getByRole("button", { name: "Dismiss last week's summary" }));
      expect(screen.queryByRole("region", { name: "Your week, looked back on" })).toBeNull();
      unmount();
      renderApp("/dashboard");
      await screen.findByTestId("today-goal-text");
      expect(screen.queryByRole("region", { name: "Your week, looked back on" })).toBeNull();
    });

    it("says a week without steps after one with steps in words, with no best day of 0 and no impact", async () => {
      server.use(
        signedInAs(testWalker),
        http.get("/api/dashboard/stats", () =>
          HttpResponse.json(dashboardStats({ date: "2026-11-30", charityName: "British Heart Foundation" })),
        ),
        http.get(WEEK_SUMMARY_PATH, () =>
          HttpResponse.json({
            start: "2026-11-23",
            steps: 0,
            daysOnGoal: 0,
            bestDay: { date: "2026-11-23", steps: 0 },
            previousWeekSteps: 30_000,
          }),
        ),
      );
      renderApp("/dashboard");
      const card = await screen.findByRole("region", { name: "Your week, looked back on" });
      expect(card.textContent).toContain("No steps that week, after 30,000 steps the week before");
      expect(card.textContent).not.toContain("fewer steps");
      // No best day in a week without steps, as in the mail.
      expect(within(card).queryByText("Best day")).toBeNull();
      expect(screen.queryByTestId("week-impact")).toBeNull();
    });

    it("shows no card when the week has nothing to look back on, as for a walker who joined after it", async () => {
      const asked: string[] = [];
      server.use(
        signedInAs(testWalker),
        http.get("/api/dashboard/stats", () => HttpResponse.json(dashboardStats({ date: "2026-11-30" }))),
        // The API's answer for a week that ended before the walker's account began.
        http.get(WEEK_SUMMARY_PATH, ({ request }) => {
          asked.push(new URL(request.url).searchParams.get("start") ?? "");
          return HttpResponse.json({
            start: "2026-11-23",
            steps: 0,
            daysOnGoal: 0,
            bestDay: { date: "2026-11-23", steps: 0 },
            previousWeekSteps: 0,
          });
        }),
      );
      renderApp("/dashboard");
      await screen.findByTestId("today-goal-text");
      await vi.waitFor(() => expect(asked).toEqual(["2026-11-23"]));
      expect(screen.queryByRole("region", { name: "Your week, looked back on" })).toBeNull();
    });
  });
});
