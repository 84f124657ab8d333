import { randomBytes } from "node:crypto";
import type { Browser, BrowserContext, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type AppServer, startAppServer } from "../support/app-server.js";
import { launchChromium, phoneContext, screenshot, watchForErrors } from "../support/chromium.js";
import { createFakeClock, MID_MONTH_MOMENT, signUpMoment } from "../support/fake-clock.js";
import { skipWelcome } from "../support/walker.js";

let server: AppServer;
let browser: Browser;
let context: BrowserContext;
let page: Page;
let errors: string[];
// The server's clock and the phone's agree throughout: a year ahead for the provider's pages (their
// cookies then outlive the browser's real clock), and at a fixed day for the steps read as today's
// and the month's, so that no midnight falls between adding them and reading them.
const clock = createFakeClock();
const NOW = MID_MONTH_MOMENT;
async function clocksAt(moment: number, options: { fixed?: boolean } = {}): Promise<void> {
  await clock.set(moment);
  if (options.fixed) await context.clock.setFixedTime(moment);
  else await context.clock.setSystemTime(moment);
}
const walker = {
  firstName: "Ada",
  lastName: "Lovelace",
  email: `ada.${randomBytes(4).toString("hex")}@example.org`,
  password: "many-steps-for-charity",
};

beforeAll(async () => {
  // The server starts a year ahead, and the phone's clock is set to the same moment.
  const ahead = signUpMoment();
  await clock.set(ahead);
  [server, browser] = await Promise.all([startAppServer({ env: { ...clock.env } }), launchChromium()]);
  context = await phoneContext(browser);
  await context.clock.setSystemTime(ahead);
  page = await context.newPage();
  errors = watchForErrors(page);
});
afterAll(async () => {
  await browser?.close();
  await server?.stop();
  clock.dispose();
});

/** How many API answers the service worker keeps for offline screens (its Cache Storage). */
function apiCacheEntries(): Promise<number> {
  return page.evaluate(async () => (await (await caches.open("charity-steps-api")).keys()).length);
}

/** A real 2×2 PNG (teal pixels), as a phone's photo picker would hand over. */
const TINY_PNG = Buffer.from(
  "iVBORw0KGgoAAAANSUhEUgAAAAIAAAACCAIAAAD91JpzAAAACXBIWXMAAAPoAAAD6AG1e1JrAAAAEklEQVR4nGPgndLBO6WDAUIBAB6eBKUt+GUOAAAAAElFTkSuQmCC",
  "base64",
);

const tabBar = () => page.getByRole("navigation", { name: "Main" });

// The steps depend on each other: one walker signs up, moves around, and signs out.
describe("a new walker's first visit", () => {
  it("signs up through the built-in provider and lands on the dashboard", async () => {
    await page.goto(`${server.origin}/`);
    await page.getByRole("link", { name: "Get Started", exact: true }).click();

    // Get Started opens the sign-up form itself; the sign-in form is a link away, and back.
    await page.waitForURL(/\/auth\/interaction\/[^/]+$/);
    await page.getByRole("button", { name: "Create account" }).waitFor();
    await screenshot(page, "05-sign-up");
    await page.getByRole("link", { name: "Sign in", exact: true }).click();
    await page.getByRole("button", { name: "Sign in" }).waitFor();
    await screenshot(page, "05-sign-in");
    await page.getByRole("link", { name: "Create an account" }).click();

    await page.getByRole("button", { name: "Create account" }).waitFor();
    await page.getByLabel("First name").fill(walker.firstName);
    await page.getByLabel("Last name").fill(walker.lastName);
    await page.getByLabel("Email").fill(walker.email);
    await page.getByLabel("Password").fill("short");
    await page.getByRole("button", { name: "Create account" }).click();
    await page.getByRole("alert").filter({ hasText: "at least 8 characters" }).waitFor();
    // What was typed is kept, except the password.
    expect(await page.getByLabel("First name").inputValue()).toBe(walker.firstName);
    await screenshot(page, "06-sign-up-error");
    // A password from the breached-password lists is refused with the reason.
    await page.getByLabel("Password").fill("password2");
    await page.getByRole("button", { name: "Create account" }).click();
    await page.getByRole("alert").filter({ hasText: "This is a commonly used password." }).waitFor();
    await screenshot(page, "06-sign-up-breached-password");

    await page.getByLabel("Password").fill(walker.password);
    await page.getByRole("button", { name: "Create account" }).click();

    // A new walker is welcomed first; this journey skips it (welcome.test.ts goes through it).
    await skipWelcome(page);
    expect(new URL(page.url()).pathname).toBe("/");
    await tabBar().waitFor();
    expect(await tabBar().getByRole("link", { name: "Dashboard" }).getAttribute("aria-current")).toBe("page");
    await screenshot(page, "07-dashboard");
  });

  it("moves between the five tabs, each lit on its own screen", async () => {
    const tabs = [
      { label: "Groups", path: "/groups" },
      { label: "Charity", path: "/charity" },
      { label: "Prizes", path: "/prize-draw" },
      { label: "Account", path: "/account" },
      { label: "Dashboard", path: "/dashboard" },
    ];
    for (const [index, tab] of tabs.entries()) {
      await tabBar().getByRole("link", { name: tab.label }).click();
      await page.waitForURL(`${server.origin}${tab.path}`);
      // The next screen's code loads lazily; the tab lights once it is shown.
      await expect
        .poll(() => tabBar().getByRole("link", { name: tab.label }).getAttribute("aria-current"))
        .toBe("page");
      await page.getByRole("heading", { level: 1 }).first().waitFor();
      const lit = await tabBar().locator('[aria-current="page"]').count();
      expect(lit).toBe(1);
      await screenshot(page, `${String(8 + index).padStart(2, "0")}-tab-${tab.label.toLowerCase()}`);
    }
  });

  it("shows the walker's own name and email on the account screen", async () => {
    await tabBar().getByRole("link", { name: "Account" }).click();
    const profile = page.getByRole("region", { name: "Profile" });
    await profile.getByText(walker.email).waitFor();
    await profile.getByText(`${walker.firstName} ${walker.lastName}`).first().waitFor();
  });

  it("keeps the Groups tab lit on a group's page", async () => {
    await page.goto(`${server.origin}/groups/7`);
    await expect
      .poll(() => tabBar().getByRole("link", { name: "Groups" }).getAttribute("aria-current"))
      .toBe("page");
  });

  it("adds steps by hand with a PNG photo and sees them on the dashboard and the server", async () => {
    await clocksAt(NOW, { fixed: true });
    await page.goto(`${server.origin}/dashboard`);
    await page.getByText("Goal: 100,000 steps").waitFor();
    await page.getByLabel("Steps", { exact: true }).fill("4200");
    await page.getByLabel(/Note/).fill("Walked to the allotment, phone charging");
    await page
      .getByLabel("Photo proof")
      .setInputFiles({ name: "proof.png", mimeType: "image/png", buffer: TINY_PNG });
    await page.getByText("proof.png").waitFor();
    await screenshot(page, "13-dashboard-manual-form");
    await page.getByRole("button", { name: "Add Steps" }).click();

    await page.getByText("Steps Added Successfully").first().waitFor();
    await expect.poll(() => page.getByTestId("today-steps").textContent()).toBe("4,200");
    expect(await page.getByTestId("month-steps").textContent()).toBe("4,200");
    // A PNG says nothing of when it was taken: its steps show, and wait for a check before prize entries.
    expect(await page.getByText("Need 10,000 more steps for first entry").count()).toBe(1);
    expect(await page.getByTestId("prize-entries-waiting").textContent()).toBe(
      "4,200 steps waiting for a quick check",
    );
    const today = await page.evaluate(async () => (await fetch("/api/steps/today")).json());
    expect(today.steps).toBe(4_200);
    await screenshot(page, "14-dashboard-after-manual-steps");
  });

  it("says why a manual entry without a photo is refused, sending nothing", async () => {
    await page.getByLabel("Steps", { exact: true }).fill("1000");
    await page.getByRole("button", { name: "Add Steps" }).click();
    await page.getByText("Please upload an image to verify your steps").first().waitFor();
    const today = await page.evaluate(async () => (await fetch("/api/steps/today")).json());
    expect(today.steps).toBe(4_200);
  });

  it("chooses a charity, and sees it on the dashboard", async () => {
    await tabBar().getByRole("link", { name: "Charity" }).click();
    await page.getByText("Choose Your Charity").waitFor();
    await page.getByRole("button", { name: "Select British Heart Foundation" }).click();
    await page.getByText("You've chosen to support British Heart Foundation in the beta.").first().waitFor();
    await page.getByText("Your Beta Selection").waitFor();
    expect(await page.getByRole("button", { name: "Selected: British Heart Foundation" }).isDisabled()).toBe(
      true,
    );
    await screenshot(page, "15-charity-selected");

    await tabBar().getByRole("link", { name: "Dashboard" }).click();
    await page.getByRole("link", { name: /Your Charity British Heart Foundation/ }).waitFor();
  });

  it("sees the month's prize entries, and the account's beta status", async () => {
    await tabBar().getByRole("link", { name: "Prizes" }).click();
    await page.getByText("Walk 10,000 more steps this month to earn your first prize entry").waitFor();
    expect(await page.getByTestId("entry-count-waiting").textContent()).toBe(
      "4,200 steps waiting for a quick check",
    );
    expect(await page.getByTestId("entry-count").textContent()).toBe("0");
    // The walker has not followed the link mailed at sign-up: the draw leaves them out until then.
    expect(await page.getByTestId("draw-email-notice").textContent()).toMatch(
      /^Only walkers with a confirmed email are in the prize draw\. Follow the link we sent to .+, or send it again from Account\.$/,
    );
    await page.getByText("Prize Categories").click();
    await page.getByText("Platinum:").waitFor();
    await screenshot(page, "16-prize-draw");

    await tabBar().getByRole("link", { name: "Account" }).click();
    await page.getByText("Active Beta Tester").waitFor();
    await page.getByText("Coming Soon: App Store Launch").waitFor();
    await screenshot(page, "17-account");
  });

  it("is asked first when a link on another site tries to sign them out, and can stay signed in", async () => {
    // A year ahead again: signing back in below goes through the provider's pages.
    await clocksAt(signUpMoment());
    // A page on another site (served by the browser itself) with a link to the sign-out address.
    const otherSite = "http://other-site.example/";
    await page.route(`${otherSite}**`, (route) =>
      route.request().url() === otherSite
        ? route.fulfill({
            contentType: "text/html",
            body: `<!doctype html><a href="${server.origin}/api/logout">Free prizes</a>`,
          })
        : route.fulfill({ status: 204 }),
    );
    const cachedBefore = await apiCacheEntries();
    expect(cachedBefore).toBeGreaterThan(0);
    await page.goto(otherSite);
    await page.getByRole("link", { name: "Free prizes" }).click();

    await page.getByRole("heading", { name: "Sign out of Charity Steps?" }).waitFor();
    expect(page.url()).toBe(`${server.origin}/api/logout`);
    await screenshot(page, "19-sign-out-from-another-site");
    await page.getByRole("link", { name: "Stay signed in" }).click();

    await page.getByRole("heading", { level: 1, name: "Dashboard" }).waitFor();
    const me = await page.evaluate(async () => (await fetch("/api/auth/user")).status);
    expect(me).toBe(200);
    // Nothing was signed out, so the screens' offline copies are still there.
    expect(await apiCacheEntries()).toBeGreaterThanOrEqual(cachedBefore);
    await page.unroute(`${otherSite}**`);
  });

  it("signs out from the top navigation and is a visitor again", async () => {
    await page.goto(`${server.origin}/dashboard`);
    await page.getByRole("link", { name: "Logout" }).click();

    await page.waitForURL(`${server.origin}/`, { timeout: 15_000 });
    await page.getByRole("link", { name: "Get Started", exact: true }).waitFor();
    expect(await tabBar().count()).toBe(0);
    const me = await page.evaluate(async () => (await fetch("/api/auth/user")).status);
    expect(me).toBe(401);
    // The last walker's offline copies went with the sign-out.
    expect(await apiCacheEntries()).toBe(0);
  });

  it("signs back in with the password (the provider asks again)", async () => {
    await page.getByRole("link", { name: "Welcome Back - Log In", exact: true }).click();
    await page.waitForURL(/\/auth\/interaction\/[^/]+$/);
    await page.getByLabel("Email").fill(walker.email);
    await page.getByLabel("Password").fill("wrong-password-here");
    await page.getByRole("button", { name: "Sign in" }).click();
    await page.getByRole("alert").filter({ hasText: "don't match" }).waitFor();

    await page.getByLabel("Password").fill(walker.password);
    await page.getByRole("button", { name: "Sign in" }).click();
    await page.waitForURL(`${server.origin}/`);
    await page.getByRole("heading", { level: 1, name: "Dashboard" }).waitFor();
  });

  it("logged no errors and met no Content-Security-Policy violation on the way", () => {
    expect(errors).toEqual([]);
  });
});
