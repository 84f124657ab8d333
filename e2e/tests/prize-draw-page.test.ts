import type { Browser, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type AppServer, POSTAL_ENTRY_ADDRESS, startAppServer } from "../support/app-server.js";
import { launchChromium, phoneContext, screenshot, watchForErrors } from "../support/chromium.js";
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
});
