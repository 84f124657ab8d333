import type { Browser, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type AppServer, startAppServer } from "../support/app-server.js";
import { expectAccessible } from "../support/axe.js";
import { launchChromium, phoneContext, screenshot, watchForErrors } from "../support/chromium.js";
import { linkIn } from "../support/mail-server.js";
import { newSignedInWalker } from "../support/walker.js";

let server: AppServer;
let browser: Browser;
let page: Page;
let errors: string[];
let email = "";

beforeAll(async () => {
  [server, browser] = await Promise.all([startAppServer(), launchChromium()]);
  page = await (await phoneContext(browser)).newPage();
  errors = watchForErrors(page);
  ({ email } = await newSignedInWalker(page, server.origin));
});
afterAll(async () => {
  await browser?.close();
  await server?.stop();
});

/** A page of another site whose one link, "Free prizes", goes to `href`: the walker follows it. */
async function followLinkFromAnotherSite(href: string): Promise<void> {
  const otherSite = "http://other-site.example/";
  await page.route(`${otherSite}**`, (route) =>
    route.request().url() === otherSite
      ? route.fulfill({ contentType: "text/html", body: `<!doctype html><a href="${href}">Free prizes</a>` })
      : route.fulfill({ status: 204 }),
  );
  try {
    await page.goto(otherSite);
    await page.getByRole("link", { name: "Free prizes" }).click();
  } finally {
    await page.unroute(`${otherSite}**`);
  }
}

/** The walker signs in again at the provider's page, with the password. */
async function signInWithPassword(): Promise<void> {
  await page.goto(`${server.origin}/api/login`);
  await page.getByLabel("Email").fill(email);
  await page.getByLabel("Password").fill("steps-for-charity-2026");
  await page.getByRole("button", { name: "Sign in" }).click();
  await page.getByText("Goal: 100,000 steps").waitFor();
}

// The sign-in and sign-up pages are checked in accessibility.test.ts; these are the other pages the
// server renders itself, reached as a walker reaches them (a mailed link, a link on another site).
describe("the server-rendered account pages meet WCAG 2.2 A and AA (axe-core)", () => {
  it("the sign-out confirmation a link on another site opens", async () => {
    await followLinkFromAnotherSite(`${server.origin}/api/logout`);
    await page.getByRole("heading", { name: "Sign out of Charity Steps?" }).waitFor();
    await expectAccessible(page, "sign-out confirmation page");
    await page.getByRole("link", { name: "Stay signed in" }).click();
    await page.getByRole("heading", { level: 1, name: "Dashboard" }).waitFor();
  });

  it("the email-confirmation pages: its one button, confirmed, and a link that no longer works", async () => {
    const link = linkIn(
      await server.mail.mail(email, "Confirm your email for Charity Steps"),
      `${server.origin}/auth/confirm-email/`,
    );
    await page.goto(link);
    await page.getByRole("heading", { name: "Confirm your email" }).waitFor();
    await expectAccessible(page, "email confirmation page, before its button");
    await page.getByRole("button", { name: "Confirm my email" }).click();
    await page.getByRole("heading", { name: "Email confirmed" }).waitFor();
    await expectAccessible(page, "email confirmed page");
    await page.goto(link);
    await page.getByRole("heading", { name: "Link no longer works" }).waitFor();
    await expectAccessible(page, "link no longer works page");
  });

  it("forgot password: the form, its refusal and the page saying the mail is on its way", async () => {
    await page.goto(`${server.origin}/api/logout`);
    await page.getByRole("link", { name: "Get Started", exact: true }).waitFor();
    await page.goto(`${server.origin}/auth/forgot-password`);
    await page.getByRole("heading", { level: 1, name: "Forgot your password?" }).waitFor();
    await expectAccessible(page, "forgot password page");
    await page.getByRole("button", { name: "Send me a link" }).click();
    await page.getByRole("alert").waitFor();
    await expectAccessible(page, "forgot password page, no email given");
    await page.getByLabel("Email").fill(email);
    await page.getByRole("button", { name: "Send me a link" }).click();
    await page.getByRole("heading", { level: 1, name: "Check your mail" }).waitFor();
    await expectAccessible(page, "reset link sent page");
  });

  it("the new-password page a mailed reset link opens, and its refusal", async () => {
    const mail = await server.mail.mail(email, "Choose a new Charity Steps password");
    await page.goto(linkIn(mail, `${server.origin}/auth/password-reset/`));
    await page.getByRole("heading", { level: 1, name: "Choose a new password" }).waitFor();
    await expectAccessible(page, "new password page");
    await page.getByLabel("New password").fill("password1");
    await page.getByRole("button", { name: "Save and sign in" }).click();
    await page.getByRole("alert").filter({ hasText: "too easy to guess" }).waitFor();
    await expectAccessible(page, "new password page, a weak password refused");
  });

  it("the provider's sign-out question a link on another site opens", async () => {
    await signInWithPassword();
    await followLinkFromAnotherSite(`${server.origin}/oidc/session/end`);
    // Asked, not signed out behind the walker's back.
    await page.getByRole("heading", { name: "Sign out of Charity Steps?" }).waitFor();
    await expectAccessible(page, "provider's sign-out question");
    await screenshot(page, "19-provider-sign-out-from-another-site");
    await page.getByRole("link", { name: "Stay signed in" }).click();
    await page.getByRole("heading", { level: 1, name: "Dashboard" }).waitFor();
    // Signed out for the next page, as the app's own sign-out does it: at once, everywhere.
    await page.goto(`${server.origin}/api/logout`);
    await page.waitForURL(`${server.origin}/`);
    await expect.poll(() => page.evaluate(async () => (await fetch("/api/auth/user")).status)).toBe(401);
  });

  it("the provider's signing-out page, held still", async () => {
    await signInWithPassword();
    // The page's script submits its form at once; without it, the page and its Sign out button stay.
    const script = `${server.origin}/auth/assets/sign-out.js`;
    await page.route(script, (route) => route.fulfill({ contentType: "text/javascript", body: "" }));
    try {
      await page.goto(`${server.origin}/api/logout`);
      await page.getByRole("heading", { level: 1, name: "Signing you out…" }).waitFor();
      await expectAccessible(page, "provider's signing-out page");
    } finally {
      await page.unroute(script);
    }
  });

  it("the page a cut-short stop-these-emails link opens, light and dark", async () => {
    // A mail client cut the link before its kind and signature.
    const response = await page.goto(`${server.origin}/api/email/unsubscribe?u=someone`);
    expect(response?.status()).toBe(400);
    await page.getByRole("heading", { level: 1, name: "This link does not work" }).waitFor();
    expect(await page.getByRole("link", { name: "Open your Account page" }).getAttribute("href")).toBe(
      "/account",
    );
    await expectAccessible(page, "cut-short unsubscribe link page");
    await screenshot(page, "44-unsubscribe-link-not-valid", { fullPage: false });
    await page.emulateMedia({ colorScheme: "dark" });
    await expectAccessible(page, "cut-short unsubscribe link page, dark");
    await screenshot(page, "44-unsubscribe-link-not-valid-dark", { fullPage: false });
    await page.emulateMedia({ colorScheme: "light" });
  });

  it("logged no errors on the way", () => {
    expect(errors).toEqual([]);
  });
});
