import { randomBytes } from "node:crypto";
import type { Browser, BrowserContext, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type AppServer, startAppServer } from "../support/app-server.js";
import { launchChromium, phoneContext, screenshot, watchForErrors } from "../support/chromium.js";
import { skipWelcome } from "../support/walker.js";

let server: AppServer;
let browser: Browser;
let context: BrowserContext;
let page: Page;
let errors: string[];
const walker = {
  firstName: "Grace",
  lastName: "Hopper",
  email: `grace.${randomBytes(4).toString("hex")}@example.org`,
  password: "many-steps-for-charity",
};
const newPassword = "a-new-phrase-for-walking";

beforeAll(async () => {
  [server, browser] = await Promise.all([startAppServer(), launchChromium()]);
  context = await phoneContext(browser);
  page = await context.newPage();
  errors = watchForErrors(page);
});
afterAll(async () => {
  await browser?.close();
  await server?.stop();
});

// One walker, in order: signs up, forgets the password, resets it from the mail, is signed in.
describe("a walker who forgot their password", () => {
  it("signs up and signs out", async () => {
    await page.goto(`${server.origin}/`);
    await page.getByRole("link", { name: "Get Started", exact: true }).click();
    await page.waitForURL(/\/auth\/interaction\/[^/]+$/);
    await page.getByLabel("First name").fill(walker.firstName);
    await page.getByLabel("Last name").fill(walker.lastName);
    await page.getByLabel("Email").fill(walker.email);
    await page.getByLabel("Password").fill(walker.password);
    await page.getByRole("button", { name: "Create account" }).click();
    await skipWelcome(page);
    // The sign-up's confirmation mail has gone out.
    await server.mail.mail(walker.email, "Confirm your email for Charity Steps");

    await page.getByRole("link", { name: "Logout" }).click();
    await page.waitForURL(`${server.origin}/`, { timeout: 15_000 });
    await page.getByRole("link", { name: "Get Started", exact: true }).waitFor();
  });

  it("asks for a link from the sign-in page and is told the same as for any email", async () => {
    await page.getByRole("link", { name: "Welcome Back - Log In", exact: true }).click();
    await page.waitForURL(/\/auth\/interaction\/[^/]+$/);
    await page.getByRole("link", { name: "Forgot your password?" }).click();
    await page.getByRole("heading", { level: 1, name: "Forgot your password?" }).waitFor();
    await screenshot(page, "40-forgot-password");
    await page.getByLabel("Email").fill(walker.email);
    await page.getByRole("button", { name: "Send me a link" }).click();
    const status = page.getByRole("status");
    await status.waitFor();
    expect(await status.textContent()).toContain("If an account uses this email, we've sent a link");
    await screenshot(page, "41-forgot-password-sent");
  });

  it("follows the mailed link, chooses a new password and lands signed in", async () => {
    const mail = await server.mail.mail(walker.email, "Choose a new Charity Steps password");
    const link = /https?:\/\/\S+\/auth\/password-reset\/[A-Za-z0-9_-]+/.exec(mail.text ?? "")?.[0];
    expect(link?.startsWith(`${server.origin}/auth/password-reset/`)).toBe(true);

    await page.goto(link as string);
    await page.getByRole("heading", { level: 1, name: "Choose a new password" }).waitFor();
    await page.getByLabel("New password").fill("password1");
    await page.getByRole("button", { name: "Save and sign in" }).click();
    await page.getByRole("alert").filter({ hasText: "too easy to guess" }).waitFor();
    await screenshot(page, "42-new-password");

    await page.getByLabel("New password").fill(newPassword);
    await page.getByRole("button", { name: "Save and sign in" }).click();
    await page.waitForURL(`${server.origin}/`, { timeout: 15_000 });
    await page.getByRole("heading", { level: 1, name: "Dashboard" }).waitFor();
    const me = await page.evaluate(async () => (await (await fetch("/api/auth/user")).json()) as unknown);
    expect(me).toMatchObject({ email: walker.email, accountKind: "built-in", emailVerified: true });

    // The link works once.
    const again = await context.newPage();
    await again.goto(link as string);
    await again.getByText("This link has been used or has expired: ask for a new one.").waitFor();
    await again.close();
  });

  it("shows the account's sign-in details, its email confirmed by the reset", async () => {
    await page.goto(`${server.origin}/account`);
    const section = page.getByRole("region", { name: "Sign-in and security" });
    await section.getByText("Email confirmed").waitFor();
    // Its heading just below the app's sticky top bar.
    await section.evaluate((element) =>
      window.scrollTo(0, element.getBoundingClientRect().top + window.scrollY - 90),
    );
    await screenshot(page, "43-account-security", { fullPage: false });
    // The new password changes again from here; a wrong current one is refused with the reason.
    const form = section.getByRole("form", { name: "Change password" });
    await form.getByLabel("Current password").fill(walker.password);
    await form.getByLabel("New password").fill("yet-another-walking-phrase");
    await form.getByRole("button", { name: "Change password" }).click();
    await form.getByRole("alert").filter({ hasText: "Your current password is not right." }).waitFor();
    await form.getByLabel("Current password").fill(newPassword);
    await form.getByRole("button", { name: "Change password" }).click();
    await page.getByText("Every other device you were signed in on is signed out.").first().waitFor();
    expect(await page.evaluate(async () => (await fetch("/api/auth/user")).status)).toBe(200);
    expect(errors).toEqual([]);
  });
});
