import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { Browser, BrowserContext, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type AppServer, startAppServer } from "../support/app-server.js";
import { launchChromium, phoneContext, screenshot, showTheme, watchForErrors } from "../support/chromium.js";
import { createFakeClock, MID_MONTH_MOMENT, signUpAhead } from "../support/fake-clock.js";
import { type GeneratedHealthExport, writeHealthExport } from "../support/health-export.js";
import { newSignedInWalker } from "../support/walker.js";

let server: AppServer;
let browser: Browser;
let context: BrowserContext;
let page: Page;
let errors: string[];
let folder: string;
let healthExport: GeneratedHealthExport;
let largeExport: GeneratedHealthExport;

/**
 * Both clocks (the server's and the phones'), and the exports' own moment: an import takes London's
 * last 31 days as the phone counts them, and the server its last 30, so a test that read the real
 * clock and ran past midnight found a day fewer than its export held.
 */
const clock = createFakeClock();
const NOW = MID_MONTH_MOMENT;

/** Signs a new walker up on `page`, then sets the server's clock and the phone's to NOW. */
async function walkerAtNow(page: Page): Promise<void> {
  await signUpAhead(clock, NOW, () => newSignedInWalker(page, server.origin));
  await page.context().clock.setFixedTime(NOW);
}

beforeAll(async () => {
  folder = mkdtempSync(join(tmpdir(), "charity-steps-health-export-"));
  [server, browser, healthExport] = await Promise.all([
    startAppServer({ env: { ...clock.env } }),
    launchChromium(),
    // Years of records (heart rate, energy, distance, steps from an iPhone and a watch): only the
    // last 31 days' steps count. Deflated fast: the reading on the phone is the same work.
    writeHealthExport({ path: join(folder, "export.zip"), xmlBytes: 40_000_000, now: NOW, level: 1 }),
  ]);
  // Large enough that Cancel comes well before the end of the read (its reading takes about two
  // and a half times as long as the export above).
  largeExport = await writeHealthExport({
    path: join(folder, "large-export.zip"),
    xmlBytes: 100_000_000,
    now: NOW,
    seed: 7,
    level: 1,
  });
  context = await phoneContext(browser);
  page = await context.newPage();
  errors = watchForErrors(page);
  await walkerAtNow(page);
});
afterAll(async () => {
  await browser?.close();
  await server?.stop();
  clock.dispose();
  if (folder) rmSync(folder, { recursive: true, force: true });
});

/** The walker's days as the server counts them (it shows the last 30, today included). */
async function serverHistory(): Promise<Map<string, number>> {
  const history = await page.evaluate(async () => {
    const response = await fetch("/api/steps/history");
    return (await response.json()) as { days: { date: string; steps: number }[] };
  });
  return new Map(history.days.map(({ date, steps }) => [date, steps]));
}

describe("importing an Apple Health export", () => {
  it("reads the export on the phone with a progress bar, and the days reach the server", async () => {
    expect(healthExport.xmlBytes).toBeGreaterThan(30_000_000);
    expect(healthExport.expected.size).toBeGreaterThan(25);

    await page.goto(`${server.origin}/apple-health`);
    const picker = page.getByLabel("Choose the Health export");
    await picker.waitFor({ state: "attached" });
    // Every percent the bar shows, recorded in the page: the read may be over before a poll would see it.
    await page.evaluate(() => {
      const seen: string[] = [];
      (window as unknown as { progressSeen: string[] }).progressSeen = seen;
      new MutationObserver(() => {
        const bar = document.querySelector("progress");
        if (bar) seen.push(bar.getAttribute("value") ?? "");
      }).observe(document.body, { subtree: true, childList: true, attributes: true });
    });

    await picker.setInputFiles(healthExport.path);
    const result = page.getByText(`Imported ${healthExport.expected.size} days of steps from Apple Health.`);
    await result.waitFor({ timeout: 60_000 });
    await page.getByText("They are on your Charity Steps total now.").waitFor();
    // A broken app's million steps in a minute, two days ago, are left out, and the walker told.
    await page
      .getByText(
        "Left out 1 record that cannot be right: it ends before it starts, has a count below zero, or an end or a count that cannot be read, or holds more steps than anyone walks in its time.",
        { exact: false },
      )
      .waitFor();
    const card = page.getByRole("region", { name: "Import a Health export" });
    await screenshot(card, "apple-health-export-imported");
    await showTheme(page, "dark");
    await screenshot(card, "apple-health-export-imported-dark");
    await showTheme(page, "light");

    const seen = await page.evaluate(() => (window as unknown as { progressSeen: string[] }).progressSeen);
    const percents = seen.map(Number);
    expect(percents.length).toBeGreaterThan(0);
    expect(percents).toEqual([...percents].sort((a, b) => a - b));
    // The reading started at 0% of the file.
    expect(percents[0]).toBe(0);

    // Per day: the larger of the iPhone and the watch each hour, never their sum; the steps typed in
    // by hand and the broken app's left out.
    const history = await serverHistory();
    expect(history.size).toBeGreaterThanOrEqual(30);
    for (const [date, steps] of history)
      expect({ date, steps }).toEqual({ date, steps: healthExport.expected.get(date) ?? 0 });
    expect(errors).toEqual([]);
  });

  it("says clearly when the chosen file is not a Health export, and sends nothing", async () => {
    const before = await serverHistory();
    await page.getByLabel("Choose the Health export").setInputFiles({
      name: "steps.csv",
      mimeType: "text/csv",
      buffer: Buffer.from("date,steps\n2026-11-01,99999\n"),
    });
    await page.getByRole("alert").filter({ hasText: "This file is not an Apple Health export." }).waitFor();
    expect(await serverHistory()).toEqual(before);
  });

  it("Cancel stops the reading, and nothing is sent", async () => {
    const syncs: string[] = [];
    page.on("request", (request) => {
      if (request.url().endsWith("/api/steps/sync")) syncs.push(request.url());
    });
    await page.goto(`${server.origin}/apple-health`);
    // Playwright hears of a worker after the page has started it, and on a busy machine after the
    // progress bar shows: the worker is waited for as it starts, not looked for in the page's list.
    const started = page.waitForEvent("worker", (worker) => worker.url().includes("health-export.worker"));
    await page.getByLabel("Choose the Health export").setInputFiles(largeExport.path);
    const worker = await started;
    await page.getByRole("progressbar").waitFor();
    const workerClosed = new Promise<void>((resolve) => worker.once("close", () => resolve()));
    await page.getByRole("button", { name: "Cancel" }).click();
    await page.getByText("Import cancelled: nothing was imported.").waitFor();
    // The worker that reads the file is gone, so no read goes on; what is left to prove is that the
    // page sends nothing of what it had been given before Cancel.
    await workerClosed;
    await page.waitForTimeout(2_000);
    expect(await page.getByText(/Imported \d+ days/).count()).toBe(0);
    expect(syncs).toEqual([]);
  });

  it("keeps an import made offline on the phone, and sends it once back online", async () => {
    const phone = await phoneContext(browser);
    try {
      const offlinePage = await phone.newPage();
      await walkerAtNow(offlinePage);
      await offlinePage.goto(`${server.origin}/apple-health`);
      // The page's code is all loaded before the connection goes, and the app is installed: the
      // export is read by a worker script the page loads only then, from the service worker's copy.
      await offlinePage.getByLabel("Choose the Health export").waitFor({ state: "attached" });
      await offlinePage.evaluate(() => navigator.serviceWorker.ready.then(() => undefined));
      await phone.setOffline(true);
      await offlinePage.getByLabel("Choose the Health export").setInputFiles(healthExport.path);
      await offlinePage
        .getByText("They are saved on this phone and will be sent when you are back online.")
        .waitFor({ timeout: 30_000 });
      await phone.setOffline(false);
      await offlinePage.reload();
      const history = async () => {
        const days = await offlinePage.evaluate(async () => {
          const response = await fetch("/api/steps/history");
          return ((await response.json()) as { days: { date: string; steps: number }[] }).days;
        });
        return new Map(days.map(({ date, steps }) => [date, steps]));
      };
      await expect
        .poll(async () => [...(await history()).values()].filter((steps) => steps > 0).length, {
          timeout: 30_000,
        })
        .toBeGreaterThanOrEqual(healthExport.expected.size - 1);
      for (const [date, steps] of await history()) {
        expect({ date, steps }).toEqual({ date, steps: healthExport.expected.get(date) ?? 0 });
      }
    } finally {
      await phone.close();
    }
  }, 120_000);
});
