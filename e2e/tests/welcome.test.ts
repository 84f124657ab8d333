import { randomBytes } from "node:crypto";
import type { Browser, BrowserContext, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type AppServer, startAppServer } from "../support/app-server.js";
import { expectAccessible } from "../support/axe.js";
import {
  launchChromium,
  phoneContext,
  recordToasts,
  screenshot,
  showTheme,
  watchForErrors,
} from "../support/chromium.js";
import { accountsMadeAt } from "../support/database.js";
import { createFakeClock, signUpMoment } from "../support/fake-clock.js";
import { syncedSteps } from "../support/walker.js";

/** Both clocks (the server's and the page's): 09:00 in London on 24 and then 25 November 2026. */
const clock = createFakeClock();
const FIRST_DAY = "2026-11-24";
const SECOND_DAY = "2026-11-25";
const morningOf = (day: string) => Date.parse(`${day}T09:00:00Z`);

let server: AppServer;
let browser: Browser;
let context: BrowserContext;
let page: Page;
let errors: string[];

beforeAll(async () => {
  // The account is made with the server's clock a year ahead, so that the sign-in pages' cookies
  // outlive the browser's real clock; the welcome itself runs on the first day.
  await clock.set(signUpMoment());
  [server, browser] = await Promise.all([startAppServer({ env: { ...clock.env } }), launchChromium()]);
  context = await phoneContext(browser);
  await context.clock.setFixedTime(morningOf(FIRST_DAY));
  page = await context.newPage();
  errors = watchForErrors(page);
});
afterAll(async () => {
  await browser?.close();
  await server?.stop();
  clock.dispose();
});

/** Steps counted on this phone for `day`, sent as the app sends them. */
async function walked(day: string, steps: number): Promise<void> {
  expect(await syncedSteps(page, day, steps, "welcome-phone")).toBe(200);
}

describe("a new walker's first days", () => {
  it("is welcomed, chooses a charity, how to count and a goal of 8,000", async () => {
    await page.goto(`${server.origin}/api/login`);
    await page.getByRole("link", { name: "Create an account" }).click();
    await page.getByLabel("First name").fill("Willa");
    await page.getByLabel("Last name").fill("Welcome");
    await page.getByLabel("Email").fill(`willa.${randomBytes(4).toString("hex")}@example.org`);
    await page.getByLabel("Password").fill("steps-for-charity-2026");
    await page.getByRole("button", { name: "Create account" }).click();
    await clock.set(morningOf(FIRST_DAY));

    await page.getByRole("heading", { level: 1, name: "Welcome to Charity Steps" }).waitFor();
    // Willa joined on the first day (the week's card is only for weeks she had an account in).
    accountsMadeAt(server, morningOf(FIRST_DAY));
    expect(new URL(page.url()).pathname).toBe("/welcome");
    await page.getByRole("button", { name: "Select British Heart Foundation" }).click();
    await page.getByRole("button", { name: "Selected: British Heart Foundation" }).waitFor();
    await screenshot(page, "108-welcome-charity");
    await expectAccessible(page, "welcome: choose your charity");

    await page.getByRole("button", { name: "Next" }).click();
    await page.getByRole("heading", { name: "How will you count?" }).waitFor();
    await page.getByText(/counts only while it is open with the screen on/).waitFor();
    await screenshot(page, "109-welcome-counting");
    await expectAccessible(page, "welcome: how will you count?");
    // A reload keeps her place; Back goes back a step, and Next on again.
    await page.reload();
    await page.getByRole("heading", { name: "How will you count?" }).waitFor();
    await page.getByRole("button", { name: "Back" }).click();
    await page.getByRole("heading", { name: "Choose your charity" }).waitFor();
    await page.getByRole("button", { name: "Next" }).click();
    await page.getByRole("heading", { name: "How will you count?" }).waitFor();

    await page.getByRole("button", { name: "Next" }).click();
    await page.getByRole("heading", { name: "Your daily goal" }).waitFor();
    await page.getByRole("spinbutton", { name: "Steps a day" }).fill("8000");
    await screenshot(page, "110-welcome-goal");
    await expectAccessible(page, "welcome: your daily goal");
    await showTheme(page, "dark");
    await screenshot(page, "110-welcome-goal-dark");
    await expectAccessible(page, "welcome: your daily goal, dark");
    await showTheme(page, "light");
    await page.getByRole("button", { name: "Done" }).click();

    await page.getByRole("heading", { level: 1, name: "Dashboard" }).waitFor();
    expect(await page.getByTestId("today-goal-text").textContent()).toBe("0 of 8,000 steps today");
    // Done, the welcome is not in the way back: the browser's Back does not open one of its steps.
    await page.goBack();
    expect(new URL(page.url()).pathname).not.toBe("/welcome");
    await page.goForward();
    await page.getByRole("heading", { level: 1, name: "Dashboard" }).waitFor();
    // Welcomed once: the home screen no longer sends the walker to the welcome.
    await page.goto(`${server.origin}/`);
    await page.getByTestId("today-goal-text").waitFor();
    expect(new URL(page.url()).pathname).toBe("/");
  });

  it("reaches the goal and is told so, once", async () => {
    const toasts = await recordToasts(page);
    await walked(FIRST_DAY, 8_200);
    await page.reload();
    await expect
      .poll(() => page.getByTestId("today-goal-text").textContent())
      .toBe("8,200 of 8,000 steps today");
    await page.getByTestId("goal-reached").waitFor();
    await toasts.seen("Daily goal reached!");
    await screenshot(page, "111-goal-reached", { fullPage: false });
    await expectAccessible(page, "dashboard with the daily goal reached");
    // A streak of one day is not one yet.
    expect(await page.getByTestId("streak").count()).toBe(0);
    // The celebration is once a day: opening the page again does not repeat it. (The toast would
    // come in the same moment as the mark, from the same render.)
    await page.reload();
    await page.getByTestId("goal-reached").waitFor();
    await page.waitForTimeout(1_000);
    expect((await toasts.all()).filter((text) => text.includes("Daily goal reached!"))).toEqual([]);
  });

  it("sees a 2-day streak the next day, once that day's goal is reached too", async () => {
    await clock.set(morningOf(SECOND_DAY));
    await context.clock.setFixedTime(morningOf(SECOND_DAY));
    await page.reload();
    await expect.poll(() => page.getByTestId("today-goal-text").textContent()).toBe("0 of 8,000 steps today");
    expect(await page.getByText("8,000 steps to go today").count()).toBe(1);
    await walked(SECOND_DAY, 9_100);
    await page.reload();
    await expect.poll(() => page.getByTestId("streak").textContent()).toBe("2-day streak");
    await screenshot(page, "112-two-day-streak", { fullPage: false });
    expect(errors).toEqual([]);
  });

  it("finds last week's card on Monday morning, and can put it away", async () => {
    const monday = Date.parse("2026-11-30T08:00:00Z");
    await clock.set(monday);
    await context.clock.setFixedTime(monday);
    await page.reload();
    const card = page.getByRole("region", { name: "Your week, looked back on" });
    await card.waitFor();
    // 8,200 on Tuesday and 9,100 on Wednesday, both on the goal of 8,000.
    expect(await card.getByText("17,300", { exact: true }).count()).toBe(1);
    expect(await card.getByText("2 of 7", { exact: true }).count()).toBe(1);
    expect(await card.getByText("Wed 25 Nov: 9,100 steps").count()).toBe(1);
    expect(await page.getByTestId("week-impact").textContent()).toBe(
      "Your 17,300 steps last week walked for British Heart Foundation",
    );
    await screenshot(page, "113-week-card", { fullPage: false });
    await expectAccessible(page, "dashboard with last week's card");
    await page.getByRole("button", { name: "Dismiss last week's summary" }).click();
    await card.waitFor({ state: "detached" });
    await page.reload();
    await page.getByTestId("today-goal-text").waitFor();
    expect(await card.count()).toBe(0);
    expect(errors).toEqual([]);
  });
});
