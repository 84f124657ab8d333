import type { Browser, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type AppServer, startAppServer } from "../support/app-server.js";
import { expectAccessible } from "../support/axe.js";
import { launchChromium, phoneContext, screenshot, watchForErrors } from "../support/chromium.js";
import { createFakeClock, MID_MONTH_MOMENT, signUpAhead } from "../support/fake-clock.js";
import { newSignedInWalker } from "../support/walker.js";

/**
 * Once the walker has signed up, both clocks (the server's and the page's) read 10:00 in London on
 * Wednesday 18 November 2026: the steps synced for "today" and the month's screens agree whenever
 * this runs.
 */
const clock = createFakeClock();
const NOW = MID_MONTH_MOMENT;

let server: AppServer;
let browser: Browser;
let page: Page;
let errors: string[];

beforeAll(async () => {
  [server, browser] = await Promise.all([startAppServer({ env: { ...clock.env } }), launchChromium()]);
  page = await (await phoneContext(browser)).newPage();
  errors = watchForErrors(page);
});
afterAll(async () => {
  await browser?.close();
  await server?.stop();
  clock.dispose();
});

/** A real 2×2 PNG, as a phone's photo picker would hand over. */
const TINY_PNG = Buffer.from(
  "iVBORw0KGgoAAAANSUhEUgAAAAIAAAACCAIAAAD91JpzAAAACXBIWXMAAAPoAAAD6AG1e1JrAAAAEklEQVR4nGPgndLBO6WDAUIBAB6eBKUt+GUOAAAAAElFTkSuQmCC",
  "base64",
);

/**
 * The toast on screen (there is only ever one), checked on its own once it has slid in. The pointer
 * rests on it, which holds its timer, as a reader's would: axe may take longer than the toast stays.
 */
async function expectToastAccessible(title: string): Promise<void> {
  const toast = page.locator("li.toast").filter({ hasText: title });
  await toast.waitFor();
  await toast.hover();
  await expectAccessible(page, `the "${title}" toast`, { include: "li.toast" });
  await toast.getByRole("button", { name: "Close" }).click();
  await toast.waitFor({ state: "detached" });
}

describe("every screen meets WCAG 2.2 A and AA (axe-core)", () => {
  it("the landing page, terms and the 404 page, signed out", async () => {
    await page.goto(`${server.origin}/`);
    await page.getByRole("link", { name: "Get Started", exact: true }).waitFor();
    await expectAccessible(page, "landing page");

    await page.goto(`${server.origin}/terms`);
    await page.getByRole("heading", { level: 1 }).waitFor();
    await expectAccessible(page, "terms, signed out");

    await page.goto(`${server.origin}/no-such-page`);
    await page.getByRole("heading", { name: "404 Page Not Found" }).waitFor();
    await expectAccessible(page, "404 page, signed out");
  });

  it("the sign-in and sign-up pages, and sign-up refusing a short password", async () => {
    await page.goto(`${server.origin}/api/login`);
    await page.getByRole("button", { name: "Sign in" }).waitFor();
    await expectAccessible(page, "sign-in page");

    await page.getByRole("link", { name: "Create an account" }).click();
    await page.getByRole("button", { name: "Create account" }).waitFor();
    await expectAccessible(page, "sign-up page");

    await page.getByLabel("First name").fill("Ada");
    await page.getByLabel("Last name").fill("Lovelace");
    await page.getByLabel("Email").fill("ada.short@example.org");
    await page.getByLabel("Password").fill("short");
    await page.getByRole("button", { name: "Create account" }).click();
    await page.getByRole("alert").filter({ hasText: "at least 8 characters" }).waitFor();
    await expectAccessible(page, "sign-up page with an error");
  });

  it("the dashboard with tracking off, the manual form's error and the toasts", async () => {
    await signUpAhead(clock, NOW, () => newSignedInWalker(page, server.origin));
    await page.context().clock.setFixedTime(NOW);
    await page.reload();
    await page.getByRole("heading", { name: "Last 30 days" }).waitFor();
    await page.getByRole("button", { name: "Add Steps" }).waitFor();
    await expectAccessible(page, "dashboard, tracking off");

    await page.getByLabel("Steps", { exact: true }).fill("1200");
    await page.getByRole("button", { name: "Add Steps" }).click();
    await page.getByText("Please upload an image to verify your steps").first().waitFor();
    // The toast first, while it is there (it goes after five seconds unless held, and the page's
    // own check can take longer than that on a busy machine).
    await expectToastAccessible("Image Required");
    // The problem stays beside the form, tied to the photo picker, once the toast has gone.
    expect(await page.getByLabel("Photo proof").getAttribute("aria-invalid")).toBe("true");
    expect(await page.getByTestId("manual-steps-problem").textContent()).toBe(
      "Image Required: Please upload an image to verify your steps",
    );
    await expectAccessible(page, "dashboard, manual form refusing an entry without a photo");

    await page
      .getByLabel("Photo proof")
      .setInputFiles({ name: "proof.png", mimeType: "image/png", buffer: TINY_PNG });
    await page.getByRole("button", { name: "Add Steps" }).click();
    await expectToastAccessible("Steps Added Successfully");
  });

  it("the ring, today's goal and the 30-day chart have text a screen reader reads", async () => {
    const ring = page.getByRole("progressbar", { name: "Steps this month towards the monthly goal" });
    await expect
      .poll(() => ring.getAttribute("aria-valuetext"), { timeout: 15_000 })
      .toBe("1,200 of 100,000 steps this month");
    const today = page.getByRole("region", { name: "Today" });
    expect(await today.ariaSnapshot()).toContain("1,200 of 10,000 steps today");
    expect(
      await page
        .getByRole("progressbar", { name: "Today's steps towards your daily goal" })
        .getAttribute("aria-valuetext"),
    ).toBe("12% of your daily goal");
    const chart = page.getByRole("slider", { name: /Steps per day for the last 30 days/ });
    await chart.waitFor();
    // A photo with no capture date waits for a check: the dashboard says so in words.
    const pending = await page.evaluate(
      async () =>
        ((await (await fetch("/api/dashboard/stats")).json()) as { pendingMonthSteps: number })
          .pendingMonthSteps,
    );
    expect(pending).toBe(1_200);
    expect(await page.getByTestId("prize-entries-waiting").textContent()).toBe(
      "1,200 steps waiting for a quick check",
    );
    await page.getByText("Show the 30 days as a table").click();
    const table = page.getByRole("table", { name: "Steps per day for the last 30 days" });
    expect(await table.getByRole("row").count()).toBe(31);
    expect(await table.getByRole("row").last().textContent()).toContain("1,200");
    // The chart reads today's bar, and where its steps came from, in words.
    expect(await chart.getAttribute("aria-valuetext")).toMatch(
      /: 1,200 steps\. By hand 1,200 · Waiting for a check 1,200\.$/,
    );
    await expectAccessible(page, "dashboard, 30-day table open");
  });

  it("the dashboard with tracking on, and walk mode's pocket screen", async () => {
    await page.getByRole("button", { name: "Enable" }).click();
    // Counting live is said by the badge's word, not only by its pulsing dot.
    await page.getByText("Live", { exact: true }).waitFor();
    await expectAccessible(page, "dashboard, tracking on");

    await page.getByRole("button", { name: "Pocket screen" }).click();
    await page.getByRole("dialog", { name: "Pocket screen" }).waitFor();
    await expectAccessible(page, "pocket screen dialog");
    await page.keyboard.press("Escape");
    await page.getByRole("dialog", { name: "Pocket screen" }).waitFor({ state: "detached" });
  });

  it("the charity screen, before and after choosing", async () => {
    await page.goto(`${server.origin}/charity`);
    await page.getByText("Choose Your Charity").waitFor();
    await expectAccessible(page, "charity screen");
    await page.getByRole("button", { name: "Select British Heart Foundation" }).click();
    await page.getByText("Your Beta Selection").waitFor();
    await expectAccessible(page, "charity screen, chosen");
  });

  it("groups: none yet, the create form, the list, and a group's two tabs", async () => {
    await page.goto(`${server.origin}/groups`);
    await page.getByText("No Groups Yet").waitFor();
    await expectAccessible(page, "groups, none yet");

    await page.getByRole("button", { name: "Create Group" }).click();
    await page.getByLabel("Group name").fill("Lunchtime Striders");
    await expectAccessible(page, "groups, create form");
    await page.getByRole("button", { name: "Create", exact: true }).click();
    await page.getByRole("heading", { name: "Lunchtime Striders" }).waitFor();
    await expectToastAccessible("Group Created");
    await expectAccessible(page, "groups, one group");

    await page.getByRole("button", { name: "Join Group" }).click();
    await page.getByPlaceholder("Enter 8-character join code").waitFor();
    await expectAccessible(page, "groups, join form");

    // Steps today, so the leaderboard has a row (a group with no steps says "No Activity Yet").
    const status = await page.evaluate(async () => {
      const today = new Intl.DateTimeFormat("en-CA", { timeZone: "Europe/London" }).format(new Date());
      const response = await fetch("/api/steps/sync", {
        method: "POST",
        headers: { "Content-Type": "application/json", "X-Device-Id": "e2e-phone" },
        body: JSON.stringify({ steps: 3_000, date: today, source: "device_motion" }),
      });
      return response.status;
    });
    expect(status).toBe(200);
    await page.getByRole("link", { name: "View" }).click();
    await page.getByText("Monthly Step Leaderboard").waitFor();
    await page.getByTestId("leaderboard-row").first().waitFor();
    // First place is marked by a medal that is read out, not only by the row's tint.
    await page.getByTestId("leaderboard-row").first().getByRole("img", { name: "Top three" }).waitFor();
    await expectAccessible(page, "group detail, leaderboard tab");
    await page.getByRole("tab", { name: "Members" }).click();
    await page.getByRole("tabpanel", { name: "Members" }).waitFor();
    await expectAccessible(page, "group detail, members tab");

    // Deleting asks in the app's own dialog: Cancel has focus, Tab stays inside, Escape gives focus
    // back to Delete and deletes nothing.
    const deleteButton = page.getByRole("button", { name: "Delete", exact: true });
    await deleteButton.click();
    const dialog = page.getByRole("dialog", {
      name: 'Are you sure you want to delete "Lunchtime Striders"?',
    });
    await dialog.waitFor();
    // What has focus: a button's text inside the dialog, "page" for anything behind it, or "none"
    // when focus has gone past the last button to the browser's own controls (the page is inert).
    const focused = () =>
      dialog.evaluate((element) => {
        const active = document.activeElement;
        if (active && element.contains(active)) return active.textContent;
        return active === null || active === document.body ? "none" : "page";
      });
    expect(await focused()).toBe("Cancel");
    await expectAccessible(page, "delete-group confirm dialog");
    const visited: (string | null)[] = [];
    for (let i = 0; i < 4; i++) {
      await page.keyboard.press("Tab");
      visited.push(await focused());
    }
    expect(visited).not.toContain("page");
    expect(visited[0]).toBe("Delete group");
    expect(visited).toContain("Cancel");
    await page.keyboard.press("Escape");
    await dialog.waitFor({ state: "hidden" });
    expect(await deleteButton.evaluate((button) => button === document.activeElement)).toBe(true);
    await page.getByRole("heading", { name: "Lunchtime Striders" }).waitFor();
  });

  it("the Apple Health screen, the account screen and its confirm dialog", async () => {
    await page.goto(`${server.origin}/apple-health`);
    await page.getByRole("heading", { level: 1 }).waitFor();
    await expectAccessible(page, "Apple Health screen");
    await page.getByLabel("Name of the iPhone").fill("Ada's iPhone");
    await page.getByRole("button", { name: "Create key" }).click();
    await page.getByRole("button", { name: "Done, I've copied it" }).waitFor();
    await expectAccessible(page, "Apple Health screen, a new key shown");
    await page.getByRole("button", { name: "Done, I've copied it" }).click();

    await page.goto(`${server.origin}/account`);
    await page.getByRole("region", { name: "Profile" }).waitFor();
    await page.getByText("Active Beta Tester").waitFor();
    await expectAccessible(page, "account screen");

    const remove = page.getByRole("button", { name: "Remove Ada's iPhone" });
    await remove.click();
    const dialog = page.getByRole("dialog", { name: `Remove the key "Ada's iPhone"?` });
    await dialog.waitFor();
    // The safe choice has focus; Escape closes the dialog and gives focus back to its button.
    expect(
      await dialog.getByRole("button", { name: "Cancel" }).evaluate((b) => b === document.activeElement),
    ).toBe(true);
    await expectAccessible(page, "remove-key confirm dialog");
    await page.keyboard.press("Escape");
    await dialog.waitFor({ state: "hidden" });
    expect(await remove.evaluate((button) => button === document.activeElement)).toBe(true);
  });

  it("terms, the Subscribe page and the 404 page, signed in", async () => {
    await page.goto(`${server.origin}/terms`);
    await page.getByRole("heading", { level: 1 }).waitFor();
    await expectAccessible(page, "terms, signed in");

    // The header's Subscribe link leads to a page of its own.
    await page.getByRole("link", { name: "Subscribe" }).first().click();
    await page.getByRole("heading", { level: 1, name: "Subscribe" }).waitFor();
    await page.getByText("Coming Soon").waitFor();
    await page.getByText("£5.99").waitFor();
    await screenshot(page, "114-subscribe");
    await expectAccessible(page, "Subscribe page");

    await page.goto(`${server.origin}/no-such-page`);
    await page.getByRole("heading", { name: "404 Page Not Found" }).waitFor();
    await expectAccessible(page, "404 page, signed in");
  });

  it("logged no errors on the way", () => {
    expect(errors).toEqual([]);
  });
});
