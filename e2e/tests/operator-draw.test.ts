import { spawnSync } from "node:child_process";
import { createHash } from "node:crypto";
import { fileURLToPath } from "node:url";
import type { Browser, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type AppServer, startAppServer } from "../support/app-server.js";
import { expectAccessible } from "../support/axe.js";
import { launchChromium, phoneContext, screenshot, showTheme, watchForErrors } from "../support/chromium.js";
import { createFakeClock, signUpMoment } from "../support/fake-clock.js";
import { inside, overflowOf } from "../support/layout.js";
import { followConfirmation, linkIn } from "../support/mail-server.js";
import { newSignedInWalker } from "../support/walker.js";

/**
 * The server's clock, moved by the test: a draw's steps must be stored before its close, and a
 * prize can be redrawn only 14 days after the draw.
 */
const clock = createFakeClock();
const repoRoot = fileURLToPath(new URL("../..", import.meta.url));

const DAY_MS = 86_400_000;
const londonFormat = new Intl.DateTimeFormat("en-CA", {
  timeZone: "Europe/London",
  year: "numeric",
  month: "2-digit",
});
const londonMonth = (at: number) => londonFormat.format(at).slice(0, 7);
const monthBefore = (month: string) => londonMonth(Date.parse(`${month}-01T12:00:00Z`) - 5 * DAY_MS);
/** 12:00 London on the 3rd of the next month is 12:00 UTC at the latest (11:00 in summer time). */
const closeAtLatest = (month: string) => {
  const [year, number] = month.split("-").map(Number) as [number, number];
  return Date.UTC(year, number, 3, 12);
};
/** The latest month whose draw has closed by now (with an hour to spare). */
const month = (() => {
  const last = monthBefore(londonMonth(Date.now()));
  return Date.now() > closeAtLatest(last) + 3_600_000 ? last : monthBefore(last);
})();
const monthLabel = new Intl.DateTimeFormat("en-GB", {
  month: "long",
  year: "numeric",
  timeZone: "UTC",
}).format(Date.parse(`${month}-01T12:00:00Z`));
/** The day before the close: the next month's 2nd, at noon. */
const beforeClose = closeAtLatest(month) - DAY_MS;
/** An hour past the close (the browser's real clock is past it too, see `month`). */
const afterClose = closeAtLatest(month) + 3_600_000;

let server: AppServer;
let browser: Browser;
let page: Page;
let errors: string[];
/** A walker who syncs once more after the close. */
let lateWalker: Page;
/**
 * The late walker's name and email: the longest first name the sign-up takes, and no spaces in
 * either, so that nothing but breaking inside a word keeps them on a phone's screen.
 */
const longName = `${"A".repeat(100)} Walker`;
const longEmail = `${"e".repeat(60)}@example.org`;

beforeAll(async () => {
  // The server starts in the future, and the accounts are made there: the sign-in pages' cookies
  // outlive the browser's real clock, and the month's draw, too old there to exist, cannot be
  // closed meanwhile by the scheduled job. The test then sets the clock back to before the close.
  await clock.set(signUpMoment());
  [server, browser] = await Promise.all([
    startAppServer({
      env: {
        // The operator runs the draw here, not the scheduled job.
        DRAW_AUTO_RUN: "false",
        ...clock.env,
      },
    }),
    launchChromium(),
  ]);
  page = await (await phoneContext(browser)).newPage();
  errors = watchForErrors(page);
});
afterAll(async () => {
  await browser?.close();
  await server?.stop();
  clock.dispose();
});

const drawSection = () => page.getByRole("region", { name: "Monthly draw" });

async function chooseMonth(value: string): Promise<void> {
  await drawSection().getByRole("combobox", { name: "Month" }).selectOption(value);
}

/** A walker's steps for `day`, as the tracker syncs them. */
async function syncSteps(walker: Page, day: string, steps: number): Promise<void> {
  const status = await walker.evaluate(
    async ([date, count]) => {
      const response = await fetch("/api/steps/sync", {
        method: "POST",
        headers: { "Content-Type": "application/json", "X-Device-Id": "e2e-phone" },
        body: JSON.stringify({ steps: count, date, source: "device_motion" }),
      });
      return response.status;
    },
    [day, steps] as const,
  );
  expect(status).toBe(200);
}

async function confirmEmail(target: Page, email: string): Promise<void> {
  const mail = await server.mail.mail(email, "Confirm your email for Charity Steps");
  await followConfirmation(target, linkIn(mail, `${server.origin}/auth/confirm-email/`));
  await target.getByRole("heading", { name: "Email confirmed" }).waitFor();
}

async function recordPostalEntry(fullName: string, address: string): Promise<void> {
  const form = page.getByRole("form", { name: "Record a postal entry" });
  await form.getByLabel("Draw month").fill(month);
  await form.getByLabel("Date received").fill(`${month}-10`);
  await form.getByLabel("Full name").fill(fullName);
  await form.getByLabel("Address").fill(address);
  await form.getByRole("button", { name: "Record entry" }).click();
  await page
    .getByRole("list", { name: `Postal entries for ${month}` })
    .getByText(fullName)
    .waitFor();
}

/**
 * Closes the toast that says `title` and waits for it to go. Another may take its place at once (a
 * badge the operator earned, announced once no toast is open) and stay while the pointer rests on
 * it, as Radix pauses a hovered toast: so this waits for the one toast, not for every Close button.
 */
async function closeToast(title: string): Promise<void> {
  const toast = page.locator("li.toast").filter({ hasText: title });
  await toast.getByRole("button", { name: "Close" }).click();
  await toast.waitFor({ state: "detached" });
}

const sha256 = (data: Buffer | string) => createHash("sha256").update(data).digest("hex");

describe("the operator console's monthly draw", () => {
  it("before the close: walkers' steps and postal entries are in, and the operator sets the tiers", {
    timeout: 120_000,
  }, async () => {
    // Accounts are made while the server's clock is in the future (see beforeAll).
    const walkers: Page[] = [];
    for (let n = 0; n < 2; n++) {
      const walker = await (await phoneContext(browser)).newPage();
      // The second walker, the one who syncs late, has a long name and email (see `longName`).
      const { email } = await newSignedInWalker(
        walker,
        server.origin,
        n === 1 ? { firstName: longName.split(" ")[0], email: longEmail } : {},
      );
      // Only a walker with a confirmed email holds tickets.
      await confirmEmail(walker, email);
      walkers.push(walker);
    }
    await newSignedInWalker(page, server.origin, {
      email: server.operatorEmail,
      firstName: "Olive",
      lastName: "Operator",
    });
    await confirmEmail(page, server.operatorEmail);

    // Noon on the 28th: the walkers sync that day and the day before, on time (a day synced more
    // than 36 hours after it ended would count only 10,000 at once for prizes).
    await clock.set(Date.parse(`${month}-28T12:00:00Z`));
    // The month's draw opens on its first ask before the close (a prize page's visitor, or the
    // scheduled job within its minute); the console's month box lists only months with a draw.
    const opened = await (walkers[0] as Page).evaluate(
      async (asked) => (await fetch(`/api/draws/${asked}`)).status,
      month,
    );
    expect(opened).toBe(200);
    await syncSteps(walkers[0] as Page, `${month}-28`, 25_000);
    await syncSteps(walkers[1] as Page, `${month}-27`, 10_500);
    await clock.set(beforeClose);

    await page.goto(`${server.origin}/operator`);
    await page.getByRole("heading", { name: "Operator console" }).waitFor();
    await recordPostalEntry("Mary O'Brien", "1 High Street\nLittle Walking\nWK1 2AB");
    await recordPostalEntry("John Post", "7 Letter Lane\nStampton");

    await chooseMonth(month);
    const tiers = drawSection().getByRole("form", { name: "Prize tiers" });
    await drawSection().getByText("Open", { exact: true }).waitFor();
    const names = tiers.getByLabel("Name");
    expect(await names.count()).toBe(4);
    await names.nth(0).fill("Grand prize");
    await tiers.getByLabel("Number of prizes").nth(0).fill("1");
    await tiers
      .getByLabel(/Description/)
      .nth(0)
      .fill("A weekend walking break for two.");
    await names.nth(1).fill("Runner-up");
    await tiers.getByLabel("Number of prizes").nth(1).fill("2");
    await tiers
      .getByLabel(/Description/)
      .nth(1)
      .fill("A pair of walking boots.");
    await tiers.getByRole("button", { name: "Remove tier 4" }).click();
    await tiers.getByRole("button", { name: "Remove tier 3" }).click();
    await tiers.getByRole("button", { name: "Move tier 2 up" }).click();
    await tiers.getByRole("button", { name: "Move tier 1 down" }).click();
    await tiers.getByText("2 tiers, 3 prizes in all").waitFor();
    await tiers.getByRole("button", { name: "Save tiers" }).click();
    await page.getByText("Tiers saved").first().waitFor();
    await closeToast("Tiers saved");

    const log = page.getByRole("list", { name: "Operator actions, newest first" });
    await log.getByRole("listitem").first().getByText(`on draw:${month}`).waitFor();
    const results = await page.evaluate(
      async (asked) => (await (await fetch(`/api/draws/${asked}`)).json()) as { tiers: unknown },
      month,
    );
    expect(results.tiers).toEqual([
      { name: "Grand prize", prizes: 1, description: "A weekend walking break for two." },
      { name: "Runner-up", prizes: 2, description: "A pair of walking boots." },
    ]);
    await expectAccessible(page, "the operator's monthly draw, tiers editor", { include: "main" });
    // Before the close, the walkers far above the rest: two walkers with 2 and 1 tickets, none above.
    const outliers = page.getByRole("region", { name: "Walkers far above the rest" });
    await outliers
      .getByText("No walker's tickets are above the month's 99th percentile (2 tickets, over 2 walkers).")
      .waitFor();
    await outliers.evaluate((element) => element.scrollIntoView());
    await screenshot(page, "89-operator-draw-outliers", { fullPage: false });
    await tiers.evaluate((element) => element.scrollIntoView());
    await screenshot(page, "90-operator-draw-tiers", { fullPage: false });
    lateWalker = walkers[1] as Page;
    await walkers[0]?.context().close();
  });

  it("after the close: the month waits for its draw, with its tickets counted", async () => {
    await clock.set(afterClose);
    // A late sync closes the month first: its tickets were counted from the steps stored before.
    await syncSteps(lateWalker, `${month}-28`, 20_000);
    await lateWalker.context().close();
    const counted = drawSection().getByText("5 in all: 3 from walkers' steps, 2 from postal entries");
    await page.goto(`${server.origin}/operator`);
    await drawSection().getByText("Closed, not drawn", { exact: true }).waitFor();
    const monthBox = drawSection().getByRole("combobox", { name: "Month" });
    expect(await monthBox.inputValue()).toBe(month);
    // The box offers the months that have a draw, each with where it stands, newest first.
    const offered = await monthBox.locator("option").allTextContents();
    expect(offered).toContain(`${monthLabel} (closed, not drawn)`);
    for (const option of offered)
      expect(option).toMatch(/^[A-Z][a-z]+ \d{4} \((open|closed, not drawn|drawn)\)$/);
    const values = await monthBox
      .locator("option")
      .evaluateAll((options) => options.map((option) => (option as HTMLOptionElement).value));
    expect(values).toEqual([...values].sort().reverse());
    await counted.waitFor();
    // The late day waits for a check: the walker's card keeps their long name and email on screen.
    const waiting = page
      .getByRole("list", { name: "Walkers with steps waiting, the most first" })
      .getByRole("listitem")
      .filter({ hasText: longName })
      .first();
    await waiting.waitFor();
    const walkerTexts = ["A".repeat(100), longEmail];
    const waitingOverflow = await overflowOf(waiting, walkerTexts);
    expect(waitingOverflow).toEqual(inside(walkerTexts));
    const tiers = drawSection().getByRole("table", {
      name: `Prize tiers for ${monthLabel}, in the order drawn`,
    });
    expect(await tiers.getByRole("rowheader").allTextContents()).toEqual(["Grand prize", "Runner-up"]);
    expect(await drawSection().getByRole("form", { name: "Prize tiers" }).count()).toBe(0);
    await drawSection().evaluate((element) => element.scrollIntoView());
    await screenshot(page, "91-operator-draw-closed", { fullPage: false });
  });

  it("runs the draw after a confirmation, and shows the seed, the ticket list's hash and the winners", async () => {
    const commitment = (await drawSection().locator(".draw-hex").first().textContent()) ?? "";
    await drawSection().getByRole("button", { name: "Run the draw" }).click();
    const confirm = drawSection().getByRole("group", {
      name: `This draws the winners for ${monthLabel} once and for all.`,
    });
    await confirm.waitFor();
    await confirm.evaluate((element) => element.scrollIntoView({ block: "center" }));
    await screenshot(page, "92-operator-draw-confirm", { fullPage: false });
    await confirm.getByRole("button", { name: "Draw the winners" }).click();

    const results = drawSection().getByRole("heading", { name: "Results" });
    await results.waitFor();
    expect(await results.evaluate((element) => element === document.activeElement)).toBe(true);
    await drawSection().getByText("Drawn", { exact: true }).waitFor();
    await drawSection().getByText("None: the seed alone decided").waitFor();
    const facts = await drawSection().locator("dl").last().locator("dd").allTextContents();
    const [seed, , ticketSha] = facts;
    expect(sha256(Buffer.from(seed ?? "", "hex"))).toBe(commitment);
    const tickets = await page.evaluate(
      async (asked) => await (await fetch(`/api/draws/${asked}/tickets`)).text(),
      month,
    );
    expect(tickets.trim().split("\n")).toHaveLength(5);
    expect(sha256(tickets)).toBe(ticketSha);
    expect(
      await drawSection()
        .getByRole("link", { name: `Public results for ${monthLabel}` })
        .getAttribute("href"),
    ).toBe(`/prize-draw/results/${month}`);

    const prizes = drawSection().getByRole("table", { name: "Prizes" });
    const rows = prizes.getByRole("row");
    await rows.nth(3).waitFor();
    expect(await rows.count()).toBe(4);
    expect(await prizes.getByRole("rowheader").allTextContents()).toEqual([
      "Grand prize",
      "Runner-up",
      "Runner-up",
    ]);
    for (let row = 1; row <= 3; row++)
      await rows
        .nth(row)
        .getByText(/^Awaiting claim until /)
        .waitFor();
    expect(await prizes.getByRole("button", { name: /Redraw/ }).count()).toBe(0);

    const log = page.getByRole("list", { name: "Operator actions, newest first" });
    await log.getByRole("listitem").first().getByText(`on draw:${month}`).waitFor();
    await closeToast("Winners drawn");
    await expectAccessible(page, "the operator's monthly draw, drawn", { include: "main" });
    await screenshot(page, "93-operator-draw-results");

    // A second run is refused with the results of the one draw there is.
    const again = await page.evaluate(async (asked) => {
      const response = await fetch(`/api/operator/draws/${asked}/run`, { method: "POST" });
      return { status: response.status, body: (await response.json()) as { results: { seed: string } } };
    }, month);
    expect(again.status).toBe(409);
    expect(again.body.results.seed).toBe(seed);
  });

  it("redraws a prize left unclaimed past its 14 days, then finds nobody left to win", async () => {
    await clock.set(afterClose + 15 * DAY_MS);
    await page.goto(`${server.origin}/operator`);
    await drawSection().getByRole("combobox", { name: "Month" }).waitFor();
    await chooseMonth(month);
    const prizes = drawSection().getByRole("table", { name: "Prizes" });
    await prizes
      .getByText(/^Expired: not claimed by /)
      .first()
      .waitFor();
    const firstRedraw = prizes.getByRole("button", { name: /^Redraw Grand prize, ticket / });
    await firstRedraw.click();
    const confirm = prizes.getByRole("group", { name: /^This gives the prize \(Grand prize, ticket / });
    const prizeTexts = ["A".repeat(100), longEmail];
    // The draw's seed decides where the late walker's long name shows besides the table: in this
    // question (their prize is redrawn), in the new winner's notice, or in the next question.
    const firstAsked = await overflowOf(drawSection(), prizeTexts);
    await confirm.getByRole("button", { name: "Redraw the prize" }).click();
    const news = drawSection().getByText(/New winner for Grand prize/);
    await news.waitFor();
    await prizes.getByRole("row").nth(4).waitFor();
    expect(await prizes.getByRole("row").count()).toBe(5);
    await prizes.getByRole("row").nth(1).getByText("Redrawn").waitFor();
    await prizes
      .getByRole("row")
      .nth(4)
      .getByText(/^Awaiting claim until /)
      .waitFor();
    // Every holder has won by now, the late walker too: their long name and email stay in the card.
    await prizes.getByText(longName).first().waitFor();
    const prizesOverflow = await overflowOf(drawSection(), prizeTexts);
    expect(firstAsked).toEqual(inside());
    expect(prizesOverflow).toEqual(inside(prizeTexts));
    await closeToast("Prize redrawn");
    await news.evaluate((element) => element.scrollIntoView({ block: "start" }));
    await screenshot(page, "94-operator-draw-redrawn", { fullPage: false });
    const longRow = prizes.getByRole("row").filter({ hasText: longName });
    await longRow.evaluate((element) => element.scrollIntoView({ block: "center" }));
    await screenshot(page, "94-operator-draw-long-name", { fullPage: false });
    await showTheme(page, "dark");
    await screenshot(page, "94-operator-draw-long-name-dark", { fullPage: false });
    await showTheme(page, "light");

    // Four holders, four prizes given: a further redraw has nobody left to give it to.
    // The late walker's own prize when they hold a runner-up's, so that the question names them.
    const runnersUp = prizes.getByRole("button", { name: /^Redraw Runner-up, ticket / });
    const theirs = prizes
      .getByRole("row")
      .filter({ hasText: longName })
      .and(prizes.getByRole("row").filter({ has: runnersUp }));
    await ((await theirs.count()) > 0
      ? theirs.getByRole("button", { name: /^Redraw / })
      : runnersUp.first()
    ).click();
    const secondAsked = await overflowOf(drawSection(), prizeTexts);
    expect(secondAsked).toEqual(inside());
    await prizes.getByRole("button", { name: "Redraw the prize" }).click();
    await drawSection()
      .getByText(/Runner-up: the prize was not given again/)
      .waitFor();
    await closeToast("Prize not given again");
    // Its row says so too, where the first redrawn prize names the pick it went to.
    await prizes.getByText("Redrawn: not given again, as every entrant had already won").waitFor();
    await prizes
      .getByRole("row")
      .nth(1)
      .getByText(/^Redrawn: given to pick \d+$/)
      .waitFor();
    await screenshot(prizes, "95-operator-draw-prizes-redrawn");
    await showTheme(page, "dark");
    await screenshot(prizes, "95-operator-draw-prizes-redrawn-dark");
    await showTheme(page, "light");
    await expectAccessible(page, "the operator's monthly draw, after redraws", { include: "main" });
    await screenshot(page, "95-operator-draw-nobody-left");
    expect(errors).toEqual([]);

    // A redraw continues the draw's own sequence: anyone can still check every winner, the new too.
    const verify = spawnSync("pnpm", ["verify-draw", server.origin, month], {
      cwd: repoRoot,
      encoding: "utf8",
    });
    expect(verify.stdout).toContain(`The draw for ${month} checks out: 5 tickets, 4 winners.`);
    expect(verify.status).toBe(0);
  });
});
