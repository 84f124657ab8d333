import type { Browser, Page } from "playwright-core";
import { afterAll, beforeAll, describe, it } from "vitest";
import { type AppServer, startAppServer } from "../support/app-server.js";
import { expectAccessible } from "../support/axe.js";
import { launchChromium, phoneContext } from "../support/chromium.js";
import { followConfirmation, linkIn } from "../support/mail-server.js";
import { newSignedInWalker } from "../support/walker.js";

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
    await newSignedInWalker(page, server.origin, {
      email: server.operatorEmail,
      firstName: "Olive",
      lastName: "Operator",
    });

    await page.goto(`${server.origin}/prize-draw`);
    await page.getByTestId("entry-count").waitFor();
    await expectAccessible(page, "prize page");
    await page.getByText("Prize Categories").click();
    await page.getByText("Platinum:").waitFor();
    await expectAccessible(page, "prize page, categories open");
  });

  it("the operator console", async () => {
    const mail = await server.mail.mail(server.operatorEmail, "Confirm your email for Charity Steps");
    await followConfirmation(page, linkIn(mail, `${server.origin}/auth/confirm-email/`));
    await page.getByRole("heading", { name: "Email confirmed" }).waitFor();
    await expectAccessible(page, "email confirmed page");
    await page.goto(`${server.origin}/operator`);
    await page.getByRole("heading", { name: "Operator console" }).waitFor();
    await page.getByRole("form", { name: "Record a postal entry" }).waitFor();
    await expectAccessible(page, "operator console");
  });
});
