import type { Browser, BrowserContext, Locator, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type AppServer, startAppServer } from "../support/app-server.js";
import { expectAccessible } from "../support/axe.js";
import { launchChromium, phoneContext, screenshot, watchForErrors } from "../support/chromium.js";
import { createFakeClock, signUpMoment } from "../support/fake-clock.js";
import { newSignedInWalker, signedInOperator, syncedSteps } from "../support/walker.js";

/** Both clocks (the server's and the pages'): 10:00 in London on Wednesday 18 November 2026. */
const clock = createFakeClock();
const TODAY = "2026-11-18";
const NOW = Date.parse(`${TODAY}T10:00:00Z`);

let server: AppServer;
let browser: Browser;
const people: { context: BrowserContext; page: Page; errors: string[] }[] = [];
let challengeUrl = "";

/** A phone whose pages read the tests' fixed clock. */
async function phoneAtNow(): Promise<BrowserContext> {
  const context = await phoneContext(browser);
  await context.clock.setFixedTime(NOW);
  return context;
}

beforeAll(async () => {
  // Signed up at a moment ahead of the browser's real clock, so the sign-in pages' cookies last.
  await clock.set(signUpMoment());
  [server, browser] = await Promise.all([startAppServer({ env: { ...clock.env } }), launchChromium()]);
  // The operator, a walker, and a second walker who shares a group with the first.
  for (let index = 0; index < 3; index++) {
    const context = await phoneContext(browser);
    const page = await context.newPage();
    people.push({ context, page, errors: watchForErrors(page) });
  }
  await signedInOperator(people[0]?.page as Page, server);
  await newSignedInWalker(people[1]?.page as Page, server.origin, { firstName: "Ada", lastName: "Walker" });
  await newSignedInWalker(people[2]?.page as Page, server.origin, { firstName: "Max", lastName: "Stride" });
  await clock.set(NOW);
  for (const { context } of people) await context.clock.setFixedTime(NOW);
});
afterAll(async () => {
  await browser?.close();
  await server?.stop();
  clock.dispose();
});

const operator = () => people[0]?.page as Page;
const ada = () => people[1]?.page as Page;
const max = () => people[2]?.page as Page;

/** Fills the challenge form inside `page` (the section that holds it). */
async function fillChallenge(
  page: Locator | Page,
  form: { name: string; kind?: string; target: string; charity?: string },
): Promise<void> {
  await page.getByLabel("Name", { exact: true }).fill(form.name);
  await page.getByLabel("Description").fill("Walk every day this season, and raise money as you go.");
  if (form.charity) await page.getByLabel("Charity").selectOption(form.charity);
  if (form.kind) await page.getByLabel("Kind").selectOption(form.kind);
  await page.getByLabel(/^Target/).fill(form.target);
}

describe("challenges", () => {
  it("lets an operator set a public challenge from the console", async () => {
    const page = operator();
    await page.goto(`${server.origin}/operator`);
    const section = page.getByRole("region", { name: "Set a public challenge" });
    await section.waitFor();
    await fillChallenge(section, {
      name: "Walk All Over Winter",
      target: "25000",
      charity: "Cancer Research UK",
    });
    await section.evaluate((element) => element.scrollIntoView({ block: "start" }));
    await screenshot(page, "140-operator-challenge-form", { fullPage: false });
    await section.getByRole("button", { name: "Create Challenge" }).click();
    const toast = page.locator("li.toast").filter({ hasText: "Challenge created" });
    await toast.waitFor();
    challengeUrl =
      /https?:\/\/\S+\/challenges\/[0-9a-f-]{36}/.exec((await toast.textContent()) ?? "")?.[0] ?? "";
    expect(challengeUrl).toMatch(/\/challenges\/[0-9a-f-]{36}$/);
    // It starts today, so only its end can move, and only later.
    const listed = section.getByRole("list", { name: "Public challenges not ended" }).getByRole("listitem");
    const row = listed.filter({ hasText: "Walk All Over Winter" });
    const end = row.getByLabel("New end");
    const later = new Date(Date.parse(`${await end.inputValue()}T12:00:00Z`) + 86_400_000)
      .toISOString()
      .slice(0, 10);
    await end.fill(later);
    await row.getByRole("button", { name: "Move end" }).click();
    await page.locator("li.toast").filter({ hasText: "The end moved" }).waitFor();
    await expect.poll(() => row.textContent()).toContain(`to ${later}`);
    // The audit log shows both changes at once, without a reload.
    const log = page.getByRole("list", { name: "Operator actions, newest first" });
    await log.getByRole("listitem").first().getByText("challenge.edit").waitFor();
    await log.getByRole("listitem").nth(1).getByText("challenge.create").waitFor();

    // One that starts tomorrow can be cancelled; the focus then goes to the section, not the page top.
    await fillChallenge(section, { name: "Not Yet Begun", target: "10000" });
    const starts = section.getByLabel("Starts on");
    const tomorrow = new Date(Date.parse(`${await starts.inputValue()}T12:00:00Z`) + 86_400_000)
      .toISOString()
      .slice(0, 10);
    await starts.fill(tomorrow);
    await section.getByRole("button", { name: "Create Challenge" }).click();
    const notYet = listed.filter({ hasText: "Not Yet Begun" });
    await notYet.getByRole("button", { name: "Cancel challenge" }).click();
    await page.getByRole("dialog").getByRole("button", { name: "Cancel challenge" }).click();
    await expect.poll(() => notYet.count()).toBe(0);
    await expect
      .poll(() => page.evaluate(() => document.activeElement?.id))
      .toBe("operator-challenges-title");
    await log.getByRole("listitem").first().getByText("challenge.cancel").waitFor();
    expect(people[0]?.errors).toEqual([]);
  });

  it("shows anyone signed out the challenge's totals, with Join through sign-in", async () => {
    const context = await phoneAtNow();
    const page = await context.newPage();
    await page.goto(challengeUrl);
    await page.getByRole("heading", { level: 1, name: "Walk All Over Winter" }).waitFor();
    expect(await page.getByTestId("public-walkers").textContent()).toBe("0");
    await screenshot(page, "141-challenge-public");
    await expectAccessible(page, "a public challenge, signed out");
    await page.getByRole("button", { name: "Join" }).click();
    await page.waitForURL(/\/auth\/interaction\//);
    await context.close();
  });

  it("lets a walker join from the dashboard, walk it, complete it and download the certificate", async () => {
    const page = ada();
    // Steps walked today before joining count too.
    expect(await syncedSteps(page, TODAY, 9_000)).toBe(200);
    await page.goto(`${server.origin}/dashboard`);
    await page
      .getByRole("link", { name: /Challenges/ })
      .filter({ visible: true })
      .first()
      .click();
    await page.getByRole("heading", { level: 1, name: "Challenges" }).waitFor();
    const card = page.getByTestId("challenge-card").filter({ hasText: "Walk All Over Winter" });
    await card.waitFor();
    expect(await card.getByTestId("challenge-pace").textContent()).toMatch(/^Not joined/);
    await screenshot(page, "142-challenges");
    await expectAccessible(page, "challenges");
    await card.getByRole("link", { name: "Walk All Over Winter" }).click();
    await page.getByRole("button", { name: "Join" }).click();
    await page.getByRole("button", { name: "Leave" }).waitFor();
    await expect
      .poll(() => page.getByTestId("challenge-progress").textContent())
      .toBe("9,000 of 25,000 steps, 36%");
    expect(await page.getByTestId("challenge-pace").textContent()).toMatch(/days? left|Last day/);
    await page.getByLabel("Address").fill("https://www.justgiving.com/page/ada-walks");
    await page.getByRole("button", { name: "Save" }).click();
    await page.getByRole("link", { name: "Fundraising page" }).waitFor();
    await screenshot(page, "143-challenge");
    await expectAccessible(page, "a challenge, joined");

    // The dashboard's card shows it while it runs.
    await page.goto(`${server.origin}/dashboard`);
    const running = page.getByTestId("challenges-card");
    await running.getByText("Walk All Over Winter").waitFor();
    expect(await running.textContent()).toContain("36%");
    await running.evaluate((element) => element.scrollIntoView({ block: "center" }));
    await screenshot(page, "144-dashboard-challenges", { fullPage: false });

    // More steps complete it: the certificate comes.
    expect(await syncedSteps(page, TODAY, 26_000)).toBe(200);
    await page.goto(challengeUrl);
    await page.getByRole("heading", { name: "Challenge completed!" }).waitFor();
    expect(await page.getByTestId("challenge-progress").textContent()).toBe("26,000 of 25,000 steps, 100%");
    const [download] = await Promise.all([
      page.waitForEvent("download"),
      page.getByRole("link", { name: "Download" }).click(),
    ]);
    expect(download.suggestedFilename()).toBe("charity-steps-walk-all-over-winter-certificate.png");
    const png = await download.createReadStream().then(
      (stream) =>
        new Promise<Buffer>((resolve, reject) => {
          const chunks: Buffer[] = [];
          stream.on("data", (chunk: Buffer) => chunks.push(chunk));
          stream.on("end", () => resolve(Buffer.concat(chunks)));
          stream.on("error", reject);
        }),
    );
    expect({ width: png.readUInt32BE(16), height: png.readUInt32BE(20) }).toEqual({
      width: 1200,
      height: 630,
    });
    await screenshot(page, "145-challenge-completed");
    // Told in the app too.
    await page.goto(`${server.origin}/notifications`);
    await page.getByText("Challenge completed!").waitFor();
    expect(people[1]?.errors).toEqual([]);
  });

  it("lets a group's admin set a team target that a second member's steps complete", async () => {
    const admin = ada();
    const created = await admin.context().request.post(`${server.origin}/api/groups`, {
      data: { name: "Canal Walkers", description: "" },
    });
    const { joinCode } = (await created.json()) as { joinCode: string };
    await admin.goto(`${server.origin}/challenges`);
    const section = admin.getByRole("region", { name: "Set a challenge for your group" });
    await section.waitFor();
    await fillChallenge(section, { name: "Canal Fifty K", kind: "team_total", target: "50000" });
    await section.getByRole("button", { name: "Set Challenge" }).click();
    const card = admin.getByTestId("challenge-card").filter({ hasText: "Canal Fifty K" });
    await card.waitFor();
    await card.getByRole("link", { name: "Canal Fifty K" }).click();
    await admin.getByRole("button", { name: "Join" }).click();
    // Ada's 26,000 of today count toward the team.
    await expect
      .poll(() => admin.getByTestId("challenge-progress").textContent())
      .toBe("26,000 of 50,000 steps, 52%");
    const teamUrl = admin.url();

    const page = max();
    const joined = await page
      .context()
      .request.post(`${server.origin}/api/groups/join`, { data: { joinCode } });
    expect(joined.status()).toBe(201);
    await page.goto(teamUrl);
    await page.getByRole("button", { name: "Join" }).click();
    await page.getByRole("button", { name: "Leave" }).waitFor();
    expect(await syncedSteps(page, TODAY, 24_500)).toBe(200);
    await page.reload();
    await page.getByRole("heading", { name: "Challenge completed!" }).waitFor();
    expect(await page.getByTestId("challenge-progress").textContent()).toBe("50,500 of 50,000 steps, 100%");
    const rows = page.getByTestId("challenge-row");
    await expect.poll(() => rows.count()).toBe(2);
    expect(await rows.allTextContents()).toEqual([
      // Ada's second sync came faster than anyone walks: counted, and marked as waiting for a check.
      expect.stringMatching(/^1Ada W.*26,000 steps[\d,]+ steps waiting for a quick check$/),
      expect.stringMatching(/^2Max S.*24,500 steps$/),
    ]);
    await screenshot(page, "146-team-challenge-completed");
    await expectAccessible(page, "a team challenge, completed");
    // Completed for the admin too.
    await admin.reload();
    await admin.getByRole("heading", { name: "Challenge completed!" }).waitFor();
    expect(people[2]?.errors).toEqual([]);
  });

  it("shows the challenges in the dark theme", async () => {
    const page = ada();
    const dark = await page.context().request.put(`${server.origin}/api/account/preferences`, {
      data: { theme: "dark" },
    });
    expect(dark.status()).toBe(200);
    await page.goto(`${server.origin}/challenges`);
    await page.getByTestId("challenge-card").first().waitFor();
    await page.waitForFunction(() => document.documentElement.dataset.theme === "dark");
    await screenshot(page, "142-challenges-dark");
    await expectAccessible(page, "challenges, dark");
    await page.goto(challengeUrl);
    await page.getByRole("heading", { name: "Challenge completed!" }).waitFor();
    await screenshot(page, "143-challenge-dark");
    await expectAccessible(page, "a challenge, dark");
    const context = await phoneAtNow();
    const visitor = await context.newPage();
    await visitor.emulateMedia({ colorScheme: "dark" });
    await visitor.goto(challengeUrl);
    await visitor.getByTestId("public-walkers").waitFor();
    expect(await visitor.getByTestId("public-walkers").textContent()).toBe("1");
    await screenshot(visitor, "141-challenge-public-dark");
    await expectAccessible(visitor, "a public challenge, signed out, dark");
    await context.close();
  });
});
