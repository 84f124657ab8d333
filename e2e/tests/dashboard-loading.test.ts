import type { Browser, BrowserContext, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type AppServer, startAppServer } from "../support/app-server.js";
import {
  holdAnswersUntil,
  launchChromium,
  phoneContext,
  watchForErrors,
  withoutBlockedWorkerNote,
} from "../support/chromium.js";
import { newSignedInWalker } from "../support/walker.js";

let server: AppServer;
let browser: Browser;
let cookies: Awaited<ReturnType<BrowserContext["cookies"]>>;

beforeAll(async () => {
  [server, browser] = await Promise.all([startAppServer(), launchChromium()]);
  const signUp = await phoneContext(browser);
  await newSignedInWalker(await signUp.newPage(), server.origin);
  cookies = await signUp.cookies(server.origin);
  await signUp.close();
});
afterAll(async () => {
  await browser?.close();
  await server?.stop();
});

/**
 * A phone that has never opened the app (no storage, no service worker), signed in as the walker.
 * `serviceWorkers: "block"` keeps the worker from installing at all.
 */
async function freshPhone(
  options: { serviceWorkers?: "block" } = {},
): Promise<{ context: BrowserContext; page: Page; errors: string[] }> {
  const context = await phoneContext(browser, options);
  await context.addCookies(cookies);
  const page = await context.newPage();
  return { context, page, errors: watchForErrors(page) };
}

/** How many times each API path was asked for, as the page goes on. */
function countApiCalls(page: Page): Map<string, number> {
  const calls = new Map<string, number>();
  page.on("request", (request) => {
    const { pathname } = new URL(request.url());
    if (pathname.startsWith("/api/")) calls.set(pathname, (calls.get(pathname) ?? 0) + 1);
  });
  return calls;
}

/**
 * Opens (or reloads) the dashboard and waits for its numbers and the reset check's server call, then
 * a second longer for anything that call starts.
 */
async function openDashboard(page: Page, open: () => Promise<unknown>, resetPath: string): Promise<void> {
  const reset = page.waitForResponse((response) => response.url().endsWith(resetPath));
  await open();
  await page.getByText("Goal: 100,000 steps").waitFor();
  await reset;
  await page.waitForTimeout(1000);
}

describe("opening the dashboard", () => {
  it("asks for the walker's numbers while it learns who is signed in, not after", async () => {
    const { context, page, errors } = await freshPhone();
    const calls = countApiCalls(page);
    const dataAsked = () => calls.has("/api/dashboard/stats") && calls.has("/api/steps/history");
    // "Who is signed in?" is held until the dashboard's data has been asked for (5 s at most): a
    // page that waited for the answer first would only ask when the hold ran out.
    const dataAskedFirst = await holdAnswersUntil(page, "**/api/auth/user", dataAsked);

    await page.goto(`${server.origin}/dashboard`);
    await page.getByText("Goal: 100,000 steps").waitFor();

    expect(dataAskedFirst()).toBe(true);
    expect(await page.getByTestId("month-steps").textContent()).toBe("0");
    expect(errors).toEqual([]);
    await context.close();
  });

  it("on a phone's first visit asks for its numbers once: the first reset changes nothing they show", async () => {
    // Without the worker: once it takes the page it asks for the numbers once more, through itself,
    // to keep them for offline (offline-navigation.test.ts), whenever its install ends.
    const { context, page, errors } = await freshPhone({ serviceWorkers: "block" });
    const calls = countApiCalls(page);

    await openDashboard(page, () => page.goto(`${server.origin}/dashboard`), "/api/monthly-reset");

    expect(calls.get("/api/daily-reset")).toBe(1);
    expect(calls.get("/api/monthly-reset")).toBe(1);
    expect(calls.get("/api/auth/user")).toBe(1);
    expect(calls.get("/api/dashboard/stats")).toBe(1);
    expect(calls.get("/api/steps/history")).toBe(1);
    expect(withoutBlockedWorkerNote(errors)).toEqual([]);
    await context.close();
  });

  it("on the phone's first visit of a new London day asks again, for the new day's numbers", async () => {
    const { context, page, errors } = await freshPhone();
    await openDashboard(page, () => page.goto(`${server.origin}/dashboard`), "/api/monthly-reset");

    // Back the next London day, at noon by the page's clock. Not 24 hours on: from the first hour
    // of the day the clocks go back (25 hours long), that is the same day.
    const today = await page.evaluate(() =>
      new Intl.DateTimeFormat("en-CA", { timeZone: "Europe/London" }).format(),
    );
    await page.clock.setFixedTime(Date.parse(`${today}T12:00:00Z`) + 86_400_000);
    const calls = countApiCalls(page);
    await openDashboard(page, () => page.reload(), "/api/daily-reset");
    // The first load's request, then the refresh (and one more when the day starts a new month).
    await expect
      .poll(() => calls.get("/api/dashboard/stats") ?? 0, { timeout: 5000 })
      .toBeGreaterThanOrEqual(2);
    await expect
      .poll(() => calls.get("/api/steps/history") ?? 0, { timeout: 5000 })
      .toBeGreaterThanOrEqual(2);
    expect(errors).toEqual([]);
    await context.close();
  });
});
