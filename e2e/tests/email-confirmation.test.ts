import { randomBytes } from "node:crypto";
import type { Browser, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type AppServer, startAppServer } from "../support/app-server.js";
import { launchChromium, phoneContext, screenshot, watchForErrors } from "../support/chromium.js";
import { linkIn } from "../support/mail-server.js";
import { newSignedInWalker } from "../support/walker.js";

let server: AppServer;
let browser: Browser;
let page: Page;
let errors: string[];
let email = "";
const password = "steps-for-charity-2026";
const newEmail = `wendy.new.${randomBytes(4).toString("hex")}@example.org`;

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

const security = () => page.getByRole("region", { name: "Sign-in and security" });

describe("a walker's email, confirmed and changed", () => {
  it("says the new account's email is not confirmed, and sends the link again", async () => {
    await server.mail.mail(email, "Confirm your email for Charity Steps");
    await page.goto(`${server.origin}/account`);
    await security().getByText("Email not confirmed").waitFor();
    await security().getByRole("button", { name: "Resend the link" }).click();
    await page.getByText("Confirmation link sent").first().waitFor();
    await security().evaluate((element) =>
      window.scrollTo(0, element.getBoundingClientRect().top + window.scrollY - 90),
    );
    await screenshot(page, "44-account-email-not-confirmed", { fullPage: false });
  });

  it("confirms the email from the mailed link; the account page says so", async () => {
    // The resend withdrew the first link: the newest mail's link is the one that works.
    const [, resent] = await server.mail.all(email, "Confirm your email for Charity Steps", 2);
    if (!resent) throw new Error("the resent confirmation mail did not arrive");
    const link = linkIn(resent, `${server.origin}/auth/confirm-email/`);
    // Opening the link confirms nothing: its page's one button does.
    await page.goto(link);
    await page.getByRole("heading", { name: "Confirm your email" }).waitFor();
    await screenshot(page, "45-confirm-email-button");
    await page.getByRole("button", { name: "Confirm my email" }).click();
    await page.getByRole("heading", { name: "Email confirmed" }).waitFor();
    await page.getByText(`Thank you: ${email} is confirmed.`).waitFor();

    await page.goto(`${server.origin}/account`);
    await security().getByText("Email confirmed").waitFor();
    const me = await page.evaluate(async () => (await (await fetch("/api/auth/user")).json()) as unknown);
    expect(me).toMatchObject({ email, emailVerified: true });
  });

  it("changes the email only once the new address's link is followed, and tells the old one", async () => {
    const form = security().getByRole("form", { name: "Change email" });
    await form.getByLabel("New email").fill(newEmail);
    await form.getByLabel("Current password").fill(password);
    await form.getByRole("button", { name: "Change email" }).click();
    await page.getByText("Check your new inbox").first().waitFor();
    // Until the link is followed, the account keeps its email.
    expect(
      await page.evaluate(async () => (await (await fetch("/api/auth/user")).json()) as unknown),
    ).toMatchObject({
      email,
    });

    const mail = await server.mail.mail(newEmail, "Confirm your new email for Charity Steps");
    await page.goto(linkIn(mail, `${server.origin}/auth/confirm-email/`));
    await page.getByRole("heading", { name: "Use your new email" }).waitFor();
    await screenshot(page, "46-use-new-email-button");
    await page.getByRole("button", { name: "Use this email" }).click();
    await page.getByText(`Your account now uses ${newEmail}. Sign in with it from now on.`).waitFor();
    await server.mail.mail(email, "Your Charity Steps email has changed");

    await page.goto(`${server.origin}/account`);
    await page.getByRole("region", { name: "Profile" }).getByText(newEmail).waitFor();
    expect(
      await page.evaluate(async () => (await (await fetch("/api/auth/user")).json()) as unknown),
    ).toMatchObject({
      email: newEmail,
      emailVerified: true,
    });
    expect(errors).toEqual([]);
  });
});
