import { appendFileSync, cpSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import type { Browser, BrowserContext, Locator, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type AppServer, startAppServer } from "../support/app-server.js";
import { expectAccessible } from "../support/axe.js";
import { launchChromium, phoneContext, screenshot } from "../support/chromium.js";

let server: AppServer;
let browser: Browser;
let context: BrowserContext;
let page: Page;
const webDist = fileURLToPath(new URL("../../web/dist", import.meta.url));
const release = mkdtempSync(join(tmpdir(), "charity-steps-release-"));

// The app is served from a copy of the built PWA, so that a test can ship a new release (a changed
// service worker) without touching the build other tests use. The run's first server has built
// what was stale before any test file starts.
beforeAll(async () => {
  cpSync(webDist, release, { recursive: true });
  // Precompressed copies would be served in place of the worker the test changes.
  rmSync(join(release, "sw.js.br"), { force: true });
  rmSync(join(release, "sw.js.gz"), { force: true });
  [server, browser] = await Promise.all([
    startAppServer({ env: { WEB_DIST_DIR: release } }),
    launchChromium(),
  ]);
  context = await phoneContext(browser);
  page = await context.newPage();
});
afterAll(async () => {
  await browser?.close();
  await server?.stop();
  rmSync(release, { recursive: true, force: true });
});

/**
 * Ships a new release (the worker with a line more, which the browser's update check sees as new),
 * has `on`'s registration look for it, and answers the prompt once it shows.
 */
async function shipRelease(on: Page, name: string): Promise<Locator> {
  appendFileSync(join(release, "sw.js"), `\n// ${name}\n`);
  await on.evaluate(async () => {
    const registration = await navigator.serviceWorker.getRegistration();
    await registration?.update();
  });
  const prompt = on.getByRole("status").filter({ hasText: "A new version of Charity Steps is available." });
  await prompt.waitFor();
  return prompt;
}

describe("the new-version prompt meets WCAG 2.2 A and AA (axe-core)", () => {
  it("appears when a new service worker waits, and passes axe", async () => {
    await page.goto(`${server.origin}/`);
    await page.evaluate(async () => {
      await navigator.serviceWorker.ready;
    });
    await page.reload();
    await page.waitForFunction(() => navigator.serviceWorker.controller !== null);

    const prompt = await shipRelease(page, "the next release");
    expect(await prompt.getByRole("button", { name: "Reload" }).count()).toBe(1);
    await expectAccessible(page, "new-version prompt");
    await screenshot(page, "95-update-prompt", { fullPage: false });

    // At 200% text its buttons move under the sentence, and nothing passes the screen's edge.
    await page.evaluate(() => {
      document.documentElement.style.fontSize = "200%";
    });
    const width = await page.evaluate(() => document.documentElement.clientWidth);
    for (const part of [
      prompt,
      prompt.getByRole("button", { name: "Reload" }),
      prompt.getByRole("button", { name: "Dismiss" }),
    ]) {
      const box = await part.boundingBox();
      expect(box && box.x >= 0 && box.x + box.width <= width).toBe(true);
    }
    await expectAccessible(page, "new-version prompt at 200% text");
    await screenshot(page, "95-update-prompt-text-200", { fullPage: false });
  });
});

describe("the new-version prompt's Reload", () => {
  it("moves a page from the walker's first visit onto the new version too", async () => {
    const firstVisit = await phoneContext(browser);
    try {
      const phone = await firstVisit.newPage();
      await phone.goto(`${server.origin}/terms`);
      // The worker installs and takes the page, which started without one.
      await phone.waitForFunction(() => navigator.serviceWorker.controller !== null, undefined, {
        timeout: 30_000,
      });

      const prompt = await shipRelease(phone, "the release after");
      await phone.evaluate(() => {
        (window as { beforeTheReload?: boolean }).beforeTheReload = true;
      });
      const reloaded = phone.waitForEvent("load");
      await prompt.getByRole("button", { name: "Reload" }).click();
      await reloaded;

      // A new page, run by the new version, with nothing left waiting and no prompt.
      expect(await phone.evaluate(() => (window as { beforeTheReload?: boolean }).beforeTheReload)).toBe(
        undefined,
      );
      await phone.getByRole("heading", { level: 1 }).first().waitFor();
      expect(
        await phone.evaluate(async () => {
          const registration = await navigator.serviceWorker.getRegistration();
          return {
            waiting: Boolean(registration?.waiting),
            controlled: navigator.serviceWorker.controller !== null,
          };
        }),
      ).toEqual({ waiting: false, controlled: true });
      expect(await prompt.count()).toBe(0);
    } finally {
      await firstVisit.close();
    }
  });
});
