import type { Browser, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type AppServer, POSTAL_ENTRY_ADDRESS, startAppServer } from "../support/app-server.js";
import { launchChromium, phoneContext, screenshot, showTheme, watchForErrors } from "../support/chromium.js";
import { createFakeClock, MID_MONTH_MOMENT, signUpAhead } from "../support/fake-clock.js";
import { newSignedInWalker } from "../support/walker.js";

/**
 * Both clocks (the server's and the page's): 10:00 in London on Wednesday 18 November 2026, well
 * before the month's last days, when the postal route and the commitment shown move on a month.
 */
const clock = createFakeClock();
const MONTH = "2026-11";
const NOW = MID_MONTH_MOMENT;

let server: AppServer;
let browser: Browser;
let page: Page;
let errors: string[];

beforeAll(async () => {
  await signUpAhead(clock, NOW, async () => {
    [server, browser] = await Promise.all([startAppServer({ env: { ...clock.env } }), launchChromium()]);
    page = await (await phoneContext(browser)).newPage();
    errors = watchForErrors(page);
    await newSignedInWalker(page, server.origin);
  });
  await page.context().clock.setFixedTime(NOW);
});
afterAll(async () => {
  await browser?.close();
  await server?.stop();
  clock.dispose();
});

describe("the prize page, before the draw", () => {
  it("shows this month's commitment as the API publishes it, and the free postal route", async () => {
    const published = await (await fetch(`${server.origin}/api/draws/${MONTH}`)).json();
    expect(published.commitment).toMatch(/^[0-9a-f]{64}$/);

    await page.goto(`${server.origin}/prize-draw`);
    const commitment = page.getByTestId("draw-commitment");
    await commitment.waitFor();
    expect(await commitment.textContent()).toBe(published.commitment);
    expect(await page.getByTestId("postal-address").textContent()).toBe(POSTAL_ENTRY_ADDRESS);
    await page.getByText("One entry per envelope.", { exact: false }).waitFor();
    await screenshot(page, "80-prize-draw-commitment");

    await page.goto(`${server.origin}/terms`);
    expect(await page.getByTestId("postal-address").textContent()).toBe(POSTAL_ENTRY_ADDRESS);
    expect(errors).toEqual([]);
  });

  it("is laid out once on a slow connection: a section's title stays where it first showed", async () => {
    // The month's draw answers late, as over a poor signal; the rest of the page answers at once.
    await page.route(`**/api/draws/${MONTH}`, async (route) => {
      await new Promise((resolve) => setTimeout(resolve, 600));
      await route.continue();
    });
    await page.goto(`${server.origin}/prize-draw`);
    const sectionTitle = page.getByText("Prize Categories");
    await sectionTitle.waitFor();
    const first = await sectionTitle.boundingBox();
    await page.getByTestId("draw-commitment").waitFor();
    await page.waitForTimeout(800);
    expect(await sectionTitle.boundingBox()).toEqual(first);
    await sectionTitle.click();
    await page.getByText("Platinum:").waitFor();
    const sections = sectionTitle.locator("xpath=../..");
    await screenshot(sections, "80-prize-draw-sections");
    await showTheme(page, "dark");
    await screenshot(sections, "80-prize-draw-sections-dark");
    await showTheme(page, "light");
    await page.unroute(`**/api/draws/${MONTH}`);
    expect(errors).toEqual([]);
  });
});
