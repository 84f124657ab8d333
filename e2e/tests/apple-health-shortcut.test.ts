import type { Browser, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type AppServer, startAppServer } from "../support/app-server.js";
import { launchChromium, phoneContext, screenshot, watchForErrors } from "../support/chromium.js";
import { createFakeClock, MID_MONTH_MOMENT, signUpAhead } from "../support/fake-clock.js";
import { newSignedInWalker, serverTodaySteps, shownTodaySteps } from "../support/walker.js";

let server: AppServer;
let browser: Browser;
let page: Page;
let errors: string[];
let stepKey = "";
// The Shortcut's steps are the server's today's, read back on the phone: on fixed clocks, no
// midnight falls between.
const clock = createFakeClock();
const NOW = MID_MONTH_MOMENT;

beforeAll(async () => {
  await signUpAhead(clock, NOW, async () => {
    [server, browser] = await Promise.all([startAppServer({ env: { ...clock.env } }), launchChromium()]);
    page = await (await phoneContext(browser)).newPage();
    errors = watchForErrors(page);
    await newSignedInWalker(page, server.origin);
  });
  await page.context().clock.setFixedTime(NOW);
  await page.reload();
});
afterAll(async () => {
  await browser?.close();
  await server?.stop();
  clock.dispose();
});

/** What the iPhone's Shortcut does: Get Contents of URL, POST, the key as a Bearer token, JSON. */
function sendFromShortcut(key: string, body: unknown): Promise<Response> {
  return fetch(`${server.origin}/api/health/apple-health`, {
    method: "POST",
    headers: { authorization: `Bearer ${key}`, "content-type": "application/json" },
    body: JSON.stringify(body),
  });
}

describe("Apple Health through the Shortcuts app", () => {
  it("leads from the tracking card to the setup page, where a key is made and shown once", async () => {
    await page.getByLabel("Count steps with").selectOption("apple_health");
    await page.getByRole("link", { name: "Set up" }).click();
    await page.getByRole("heading", { name: "Apple Health", level: 1 }).waitFor();

    await page.getByLabel("Name of the iPhone").fill("Wendy's iPhone");
    await page.getByRole("button", { name: "Create key" }).click();
    stepKey = (await page.getByTestId("new-step-key").first().textContent()) ?? "";
    expect(stepKey).toMatch(/^csk_[A-Za-z0-9_-]{40,}$/);
    await page.getByText("You will not see this key again").first().waitFor();
    // The guide now carries the walker's own address and key, ready to copy into the Shortcut.
    expect(await page.getByText(`${server.origin}/api/health/apple-health`).count()).toBeGreaterThan(0);
    await screenshot(page, "63-apple-health-setup");
  });

  it("takes the day's steps the Shortcut sends, and the dashboard shows them with the import time", async () => {
    const answer = await sendFromShortcut(stepKey, { steps: "8234" });
    expect(answer.status).toBe(200);

    await page.goto(`${server.origin}/dashboard`);
    await page.getByText("Goal: 100,000 steps").waitFor();
    await page.getByText(/^Apple Health: last import \d\d:\d\d$/).waitFor();
    await expect.poll(() => shownTodaySteps(page)).toBe(8234);
    expect(await serverTodaySteps(page)).toBe(8234);
    await screenshot(page, "64-dashboard-apple-health-import");
  });

  it("lists the key on the Account page with its last use, and a removed key sends nothing more", async () => {
    await page.goto(`${server.origin}/account`);
    const list = page.getByRole("list").filter({ hasText: "Wendy's iPhone" });
    await list.getByText(/Last used/).waitFor();
    await screenshot(page, "65-account-step-import-keys");

    await page.getByRole("button", { name: "Remove Wendy's iPhone" }).click();
    await page
      .getByRole("dialog", { name: `Remove the key "Wendy's iPhone"?` })
      .getByRole("button", { name: "Remove key" })
      .click();
    await page.getByText("No keys yet.").waitFor();

    const refused = await sendFromShortcut(stepKey, { steps: 9000 });
    expect(refused.status).toBe(401);
    expect(await serverTodaySteps(page)).toBe(8234);
    expect(errors).toEqual([]);
  });
});
