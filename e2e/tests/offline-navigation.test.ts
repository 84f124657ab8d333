import type { Browser, BrowserContext, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type AppServer, startAppServer } from "../support/app-server.js";
import {
  launchChromium,
  phoneContext,
  screenshot,
  showTheme,
  watchForErrors,
  withoutOfflineNoise,
} from "../support/chromium.js";
import { newSignedInWalker } from "../support/walker.js";

let server: AppServer;
let browser: Browser;
let context: BrowserContext;
let page: Page;
let errors: string[];
let email: string;
/** Every request to the API, the service worker's included, by path. */
const apiRequests: string[] = [];

beforeAll(async () => {
  [server, browser] = await Promise.all([startAppServer(), launchChromium()]);
  context = await phoneContext(browser);
  context.on("request", (request) => {
    const url = new URL(request.url());
    if (url.origin === server.origin && url.pathname.startsWith("/api/")) apiRequests.push(url.pathname);
  });
  page = await context.newPage();
  errors = watchForErrors(page);
  ({ email } = await newSignedInWalker(page, server.origin, { firstName: "Olwen", lastName: "Offline" }));
  // Every signed-in screen opened once online, as a walker's first days would.
  for (const tab of ["Groups", "Charity", "Prizes", "Account", "Dashboard"]) {
    await page.getByRole("link", { name: tab, exact: true }).first().click();
    await page.waitForLoadState("networkidle");
  }
  await page.evaluate(async () => {
    await navigator.serviceWorker.ready;
  });
});
afterAll(async () => {
  await browser?.close();
  await server?.stop();
});

/** The requests to `path` made while `during` runs, and for `settleMs` after. */
async function countedRequests(path: string, during: () => Promise<void>, settleMs = 3_000) {
  const start = apiRequests.length;
  await during();
  await page.waitForTimeout(settleMs);
  return apiRequests.slice(start).filter((requested) => requested === path).length;
}

describe("opened with no signal", () => {
  it("shows the last known account, and asks the server about it at most once or twice", async () => {
    await context.setOffline(true);
    const asked = await countedRequests("/api/auth/user", async () => {
      await page.reload();
      await page.getByText("Goal: 100,000 steps").waitFor();
      await page.getByRole("link", { name: "Account", exact: true }).first().click();
      await page.getByText(email).first().waitFor();
    });
    expect(asked).toBeLessThanOrEqual(2);
    await screenshot(page, "22-account-offline-after-reload");
  });

  it("keeps every screen it has seen, and floods nothing while it waits", async () => {
    const total = await countedRequests(
      "/api/auth/user",
      async () => {
        for (const [tab, shown] of [
          ["Groups", "Groups"],
          ["Charity", "Choose your charity"],
          ["Prizes", "Prize draw"],
          ["Dashboard", "Goal: 100,000 steps"],
        ] as const) {
          await page.getByRole("link", { name: tab, exact: true }).first().click();
          await page.getByText(shown).filter({ visible: true }).first().waitFor();
        }
      },
      2_000,
    );
    expect(total).toBeLessThanOrEqual(3);
    const everything = apiRequests.length;
    await page.waitForTimeout(3_000);
    // Waiting with the app open and no signal: a few retries at most, backing off.
    expect(apiRequests.length - everything).toBeLessThanOrEqual(4);
  });

  it("is itself again once the signal is back", async () => {
    await context.setOffline(false);
    await page.getByRole("link", { name: "Account", exact: true }).first().click();
    await page.getByText(email).first().waitFor();
    await expect.poll(() => page.evaluate(async () => (await fetch("/api/auth/user")).status)).toBe(200);
  });

  it("logged no errors on the way", () => {
    expect(withoutOfflineNoise(errors)).toEqual([]);
  });
});

describe("the signal dropping during a visit", () => {
  it("shows a screen first opened after it dropped as the worker kept it, not as empty", async () => {
    const phone = await (await phoneContext(browser)).newPage();
    const phoneErrors = watchForErrors(phone);
    await newSignedInWalker(phone, server.origin, { firstName: "Dara", lastName: "Dropout" });
    // Choices made once the worker has the page, as on any visit after the first.
    await phone.evaluate(async () => {
      await navigator.serviceWorker.ready;
    });
    await phone.goto(`${server.origin}/charity`);
    await phone.getByRole("button", { name: "Select Crohn's & Colitis UK" }).click();
    await phone.getByText("Your Beta Selection").waitFor();
    await phone.goto(`${server.origin}/groups`);
    await phone.getByRole("button", { name: "Create Group" }).click();
    await phone.getByLabel("Group name").fill("Canal Path Walkers");
    await phone.getByRole("button", { name: "Create", exact: true }).click();
    await phone.getByRole("heading", { name: "Canal Path Walkers" }).waitFor();
    // A fresh page, online: neither screen has been read in it when the signal drops.
    await phone.goto(`${server.origin}/`);
    await phone.getByRole("heading", { level: 1, name: "Dashboard" }).waitFor();
    await phone.waitForLoadState("networkidle");
    await phone.context().setOffline(true);
    await phone.getByRole("link", { name: "Groups", exact: true }).first().click();
    await phone.getByRole("heading", { name: "Canal Path Walkers" }).waitFor();
    expect(await phone.getByText("No Groups Yet").count()).toBe(0);
    await screenshot(phone, "22c-groups-offline-mid-visit");
    await phone.getByRole("link", { name: "Charity", exact: true }).first().click();
    await phone.getByText("Your Beta Selection").waitFor();
    expect(await phone.getByRole("button", { name: "Selected: Crohn's & Colitis UK" }).count()).toBe(1);
    expect(withoutOfflineNoise(phoneErrors)).toEqual([]);
    await phone.context().close();
  });
});

describe("settings saved online, then opened with no signal", () => {
  it("shows the goal and switches as they were saved, not as they were first read", async () => {
    const settings = await phoneContext(browser);
    try {
      const phone = await settings.newPage();
      const phoneErrors = watchForErrors(phone);
      await newSignedInWalker(phone, server.origin, { firstName: "Sian", lastName: "Settings" });
      await phone.evaluate(async () => {
        await navigator.serviceWorker.ready;
      });
      // Read once through the worker as they were, then changed on the same screen.
      await phone.goto(`${server.origin}/account`);
      const goalSection = phone.getByRole("region", { name: "Your daily goal" });
      const goal = goalSection.getByLabel("Steps a day");
      await expect.poll(() => goal.inputValue()).toBe("10000");
      await goal.fill("12000");
      await goalSection.getByRole("button", { name: "Save goal" }).click();
      await phone.getByText("Daily goal saved").first().waitFor();
      const notifications = phone.getByRole("region", { name: "Notifications" });
      const goalPush = notifications.getByRole("checkbox", { name: "Daily goal reached: push" });
      expect(await goalPush.isChecked()).toBe(true);
      const switchSaved = phone.waitForResponse(
        (response) =>
          response.request().method() === "PUT" &&
          new URL(response.url()).pathname === "/api/notifications/preferences",
      );
      await goalPush.uncheck();
      expect((await switchSaved).status()).toBe(200);

      await settings.setOffline(true);
      await phone.reload();
      await phone.getByRole("heading", { level: 1, name: "Account" }).waitFor();
      await expect.poll(() => goal.inputValue()).toBe("12000");
      await goalPush.waitFor();
      expect(await goalPush.isChecked()).toBe(false);
      await goalSection.scrollIntoViewIfNeeded();
      await screenshot(phone, "22d-account-settings-offline-light", { fullPage: false });
      await showTheme(phone, "dark");
      await screenshot(phone, "22d-account-settings-offline-dark", { fullPage: false });
      expect(withoutOfflineNoise(phoneErrors)).toEqual([]);
    } finally {
      await settings.close();
    }
  });
});

describe("a walker's first visit", () => {
  it("keeps the first screen's reads for offline, though they were made before the worker took the page", async () => {
    const firstVisit = await phoneContext(browser);
    try {
      const phone = await firstVisit.newPage();
      const phoneErrors = watchForErrors(phone);
      // The app's first load on this phone: the worker installs while the dashboard reads its numbers.
      await newSignedInWalker(phone, server.origin, { firstName: "Fern", lastName: "Firstvisit" });
      const kept = () =>
        phone.evaluate(async () =>
          (await (await caches.open("charity-steps-api")).keys()).map(
            (request) => new URL(request.url).pathname,
          ),
        );
      // No other screen opened, nothing tapped: the dashboard's first reads are asked again through
      // the worker, and the parts below the first screen (loaded a few seconds later) are kept too.
      await expect
        .poll(kept, { timeout: 30_000 })
        .toEqual(expect.arrayContaining(["/api/dashboard/stats", "/api/steps/manual-entries"]));

      await firstVisit.setOffline(true);
      const entriesAnswered = phone.waitForResponse(
        (response) => new URL(response.url()).pathname === "/api/steps/manual-entries",
        { timeout: 20_000 },
      );
      await phone.reload();
      await phone.getByRole("heading", { level: 1, name: "Dashboard" }).waitFor();
      await phone.getByTestId("month-steps").waitFor();
      expect((await entriesAnswered).status()).toBe(200);
      await phone.getByRole("heading", { name: "Add steps by hand" }).waitFor();
      // The server's numbers, kept: nothing failed to load, and the walker is told they are offline
      // and that their steps wait on the phone.
      expect(await phone.getByText("could not be loaded", { exact: false }).count()).toBe(0);
      expect(await phone.getByTestId("dashboard-connection").textContent()).toBe(
        "You're offline. Steps counted on this phone are kept and sent when the signal is back.",
      );
      expect(await phone.getByTestId("month-steps").textContent()).toBe("0");
      await screenshot(phone, "22b-dashboard-offline-after-first-visit");
      expect(withoutOfflineNoise(phoneErrors)).toEqual([]);
    } finally {
      await firstVisit.close();
    }
  });
});
