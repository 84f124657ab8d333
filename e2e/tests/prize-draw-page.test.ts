import type { Browser, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type AppServer, POSTAL_ENTRY_ADDRESS, startAppServer } from "../support/app-server.js";
import { launchChromium, phoneContext, screenshot, watchForErrors } from "../support/chromium.js";
import { newSignedInWalker } from "../support/walker.js";

let server: AppServer;
let browser: Browser;
let page: Page;
let errors: string[];
const month = new Intl.DateTimeFormat("en-CA", {
  timeZone: "Europe/London",
  year: "numeric",
  month: "2-digit",
})
  .format(Date.now())
  .slice(0, 7);

beforeAll(async () => {
  [server, browser] = await Promise.all([startAppServer(), launchChromium()]);
  page = await (await phoneContext(browser)).newPage();
  errors = watchForErrors(page);
});
afterAll(async () => {
  await browser?.close();
  await server?.stop();
});

describe("the prize page, before the draw", () => {
  it("shows this month's commitment as the API publishes it, and the free postal route", async () => {
    await newSignedInWalker(page, server.origin);
    const published = await (await fetch(`${server.origin}/api/draws/${month}`)).json();
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
