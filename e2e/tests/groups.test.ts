import type { Browser, BrowserContext, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type AppServer, startAppServer } from "../support/app-server.js";
import {
  launchChromium,
  phoneContext,
  screenshot,
  watchForErrors,
  withoutOfflineNoise,
} from "../support/chromium.js";
import { createFakeClock, MID_MONTH_MOMENT, signUpMoment } from "../support/fake-clock.js";
import { newSignedInWalker } from "../support/walker.js";

/**
 * Both clocks (the server's and the pages'): 10:00 in London on Wednesday 18 November 2026, so that
 * today's steps and this month's leaderboard are the same day and month for both, whenever this runs.
 */
const clock = createFakeClock();
const NOW = MID_MONTH_MOMENT;

let server: AppServer;
let browser: Browser;
const walkers: { context: BrowserContext; page: Page; errors: string[] }[] = [];

beforeAll(async () => {
  // Signed up at a moment ahead of the browser's real clock, so the sign-in pages' cookies last.
  await clock.set(signUpMoment());
  [server, browser] = await Promise.all([startAppServer({ env: { ...clock.env } }), launchChromium()]);
  for (let i = 0; i < 2; i++) {
    const context = await phoneContext(browser);
    await context.grantPermissions(["clipboard-read", "clipboard-write"], { origin: server.origin });
    const page = await context.newPage();
    walkers.push({ context, page, errors: watchForErrors(page) });
  }
  await newSignedInWalker(walkers[0]?.page as Page, server.origin);
  await newSignedInWalker(walkers[1]?.page as Page, server.origin);
  await clock.set(NOW);
  for (const { context } of walkers) await context.clock.setFixedTime(NOW);
});
afterAll(async () => {
  await browser?.close();
  await server?.stop();
  clock.dispose();
});

const admin = () => walkers[0]?.page as Page;
const member = () => walkers[1]?.page as Page;

/** Steps as the tracker would sync them: the device's whole count for today. */
async function walkToday(page: Page, steps: number) {
  const status = await page.evaluate(async (count) => {
    const today = new Intl.DateTimeFormat("en-CA", { timeZone: "Europe/London" }).format(new Date());
    const response = await fetch("/api/steps/sync", {
      method: "POST",
      headers: { "Content-Type": "application/json", "X-Device-Id": "e2e-phone" },
      body: JSON.stringify({ steps: count, date: today, source: "device_motion" }),
    });
    return response.status;
  }, steps);
  expect(status).toBe(200);
}

describe("two walkers in a group", () => {
  let joinCode = "";

  it("one creates a group and copies its code", async () => {
    const page = admin();
    await page.goto(`${server.origin}/groups`);
    await page.getByText("No Groups Yet").waitFor();
    await page.getByRole("button", { name: "Create Group" }).click();
    const create = page.getByRole("button", { name: "Create", exact: true });
    expect(await create.isDisabled()).toBe(true);
    // A name pasted past the limit stays whole, and the walker is told by how much.
    const tooLong = "Lunchtime Striders of the Riverside Business Park, Walking Club";
    await page.getByLabel("Group name").fill(tooLong);
    expect(await page.getByLabel("Group name").inputValue()).toBe(tooLong);
    await page.getByText("3 characters too many").waitFor();
    expect(await create.isDisabled()).toBe(true);
    await screenshot(page, "30a-groups-name-too-long", { fullPage: false });
    await page.emulateMedia({ colorScheme: "dark" });
    await page.waitForFunction(() => document.documentElement.dataset.theme === "dark");
    await screenshot(page, "30b-groups-name-too-long-dark", { fullPage: false });
    await page.emulateMedia({ colorScheme: "light" });
    await page.getByLabel("Group name").fill("  Lunchtime Striders  ");
    await page.getByText("42 characters left").waitFor();
    await page.getByLabel(/Description/).fill("Round the park at one");
    await create.click();
    await page.getByText("Group Created").first().waitFor();
    await page.getByRole("heading", { name: "Lunchtime Striders" }).waitFor();
    expect(await page.getByLabel("Group name").count()).toBe(0);
    await page.getByText("Admin", { exact: true }).waitFor();

    const copy = page.getByRole("button", { name: /Copy join code/ });
    joinCode = ((await copy.textContent()) ?? "").trim();
    expect(joinCode).toMatch(/^[A-HJ-KM-NP-Z2-9]{8}$/);
    await copy.click();
    await page.getByText("Join code copied to clipboard").first().waitFor();
    await page.getByTestId("copied-check").waitFor();
    expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(joinCode);
    await screenshot(page, "30-groups-list-admin");
  });

  it("the other joins with the code typed in lower case", async () => {
    const page = member();
    await page.goto(`${server.origin}/groups`);
    await page.getByRole("button", { name: "Join Group" }).click();
    const input = page.getByPlaceholder("Enter 8-character join code");
    await input.pressSequentially(joinCode.toLowerCase());
    expect(await input.inputValue()).toBe(joinCode);
    await page.getByRole("button", { name: "Join", exact: true }).click();
    await page.getByText("Joined Group").first().waitFor();
    await page.getByRole("heading", { name: "Lunchtime Striders" }).waitFor();
    expect(await page.getByRole("button", { name: "Leave" }).count()).toBe(1);
  });

  it("both see each other on the monthly leaderboard, in order", async () => {
    await walkToday(admin(), 3_000);
    await walkToday(member(), 7_500);
    const page = admin();
    await page.reload();
    await page.getByRole("link", { name: "View" }).click();
    await page.getByText("Monthly Step Leaderboard").waitFor();
    const rows = page.getByTestId("leaderboard-row");
    await expect.poll(() => rows.count()).toBe(2);
    expect(await rows.nth(0).textContent()).toContain("7,500");
    expect(await rows.nth(1).textContent()).toContain("3,000");
    expect(await page.content()).not.toContain("@example.org");
    await screenshot(page, "31-group-leaderboard");
    await page.getByRole("tab", { name: "Members" }).click();
    await page.getByText("Admin", { exact: true }).waitFor();
    await screenshot(page, "32-group-members");
  });

  it("with no signal, the groups screens show what they last had and say why actions wait", async () => {
    const { context, page } = walkers[0] as { context: BrowserContext; page: Page };
    await page.goto(`${server.origin}/groups`);
    await page.getByRole("heading", { name: "Lunchtime Striders" }).waitFor();
    await page.evaluate(async () => {
      await navigator.serviceWorker.ready;
    });
    await page.reload();
    await page.getByRole("heading", { name: "Lunchtime Striders" }).waitFor();
    await context.setOffline(true);
    try {
      await page.reload();
      await page.getByRole("heading", { name: "Lunchtime Striders" }).waitFor();
      await page.getByText(/You're offline: showing your groups as they were last loaded/).waitFor();
      expect(await page.getByRole("button", { name: "Create Group" }).isDisabled()).toBe(true);
      await screenshot(page, "33-groups-offline");
    } finally {
      await context.setOffline(false);
    }
  });

  it("the member leaves from the group's page and is back on the list", async () => {
    const page = member();
    await page.getByRole("link", { name: "View" }).click();
    await page.getByText("Monthly Step Leaderboard").waitFor();
    await page.getByRole("button", { name: "Leave" }).first().click();
    // The app's own dialog asks; Cancel keeps the walker in the group.
    const dialog = page.getByRole("dialog", { name: "Are you sure you want to leave this group?" });
    await dialog.getByRole("button", { name: "Cancel" }).click();
    await dialog.waitFor({ state: "hidden" });
    expect(page.url()).toMatch(/\/groups\/\d+$/);
    await page.getByRole("button", { name: "Leave" }).first().click();
    await dialog.getByRole("button", { name: "Leave group" }).click();
    await page.waitForURL(`${server.origin}/groups`);
    await page.getByText("No Groups Yet").waitFor();
  });

  it("the admin deletes the group after confirming", async () => {
    const page = admin();
    await page.goto(`${server.origin}/groups`);
    await page.getByRole("button", { name: "Delete" }).click();
    const dialog = page.getByRole("dialog", {
      name: 'Are you sure you want to delete "Lunchtime Striders"?',
    });
    expect(await dialog.getByText("This action cannot be undone and will remove all members.").count()).toBe(
      1,
    );
    await screenshot(page, "34-groups-delete-confirm");
    await dialog.getByRole("button", { name: "Delete group" }).click();
    await page.getByText("Group Deleted").first().waitFor();
    await page.getByText("No Groups Yet").waitFor();
    // Steps are the walkers' own: deleting the group keeps them.
    const today = await page.evaluate(async () => (await (await fetch("/api/steps/today")).json()).steps);
    expect(today).toBe(3_000);
  });

  it("logged no errors", () => {
    expect(withoutOfflineNoise(walkers.flatMap((walker) => walker.errors))).toEqual([]);
  });
});
