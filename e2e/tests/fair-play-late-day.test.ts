import type { Browser, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type AppServer, startAppServer } from "../support/app-server.js";
import { expectAccessible } from "../support/axe.js";
import { launchChromium, phoneContext, screenshot, watchForErrors } from "../support/chromium.js";
import { createFakeClock, signUpAhead } from "../support/fake-clock.js";
import { newSignedInWalker, signedInOperator } from "../support/walker.js";

/** The server's clock: 11:00 in London on 26 November 2026, when the 23rd is late and the month open. */
const clock = createFakeClock();
const NOW = Date.parse("2026-11-26T11:00:00Z");
const LATE_DAY = "2026-11-23";
const LATE_DAY_WORDS = /arrived more than 36 hours after it ended: steps above 10,000 wait for a check/;

let server: AppServer;
let browser: Browser;
let late: Page;
let operator: Page;
let lateErrors: string[];
let operatorErrors: string[];

beforeAll(async () => {
  await signUpAhead(clock, NOW, async () => {
    [server, browser] = await Promise.all([startAppServer({ env: { ...clock.env } }), launchChromium()]);
    late = await (await phoneContext(browser)).newPage();
    operator = await (await phoneContext(browser)).newPage();
    lateErrors = watchForErrors(late);
    operatorErrors = watchForErrors(operator);
    await newSignedInWalker(late, server.origin, { firstName: "Lena", lastName: "Late" });
    await signedInOperator(operator, server);
  });
});
afterAll(async () => {
  await browser?.close();
  await server?.stop();
  clock.dispose();
});

// A second walker syncs a day long after it ended: its steps above 10,000 wait, the walker is told
// why, and the operator approves the walker's month in one decision.
describe("fair play's day rules: a late day, and one decision on a walker's month", () => {
  it("tells the walker which day waits and why, in neutral words", async () => {
    // The 23rd, synced only on the 26th (the phone was offline): late.
    const synced = await late.evaluate(async (day) => {
      const response = await fetch("/api/steps/sync", {
        method: "POST",
        headers: { "content-type": "application/json", "x-device-id": "lena-phone" },
        body: JSON.stringify({ steps: 21_000, date: day, source: "device_motion" }),
      });
      return response.status;
    }, LATE_DAY);
    expect(synced).toBe(200);
    await late.goto(`${server.origin}/dashboard`);
    const holds = late.getByRole("region", { name: "Days waiting for a quick check" });
    await holds.getByText(LATE_DAY_WORDS).waitFor();
    await holds.getByText("11,000 steps").waitFor();
    await late
      .getByTestId("prize-entries-waiting")
      .getByText("11,000 steps waiting for a quick check")
      .waitFor();
    // The late day's first 10,000 count at once.
    expect(await late.getByTestId("prize-entries").textContent()).toBe("1");
    await holds.scrollIntoViewIfNeeded();
    await screenshot(late, "106-fair-play-late-day-walker", { fullPage: false });
    await expectAccessible(late, "dashboard with a late day waiting");
  });

  it("lets the operator approve the walker's whole month in one decision", async () => {
    await operator.goto(`${server.origin}/operator`);
    const walkers = operator.getByRole("list", { name: "Walkers with steps waiting, the most first" });
    const card = walkers.getByRole("listitem").filter({ hasText: "Lena Late" });
    await expect
      .poll(() => card.getByRole("heading").textContent())
      .toMatch(/^Lena Late: 11,000 steps waiting in /);
    await card.getByText(LATE_DAY_WORDS).waitFor();
    await card.scrollIntoViewIfNeeded();
    await screenshot(operator, "107-fair-play-walker-month", { fullPage: false });
    await expectAccessible(operator, "operator console with a walker's month waiting");

    await card.getByRole("textbox", { name: /Reason/ }).fill("Offline on a hill walk; the steps look right.");
    await card.getByRole("button", { name: /^Approve / }).click();
    await operator.locator("li.toast").getByText("Month approved").waitFor();
    await operator.getByText("No walker has steps waiting for a check.").waitFor();
    await operator
      .getByRole("list", { name: "Operator actions, newest first" })
      .getByText("review.month.approve")
      .waitFor();

    await late.reload();
    await expect.poll(() => late.getByTestId("prize-entries").textContent()).toBe("2");
    expect(await late.getByRole("region", { name: "Days waiting for a quick check" }).count()).toBe(0);
    expect(lateErrors).toEqual([]);
    expect(operatorErrors).toEqual([]);
  });
});
