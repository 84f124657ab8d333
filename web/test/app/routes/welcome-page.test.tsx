import {
  ACCOUNT_PREFERENCES_PATH,
  type PreferencesResponse,
  type PreferencesUpdate,
} from "@charity-steps/shared-types";
import { screen, waitFor } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { HttpResponse, http } from "msw";
import { describe, expect, it } from "vitest";
import { signedInAs } from "../../support/handlers";
import { renderApp } from "../../support/render-app";
import { server } from "../../support/server";
import { testWalker } from "../../support/walker";

const newWalker = { ...testWalker, onboardedAt: null };
const WELCOMED_AT = "2026-11-21T12:00:00.000Z";

/** A walker not yet welcomed; returns the settings each PUT sent. */
function stubNewWalker(): PreferencesUpdate[] {
  const saved: PreferencesUpdate[] = [];
  let preferences: PreferencesResponse = {
    dailyGoal: 10_000,
    theme: "system",
    onboardedAt: null,
    weeklyEmail: true,
  };
  server.use(
    signedInAs(newWalker),
    http.get(ACCOUNT_PREFERENCES_PATH, () => HttpResponse.json(preferences)),
    http.put(ACCOUNT_PREFERENCES_PATH, async ({ request }) => {
      const change = (await request.json()) as PreferencesUpdate;
      saved.push(change);
      preferences = {
        ...preferences,
        dailyGoal: change.dailyGoal ?? preferences.dailyGoal,
        onboardedAt: change.onboarded ? WELCOMED_AT : preferences.onboardedAt,
      };
      return HttpResponse.json(preferences);
    }),
  );
  return saved;
}

describe("the welcome", () => {
  it("opens instead of the dashboard for a walker not yet welcomed, and Skip ends it for good", async () => {
    const saved = stubNewWalker();
    const user = userEvent.setup();
    renderApp("/");
    expect(await screen.findByRole("heading", { level: 1, name: "Welcome to Charity Steps" })).toBeTruthy();
    expect(screen.getByRole("heading", { name: "Choose your charity" })).toBeTruthy();
    expect(screen.getAllByRole("button", { name: /^Select / })).toHaveLength(3);
    await user.click(screen.getByRole("button", { name: "Skip" }));
    expect(await screen.findByTestId("today-goal-text")).toBeTruthy();
    expect(saved).toEqual([{ onboarded: true }]);
  });

  it("walks through the three steps and saves the goal chosen with Done", async () => {
    const saved = stubNewWalker();
    const user = userEvent.setup();
    renderApp("/dashboard");
    await screen.findByRole("heading", { name: "Choose your charity" });
    await user.click(screen.getByRole("button", { name: "Next" }));
    expect(screen.getByRole("heading", { name: "How will you count?" })).toBeTruthy();
    expect(screen.getByText(/counts only while it is open with the screen on/)).toBeTruthy();
    expect(screen.getByRole("link", { name: "Set up Apple Health" }).getAttribute("href")).toBe(
      "/apple-health",
    );
    await user.click(screen.getByRole("button", { name: "Next" }));
    expect(screen.getByRole("heading", { name: "Your daily goal" })).toBeTruthy();
    expect(screen.queryByRole("button", { name: "Next" })).toBeNull();
    const goal = screen.getByRole("spinbutton", { name: "Steps a day" });
    await user.clear(goal);
    await user.type(goal, "7300");
    // Not a step of 500: said, and Done waits.
    expect(goal.getAttribute("aria-invalid")).toBe("true");
    expect(screen.getByRole("button", { name: "Done" })).toHaveProperty("disabled", true);
    await user.click(screen.getByRole("button", { name: "500 more steps" }));
    expect(goal).toHaveProperty("value", "8000");
    await user.click(screen.getByRole("button", { name: "Done" }));
    await waitFor(() => expect(saved).toEqual([{ dailyGoal: 8_000, onboarded: true }]));
    expect(await screen.findByTestId("today-goal-text")).toBeTruthy();
  });

  it("keeps the walker's step in the address, so a reload opens where they were, and goes Back a step", async () => {
    stubNewWalker();
    const user = userEvent.setup();
    renderApp("/welcome?step=3");
    expect(await screen.findByRole("heading", { name: "Your daily goal" })).toBeTruthy();
    await user.click(screen.getByRole("button", { name: "Back" }));
    const counting = screen.getByRole("heading", { name: "How will you count?" });
    expect(document.activeElement).toBe(counting);
    await user.click(screen.getByRole("button", { name: "Back" }));
    expect(screen.getByRole("heading", { name: "Choose your charity" })).toBeTruthy();
    expect(screen.queryByRole("button", { name: "Back" })).toBeNull();
  });

  it("opens the first step for an address naming no step there is", async () => {
    stubNewWalker();
    renderApp("/welcome?step=9");
    expect(await screen.findByRole("heading", { name: "Choose your charity" })).toBeTruthy();
  });

  it("is not forced on a walker already welcomed, who can still open it", async () => {
    server.use(signedInAs(testWalker));
    renderApp("/");
    expect(await screen.findByTestId("today-goal-text")).toBeTruthy();
    renderApp("/welcome");
    expect(await screen.findByRole("heading", { name: "Choose your charity" })).toBeTruthy();
  });
});
