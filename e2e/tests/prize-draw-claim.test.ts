import { spawnSync } from "node:child_process";
import { createHash } from "node:crypto";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { isolated } from "@charity-steps/shared-types";
import type { Browser, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type AppServer, startAppServer } from "../support/app-server.js";
import { expectAccessible, motionSettled } from "../support/axe.js";
import { launchChromium, phoneContext, screenshot, showTheme, watchForErrors } from "../support/chromium.js";
import { createFakeClock } from "../support/fake-clock.js";
import { followConfirmation, linkIn } from "../support/mail-server.js";
import { newSignedInWalker } from "../support/walker.js";

const repoRoot = fileURLToPath(new URL("../..", import.meta.url));
let server: AppServer;
let browser: Browser;
let walker: Page;
let errors: string[];
let walkerEmail = "";
/** The London month of `at`, YYYY-MM. */
const londonMonth = (at: number) =>
  new Intl.DateTimeFormat("en-CA", { timeZone: "Europe/London", year: "numeric", month: "2-digit" })
    .format(at)
    .slice(0, 7);
const londonHour = new Intl.DateTimeFormat("en-GB", {
  timeZone: "Europe/London",
  hour: "2-digit",
  hourCycle: "h23",
});
/**
 * `month`'s close: 12:00 London on the 3rd of the next month (11:00 UTC in summer time). The same
 * rule as the shared `drawClosesAt`, which this package does not depend on.
 */
function closesAt(month: string): number {
  const [year, number] = month.split("-").map(Number) as [number, number];
  const noonUtc = Date.UTC(year, number, 3, 12);
  return noonUtc - (Number(londonHour.format(noonUtc)) - 12) * 3_600_000;
}
/**
 * The month whose draw this test runs, and the server's clock: an hour past that month's close, so
 * that its draw can be run, and where no other month closes while the test runs. It is the
 * browser's month, so the server is ahead of the browser, never behind it: the cookies the server
 * sets are not already past in the browser's eyes.
 */
const month = londonMonth(Date.now());
const serverNow = closesAt(month) + 3_600_000;
const clock = createFakeClock();
const monthName = new Intl.DateTimeFormat("en-GB", {
  timeZone: "UTC",
  month: "long",
  year: "numeric",
}).format(Date.parse(`${month}-15T12:00:00Z`));

beforeAll(async () => {
  await clock.set(serverNow);
  [server, browser] = await Promise.all([
    startAppServer({
      // The operator runs the draw here, rather than the scheduled job.
      env: { DRAW_AUTO_RUN: "false", ...clock.env },
    }),
    launchChromium(),
  ]);
  walker = await (await phoneContext(browser)).newPage();
  errors = watchForErrors(walker);
});
afterAll(async () => {
  await browser?.close();
  await server?.stop();
  clock.dispose();
});

/** Follows the confirmation link mailed to `email`, as the walker would from their inbox. */
async function confirmEmail(page: Page, email: string): Promise<void> {
  const mail = await server.mail.mail(email, "Confirm your email for Charity Steps");
  await followConfirmation(page, linkIn(mail, `${server.origin}/auth/confirm-email/`));
  await page.getByRole("heading", { name: "Email confirmed" }).waitFor();
}

/**
 * The test month's steps, as if synced before its close, and its draw as opened while the month
 * ran (this server did not run then). Every step the API takes for a closed month first closes it (a
 * late sync must change nothing), and a draw cannot be opened after its close, so no request can
 * put them there now: they go straight into the database, the seed made as the server makes it.
 */
function stepsBeforeClose(userId: string, steps: number): void {
  const script = `
    const Database = require("better-sqlite3");
    const { createHash, randomBytes } = require("node:crypto");
    const [file, userId, month, steps] = process.argv.slice(1);
    const db = new Database(file);
    db.prepare("insert into step_months (user_id, month, total_steps, last_day, last_day_steps, updated_at) values (?, ?, ?, ?, ?, ?)")
      .run(userId, month, Number(steps), month + "-28", Number(steps), Date.now());
    const seed = randomBytes(32);
    db.prepare("insert into draws (month, seed, commitment, status, created_at) values (?, ?, ?, 'open', ?) on conflict do nothing")
      .run(month, seed.toString("hex"), createHash("sha256").update(seed).digest("hex"), Date.parse(month + "-01T00:00:00Z"));
    db.close();
  `;
  const result = spawnSync(
    process.execPath,
    ["-e", script, join(server.dataDir, "charity-steps.db"), userId, month, String(steps)],
    { cwd: join(repoRoot, "api"), encoding: "utf8" },
  );
  if (result.status !== 0) throw new Error(`could not store the month's steps: ${result.stderr}`);
}

async function api(page: Page, method: string, path: string, body?: unknown) {
  return page.evaluate(
    async ([method, path, body]) => {
      const response = await fetch(path as string, {
        method: method as string,
        ...(body === undefined
          ? {}
          : { headers: { "Content-Type": "application/json" }, body: JSON.stringify(body) }),
      });
      const text = await response.text();
      return { status: response.status, body: text ? (JSON.parse(text) as unknown) : null };
    },
    [method, path, body] as const,
  );
}

describe("a walker wins the newest closed month's draw and claims the prize", () => {
  it("the walker's tickets are counted at the close and the operator runs the draw", async () => {
    walkerEmail = (await newSignedInWalker(walker, server.origin)).email;
    await confirmEmail(walker, walkerEmail);
    const me = (await api(walker, "GET", "/api/auth/user")).body as { id: string; emailVerified: boolean };
    expect(me.emailVerified).toBe(true);
    stepsBeforeClose(me.id, 25_000);

    const operator = await (await phoneContext(browser)).newPage();
    await newSignedInWalker(operator, server.origin, {
      email: server.operatorEmail,
      firstName: "Otto",
      lastName: "Operator",
    });
    await confirmEmail(operator, server.operatorEmail);
    const run = await api(operator, "POST", `/api/operator/draws/${month}/run`);
    expect(run.status).toBe(200);
  });

  it("the dashboard tells the winner, and the prize page shows their tickets and the prize", async () => {
    await walker.goto(`${server.origin}/dashboard`);
    const banner = walker.getByTestId("prize-banner");
    await banner.waitFor();
    expect(await banner.textContent()).toContain(
      `You won a Platinum prize in the ${monthName} draw! Claim it by`,
    );
    await screenshot(walker, "81-prize-banner", { fullPage: false });
    await expectAccessible(walker, "dashboard with a prize to claim");

    // The tier is the operator's word, set apart from the sentence as every name in a mail is.
    const mail = await server.mail.mail(
      walkerEmail,
      `You won a ${isolated("Platinum")} prize in the Charity Steps draw for ${monthName}`,
    );
    // The mail links to the results page and, to claim, to the prize's claim form.
    expect(linkIn(mail, `${server.origin}/prize-draw/results/`)).toBe(
      `${server.origin}/prize-draw/results/${month}`,
    );
    // The button goes straight to the claim form of this prize.
    expect(linkIn(mail, `${server.origin}/prizes/`)).toMatch(
      new RegExp(`^${server.origin}/prizes/[A-Za-z0-9_-]{12}/claim$`),
    );
    await walker.goto(`${server.origin}/prize-draw`);
    const tickets = walker.getByTestId("my-tickets");
    await tickets.waitFor();
    expect(await tickets.textContent()).toBe(`Your tickets for ${monthName}: 2`);
    expect(
      await walker
        .getByRole("list", { name: `Your ticket ids for ${monthName}` })
        .getByRole("listitem")
        .count(),
    ).toBe(2);
    expect(await walker.getByTestId("my-prize-status").textContent()).toBe("Awaiting your claim");
    await screenshot(walker, "82-prize-page-won");
    await expectAccessible(walker, "prize page with tickets and a prize");
  });

  it("the claim form asks for the age confirmation, then the claim is accepted and shows Claimed", async () => {
    await walker.getByRole("link", { name: "Claim your Platinum prize" }).first().click();
    await walker.getByRole("heading", { name: "Claim your Platinum prize" }).waitFor();
    await walker.getByLabel("Name to publish (e.g. J. Smith)").fill("W. Walker");
    await walker.getByLabel("County").fill("Kent");
    await walker.getByLabel("Where should we send your prize?").fill("1 High Street\nCanterbury\nCT1 1AA");
    await walker.getByRole("button", { name: "Claim prize" }).click();
    await walker.getByRole("alert").getByText("Confirm that you are 18 or over").waitFor();
    await screenshot(walker, "83-prize-claim-problem");
    await expectAccessible(walker, "claim form with a problem");

    await walker.getByLabel("I am 18 or over").check();
    await walker.getByRole("button", { name: "Claim prize" }).click();
    await walker.getByTestId("claim-status").getByText("Claimed").waitFor();
    await walker.getByText("Prize claimed").first().waitFor();
    await motionSettled(walker);
    await screenshot(walker, "84-prize-claimed", { fullPage: false });
    await expectAccessible(walker, "prize claimed");

    const prizes = (await api(walker, "GET", "/api/prizes/mine")).body as { prizes: { id: string }[] };
    const again = await api(walker, "POST", `/api/prizes/${prizes.prizes[0]?.id}/claim`, {
      over18: true,
      publicName: "W. Walker",
      county: "Kent",
      deliveryAddress: "1 High Street",
    });
    expect(again).toEqual({ status: 409, body: { message: "You have already claimed this prize." } });
    expect(errors).toEqual([]);
  });

  it("anyone sees the results with the winner's published name, and verify-draw checks them", async () => {
    const visitor = await browser.newContext({ viewport: { width: 320, height: 720 }, isMobile: true });
    const page = await visitor.newPage();
    const visitorErrors = watchForErrors(page);
    await page.goto(`${server.origin}/prize-draw/results/${month}`);
    await page.getByRole("heading", { name: `${monthName} prize draw` }).waitFor();
    expect(await page.getByTestId("draw-status").textContent()).toBe("Drawn");
    expect(await page.getByTestId("draw-ticket-count").textContent()).toBe("2");
    expect(await page.getByTestId("draw-beacon").textContent()).toBe(
      "No drand beacon was used: the seed alone decided.",
    );
    await page.getByRole("list", { name: "Platinum winners" }).getByText("W. Walker, Kent").waitFor();
    const listed = await (await fetch(`${server.origin}/api/draws/${month}/tickets`)).text();
    expect(await page.getByTestId("draw-ticket-list-sha256").textContent()).toBe(
      createHash("sha256").update(listed).digest("hex"),
    );
    expect(await page.getByTestId("verify-command").textContent()).toBe(
      `pnpm verify-draw ${server.origin} ${month}`,
    );
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(320);
    // One person in the draw: the other tiers' prizes went to nobody, and the page says so.
    expect(await page.getByTestId("unawarded-Bronze").textContent()).toBe(
      "5 prizes not awarded: fewer people were in the draw than there were prizes.",
    );
    await screenshot(page, "85-draw-results");
    await expectAccessible(page, "draw results at 320 px");
    await showTheme(page, "dark");
    await screenshot(page, "85-draw-results-dark");
    await expectAccessible(page, "draw results at 320 px, dark");

    const verify = spawnSync("pnpm", ["verify-draw", server.origin, month], {
      cwd: repoRoot,
      encoding: "utf8",
    });
    expect(verify.stdout).toMatch(new RegExp(`The draw for ${month} checks out: 2 tickets, 1 winners?\\.`));
    expect(verify.status).toBe(0);

    await page.goto(`${server.origin}/prize-draw/results/2026-13`);
    await page
      .getByText(
        "There is no such month: a month is written YYYY-MM, its number from 01 to 12, e.g. 2026-03.",
      )
      .waitFor();
    expect(visitorErrors).toEqual([]);
    await visitor.close();
  });
});
