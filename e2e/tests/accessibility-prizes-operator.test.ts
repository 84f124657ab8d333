import type { Browser, Page } from "playwright-core";
import { afterAll, beforeAll, describe, it } from "vitest";
import { type AppServer, startAppServer } from "../support/app-server.js";
import { expectAccessible } from "../support/axe.js";
import { launchChromium, phoneContext } from "../support/chromium.js";
import { linkIn } from "../support/mail-server.js";

let server: AppServer;
let browser: Browser;
let page: Page;

beforeAll(async () => {
  [server, browser] = await Promise.all([startAppServer(), launchChromium()]);
  page = await (await phoneContext(browser)).newPage();
});
afterAll(async () => {
  await browser?.close();
  await server?.stop();
});

describe("the prize page and the operator console meet WCAG 2.2 A and AA (axe-core)", () => {
  it("the prize page, with its categories open", async () => {
    await page.goto(`${server.origin}/api/login`);
    await page.getByRole("link", { name: "Create an account" }).click();
    await page.getByLabel("First name").fill("Olive");
    await page.getByLabel("Last name").fill("Operator");
    await page.getByLabel("Email").fill(server.operatorEmail);
    await page.getByLabel("Password").fill("steps-for-charity-2026");
    await page.getByRole("button", { name: "Create account" }).click();
    await page.waitForURL(`${server.origin}/`);
    await page.getByText("Goal: 100,000 steps").waitFor();

    await page.goto(`${server.origin}/prize-draw`);
    await page.getByTestId("entry-count").waitFor();
    await expectAccessible(page, "prize page");
    await page.getByText("Prize Categories").click();
    await page.getByText("Platinum:").waitFor();
    await expectAccessible(page, "prize page, categories open");
  });

  it("the operator console", async () => {
    const mail = await server.mail.mail(server.operatorEmail, "Confirm your email for Charity Steps");
    await page.goto(linkIn(mail, `${server.origin}/auth/confirm-email/`));
    await page.getByRole("heading", { name: "Email confirmed" }).waitFor();
    await expectAccessible(page, "email confirmed page");
    await page.goto(`${server.origin}/operator`);
    await page.getByRole("heading", { name: "Operator console" }).waitFor();
    await page.getByRole("form", { name: "Record a postal entry" }).waitFor();
    await expectAccessible(page, "operator console");
  });
});
