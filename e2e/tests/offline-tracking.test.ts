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
import { createFakeClock, MID_MONTH_MOMENT, signUpAhead } from "../support/fake-clock.js";
import { timeline } from "../support/timeline.js";
import { newSignedInWalker, serverTodaySteps, shownTodaySteps, walk } from "../support/walker.js";

let server: AppServer;
let browser: Browser;
let context: BrowserContext;
let page: Page;
let errors: string[];
// Today's steps are counted on the phone and read back from the server over a minute or more: on
// clocks that start at a fixed day (and run on at the real pace, as the walks' timers need), no
// midnight falls between. The service worker keeps the real clock; what it sends is dated by the page.
const clock = createFakeClock();
const NOW = MID_MONTH_MOMENT;

beforeAll(async () => {
  await signUpAhead(clock, NOW, async () => {
    [server, browser] = await Promise.all([startAppServer({ env: { ...clock.env } }), launchChromium()]);
    context = await phoneContext(browser);
    page = await context.newPage();
    errors = watchForErrors(page);
    await newSignedInWalker(page, server.origin);
  });
  await context.clock.setSystemTime(NOW);
  // The service worker must control the page before the network goes away.
  await page.evaluate(async () => {
    await navigator.serviceWorker.ready;
  });
  await page.reload();
  await page.getByText("Goal: 100,000 steps").waitFor();
});
afterAll(async () => {
  await browser?.close();
  await server?.stop();
  clock.dispose();
});

// One walker's day: counting, a walk with no signal, a reload, the signal back, a second tab.
describe("counting steps offline and syncing them once", () => {
  let counted = 0;

  it("counts a walk once tracking is enabled and sends it to the server", async () => {
    await page.getByRole("button", { name: "Enable" }).click();
    await page.getByText("Live", { exact: true }).waitFor();
    await walk(page, 10);
    counted = await shownTodaySteps(page);
    expect(counted).toBeGreaterThanOrEqual(15);
    expect(counted).toBeLessThanOrEqual(20);
    await page.getByRole("button", { name: "Test Movement" }).click();
    // Real-time syncs go every 10 steps; the rest follows with the next one or the sync engine.
    await expect.poll(() => serverTodaySteps(page), { timeout: 20_000 }).toBeGreaterThanOrEqual(10);
    await screenshot(page, "20-dashboard-tracking-live");
  });

  it("keeps counting with no signal, and keeps the steps through a reload", async () => {
    await context.setOffline(true);
    await walk(page, 10);
    const offline = await shownTodaySteps(page);
    expect(offline).toBeGreaterThanOrEqual(counted + 15);
    counted = offline;

    await page.reload();
    await page.getByText("Goal: 100,000 steps").waitFor();
    await expect.poll(() => shownTodaySteps(page)).toBe(counted);
    // The remembered choice resumes counting without a tap where the browser allows it.
    await page.getByText("Live", { exact: true }).waitFor();
    await page.getByText("You're offline: steps added by hand need the connection").waitFor();
    expect(await page.getByRole("button", { name: "Add Steps" }).isDisabled()).toBe(true);
    await screenshot(page, "21-dashboard-offline-after-reload");
  });

  it("sends the offline steps when the signal is back: the server ends at the dashboard's count", async () => {
    await context.setOffline(false);
    await expect.poll(() => serverTodaySteps(page), { timeout: 30_000 }).toBe(counted);
    await expect.poll(() => shownTodaySteps(page)).toBe(counted);
  });

  it("counts a walk once with two tabs open: the second shows the same numbers", async () => {
    const second = await context.newPage();
    // Its steps take under a quarter of a minute, and a stalled one up to half a minute more before
    // its own wait gives up, so the test has two minutes; should it still run out of time, the
    // timeline says which step it stood at.
    const step = timeline(page, second);
    try {
      step("opening the second tab");
      await second.goto(`${server.origin}/dashboard`);
      await second.getByText("Goal: 100,000 steps").waitFor();
      await second.getByText(/Counting in another tab/).waitFor();

      // Both tabs receive the phone's motion, as they would on a real phone.
      step("walking in both tabs");
      await Promise.all([walk(page, 10), walk(second, 10)]);
      const first = await shownTodaySteps(page);
      expect(first - counted).toBeGreaterThanOrEqual(15);
      expect(first - counted).toBeLessThanOrEqual(20);
      step(`waiting for the second tab to show ${first}`);
      await expect.poll(() => shownTodaySteps(second), { timeout: 15_000 }).toBe(first);
      counted = first;
      // The last few steps (real-time syncs go every 10th) leave with the next sync: the walker comes
      // back to the app's window, which focuses it.
      step(`waiting for the server to count ${counted}`);
      await expect
        .poll(
          async () => {
            await page.evaluate(() => window.dispatchEvent(new Event("focus")));
            return serverTodaySteps(page);
          },
          { timeout: 30_000, interval: 2_000 },
        )
        .toBe(counted);
    } finally {
      // Closed whatever happened, so that the tests after it have the one tab they expect.
      await second.close();
    }
  }, 120_000);

  it("logged no errors on the way", () => {
    expect(withoutOfflineNoise(errors)).toEqual([]);
  });
});

// Chromium's offline emulation covers pages, not the service worker: the worker's own requests go
// out while the page is "offline". So this proves the worker's path with the page closed, and that
// a sync event delivered again (as CDP does here) counts nothing twice.
describe("the service worker sends queued steps with no page open", () => {
  it("delivers a closed app's steps by Background Sync, and a replayed sync event adds nothing", async () => {
    const swContext = await phoneContext(browser);
    const walkerPage = await swContext.newPage();
    await signUpAhead(clock, NOW, () => newSignedInWalker(walkerPage, server.origin));
    await swContext.clock.setSystemTime(NOW);
    await walkerPage.evaluate(async () => {
      await navigator.serviceWorker.ready;
    });
    await walkerPage.reload();
    await walkerPage.getByRole("button", { name: "Enable" }).click();
    await walkerPage.getByText("Live", { exact: true }).waitFor();

    await swContext.setOffline(true);
    await walk(walkerPage, 10);
    const counted = await shownTodaySteps(walkerPage);
    expect(counted).toBeGreaterThanOrEqual(15);
    // The walker closes the app while the page has no signal.
    const cdp = await swContext.newCDPSession(await swContext.newPage());
    await walkerPage.close();
    await swContext.setOffline(false);
    const serverSteps = async () =>
      ((await (await swContext.request.get(`${server.origin}/api/steps/today`)).json()) as { steps: number })
        .steps;

    const registration = new Promise<string>((resolve) => {
      cdp.on("ServiceWorker.workerRegistrationUpdated", ({ registrations }) => {
        const ours = registrations.find((r) => r.scopeURL.startsWith(server.origin) && !r.isDeleted);
        if (ours) resolve(ours.registrationId);
      });
    });
    await cdp.send("ServiceWorker.enable");
    const registrationId = await registration;
    const dispatchSync = () =>
      cdp.send("ServiceWorker.dispatchSyncEvent", {
        origin: server.origin,
        registrationId,
        // The tag workbox-background-sync gives the worker's step_sync Queue.
        tag: "workbox-background-sync:step_sync",
        lastChance: false,
      });
    await dispatchSync();
    await expect.poll(serverSteps, { timeout: 30_000 }).toBe(counted);

    await dispatchSync();
    await dispatchSync();
    await new Promise((resolve) => setTimeout(resolve, 2_000));
    expect(await serverSteps()).toBe(counted);
    await swContext.close();
  });
});
