import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import { dirname, join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { launchChromium, PLAYWRIGHT_DISABLED_FEATURES, phoneContext } from "../support/chromium.js";

/**
 * The tests' browsers turn Chromium features off with a `--disable-features` of their own, which
 * replaces playwright-core's: these hold that switch to both jobs.
 */
describe("the tests' Chromium", () => {
  it("still turns off every feature playwright-core turns off", () => {
    const playwright = dirname(createRequire(import.meta.url).resolve("playwright-core/package.json"));
    const bundle = readFileSync(join(playwright, "lib", "coreBundle.js"), "utf8");
    const list = /disabledFeatures = \[([^\]]*)\]/.exec(bundle)?.[1];
    expect(list, "playwright-core's list of disabled features was not found where it was").toBeDefined();
    const theirs = [...(list ?? "").matchAll(/^\s*"(\w+)"/gm)].map((match) => match[1]);
    expect(theirs.length).toBeGreaterThan(0);
    expect(PLAYWRIGHT_DISABLED_FEATURES).toEqual(theirs);
  });

  describe("in a new browser context", () => {
    let browser: Awaited<ReturnType<typeof launchChromium>>;
    beforeAll(async () => {
      browser = await launchChromium();
    });
    afterAll(async () => {
      await browser?.close();
    });

    it("opens the page under test and no page of Chromium's own (the omnibox's popup)", async () => {
      const context = await phoneContext(browser);
      await context.newPage();
      const cdp = await browser.newBrowserCDPSession();
      // An empty filter lists every kind of target, Chromium's own pages ("browser_ui") among them.
      const { targetInfos } = (await cdp.send("Target.getTargets", { filter: [{}] })) as {
        targetInfos: { type: string; url: string }[];
      };
      expect(targetInfos.filter((target) => target.type === "page").map((target) => target.url)).toEqual([
        "about:blank",
      ]);
      expect(targetInfos.filter((target) => target.url.startsWith("chrome://"))).toEqual([]);
      await context.close();
    });
  });
});
