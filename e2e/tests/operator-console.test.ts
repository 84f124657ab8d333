import type { Browser, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type AppServer, startAppServer } from "../support/app-server.js";
import { launchChromium, phoneContext, screenshot, showTheme, watchForErrors } from "../support/chromium.js";
import { createFakeClock, signUpMoment } from "../support/fake-clock.js";
import { inside, overflowOf } from "../support/layout.js";
import { followConfirmation, linkIn } from "../support/mail-server.js";
import { newSignedInWalker } from "../support/walker.js";

let server: AppServer;
let browser: Browser;
let page: Page;
let errors: string[];
/**
 * The server's clock: 10:00 in London on Wednesday 2 December 2026, the day before November's draw
 * counts its tickets (noon on the 3rd).
 */
const clock = createFakeClock();
const NOW = Date.parse("2026-12-02T10:00:00Z");
/** Last London month: still open to postal entries until its draw closes, and its 25th (the closing day) is past. */
const month = "2026-11";

beforeAll(async () => {
  // The operator signs up at a moment ahead of the browser's real clock, so the sign-in pages'
  // cookies last; the entries are recorded on the day above.
  await clock.set(signUpMoment());
  [server, browser] = await Promise.all([startAppServer({ env: { ...clock.env } }), launchChromium()]);
  page = await (await phoneContext(browser)).newPage();
  errors = watchForErrors(page);
});
afterAll(async () => {
  await browser?.close();
  await server?.stop();
  clock.dispose();
});

const form = () => page.getByRole("form", { name: "Record a postal entry" });

async function record(entry: { fullName: string; address: string; receivedOn: string; email?: string }) {
  await form().getByLabel("Draw month").fill(month);
  await form().getByLabel("Date received").fill(entry.receivedOn);
  await form().getByLabel("Full name").fill(entry.fullName);
  await form().getByLabel("Address").fill(entry.address);
  await form()
    .getByLabel("Email")
    .fill(entry.email ?? "");
  await form().getByRole("button", { name: "Record entry" }).click();
}

describe("the operator console", () => {
  it("is not open to the listed email until the walker confirms it", async () => {
    await newSignedInWalker(page, server.origin, {
      email: server.operatorEmail,
      firstName: "Olive",
      lastName: "Operator",
    });
    await page.goto(`${server.origin}/operator`);
    await page.getByRole("heading", { name: "404 Page Not Found" }).waitFor();

    const mail = await server.mail.mail(server.operatorEmail, "Confirm your email for Charity Steps");
    await followConfirmation(page, linkIn(mail, `${server.origin}/auth/confirm-email/`));
    await page.getByRole("heading", { name: "Email confirmed" }).waitFor();
    const me = await page.evaluate(async () => (await (await fetch("/api/auth/user")).json()) as unknown);
    expect(me).toMatchObject({ emailVerified: true, isOperator: true });

    await page.goto(`${server.origin}/account`);
    await page.getByRole("link", { name: "Operator console" }).click();
    await page.getByRole("heading", { name: "Operator console" }).waitFor();
    await screenshot(page, "70-operator-console-empty");
  });

  it("refuses an entry received after the 25th with the server's reason", async () => {
    await clock.set(NOW);
    await record({ fullName: "Late Letter", address: "2 Slow Road\nPostville", receivedOn: `${month}-26` });
    await form()
      .getByRole("alert")
      .getByText("Received after the 25th: this entry is for no draw.")
      .waitFor();
    await form().evaluate((element) => element.scrollIntoView());
    await screenshot(page, "70-operator-late-entry", { fullPage: false });
  });

  it("records entries, flags a likely duplicate, and logs each action", async () => {
    await record({
      fullName: "Mary O'Brien",
      address: "1 High Street\nLittle Walking\nWK1 2AB",
      email: "mary@example.org",
      receivedOn: `${month}-10`,
    });
    const list = page.getByRole("list", { name: `Postal entries for ${month}` });
    await list.getByText("Mary O'Brien").waitFor();
    await record({ fullName: "mary obrien", address: "1 High Street", receivedOn: `${month}-10` });
    await list.getByText("Possible duplicate of #1").waitFor();
    expect(await list.getByRole("listitem").count()).toBe(2);

    const log = page.getByRole("list", { name: "Operator actions, newest first" });
    await log.getByRole("listitem").nth(1).waitFor();
    expect(await log.getByRole("listitem").count()).toBe(2);
    await log.getByRole("listitem").first().getByText(server.operatorEmail).waitFor();
    await log.getByRole("listitem").first().getByText("Before and after").click();
    await log.getByRole("listitem").first().getByText('"fullName": "mary obrien"').waitFor();
    // The duplicate's toast, closed so that it does not cover the log in the picture.
    await page.getByText("Recorded: possible duplicate").first().waitFor();
    await page.getByRole("button", { name: "Close" }).click();
    await page.getByRole("button", { name: "Close" }).waitFor({ state: "hidden" });
    await screenshot(page, "70-operator-console");
    expect(errors).toEqual([]);
  });

  it("wraps a long unbroken name, address and email inside the list's and the audit log's cards on a phone", async () => {
    const fullName = "A".repeat(120);
    const addressLine = "B".repeat(90);
    const email = `${"e".repeat(60)}@example.org`;
    await record({ fullName, address: `${addressLine}\nWK1 2AB`, email, receivedOn: `${month}-11` });
    const list = page.getByRole("list", { name: `Postal entries for ${month}` });
    const item = list.getByRole("listitem").filter({ hasText: fullName });
    await item.waitFor();
    // The toast that names the entry wraps the name inside itself, its Close button on screen.
    const toast = page.locator("li.toast");
    // Measured where it comes to rest, not while it slides in.
    await toast.evaluate((element) =>
      Promise.all(element.getAnimations().map((animation) => animation.finished)),
    );
    const toastOverflow = await toast.evaluate((element) => {
      const box = element.getBoundingClientRect();
      const widest = Math.max(
        ...Array.from(
          element.querySelectorAll("div, li > *"),
          (child) => child.getBoundingClientRect().right,
        ),
      );
      return { past: Math.round(widest - box.right), offScreen: Math.round(box.right - window.innerWidth) };
    });
    expect(toastOverflow.past).toBeLessThanOrEqual(0);
    expect(toastOverflow.offScreen).toBeLessThanOrEqual(0);
    // It is closed, so that the list alone is measured.
    await page.getByRole("button", { name: "Close" }).click();
    await page.locator("li.toast").waitFor({ state: "hidden" });

    // Each text's own box against the card around the list.
    const texts = [fullName, addressLine, email];
    expect(await overflowOf(item, texts)).toEqual(inside(texts));

    await item.evaluate((element) => element.scrollIntoView({ block: "center" }));
    await screenshot(page, "70-operator-postal-long-name", { fullPage: false });
    await showTheme(page, "dark");
    await screenshot(page, "70-operator-postal-long-name-dark", { fullPage: false });
    await showTheme(page, "light");

    // The audit log shows the entry as it was recorded, the long name among its JSON.
    const logged = page
      .getByRole("list", { name: "Operator actions, newest first" })
      .getByRole("listitem")
      .first();
    await logged.getByText("Before and after").click();
    await logged.getByText(`"fullName": "${fullName}"`).waitFor();
    expect(await overflowOf(logged, [fullName])).toEqual(inside([fullName]));
    await logged
      .locator("pre")
      .last()
      .evaluate((element) => element.scrollIntoView({ block: "center" }));
    await screenshot(page, "70-operator-audit-long-name", { fullPage: false });
    expect(errors).toEqual([]);
  });

  it("leaves nothing an operator read in the device's offline copies", async () => {
    await page.evaluate(async () => {
      await navigator.serviceWorker.ready;
    });
    // Under the service worker's control, the console is read again.
    await page.reload();
    await page.getByRole("heading", { name: "Operator console" }).waitFor();
    await page
      .getByRole("list", { name: "Operator actions, newest first" })
      .getByRole("listitem")
      .first()
      .waitFor();
    const kept = () =>
      page.evaluate(async () =>
        (await (await caches.open("charity-steps-api")).keys()).map(
          (request) => new URL(request.url).pathname,
        ),
      );
    // The walker's own screens are kept (the account's reads, say); nothing under /api/operator/ is.
    await page.goto(`${server.origin}/account`);
    await expect.poll(async () => (await kept()).length).toBeGreaterThan(0);
    expect((await kept()).filter((path) => path.startsWith("/api/operator/"))).toEqual([]);
  });

  it("is the 404 page for a walker who is not an operator", async () => {
    const other = await (await phoneContext(browser)).newPage();
    const otherErrors = watchForErrors(other);
    await clock.set(signUpMoment());
    await newSignedInWalker(other, server.origin);
    await other.goto(`${server.origin}/operator`);
    await other.getByRole("heading", { name: "404 Page Not Found" }).waitFor();
    expect(await other.getByText("Operator console").count()).toBe(0);
    const answer = await other.evaluate(async () => {
      const response = await fetch("/api/operator/audit-log");
      return { status: response.status, body: (await response.json()) as unknown };
    });
    expect(answer).toEqual({ status: 404, body: { message: "Not found" } });
    await screenshot(other, "70-operator-not-found");
    expect(otherErrors).toEqual([]);
  });
});
