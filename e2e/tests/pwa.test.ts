import type { Browser, BrowserContext, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type AppServer, startAppServer } from "../support/app-server.js";
import { launchChromium, phoneContext, screenshot } from "../support/chromium.js";

let server: AppServer;
let browser: Browser;
let context: BrowserContext;
let page: Page;

beforeAll(async () => {
  [server, browser] = await Promise.all([startAppServer(), launchChromium()]);
  context = await phoneContext(browser);
  page = await context.newPage();
});
afterAll(async () => {
  await browser?.close();
  await server?.stop();
});

describe("the installable app", () => {
  it("links a web app manifest that makes it installable", async () => {
    await page.goto(`${server.origin}/`);
    const href = await page.locator('link[rel="manifest"]').getAttribute("href");
    expect(href).toBeTruthy();
    const manifest = await (await fetch(new URL(href ?? "", server.origin))).json();
    expect(manifest).toMatchObject({
      name: "Charity Steps",
      display: "standalone",
      start_url: "/",
      theme_color: "#0d9488",
    });
    const sizes = manifest.icons.map(
      (icon: { sizes: string; purpose?: string }) => `${icon.sizes} ${icon.purpose ?? "any"}`,
    );
    expect(sizes).toEqual(expect.arrayContaining(["192x192 any", "512x512 any", "512x512 maskable"]));
    for (const icon of manifest.icons) {
      const response = await fetch(new URL(icon.src, server.origin));
      expect(response.headers.get("content-type")).toBe("image/png");
    }
    // The install dialog's pictures of the app, and the icon's long-press shortcuts.
    expect(manifest.screenshots.length).toBeGreaterThanOrEqual(1);
    for (const screenshot of manifest.screenshots as { src: string; sizes: string }[]) {
      const response = await fetch(new URL(screenshot.src, server.origin));
      expect(response.headers.get("content-type")).toBe("image/png");
      const bytes = Buffer.from(await response.arrayBuffer());
      expect(`${bytes.readUInt32BE(16)}x${bytes.readUInt32BE(20)}`).toBe(screenshot.sizes);
    }
    expect(
      manifest.shortcuts.map((shortcut: { name: string; url: string }) => [shortcut.name, shortcut.url]),
    ).toEqual([
      ["Start a walk", "/dashboard#walk"],
      ["Add steps", "/dashboard#add-steps"],
    ]);
  });

  it("installs a service worker that serves the app offline, but never the API", async () => {
    await page.goto(`${server.origin}/`);
    await page.evaluate(async () => {
      await navigator.serviceWorker.ready;
    });
    // Once the worker controls the page, reloading takes navigations through it.
    await page.reload();
    await page.waitForFunction(() => navigator.serviceWorker.controller !== null);

    await context.setOffline(true);
    try {
      await page.goto(`${server.origin}/terms`);
      await page.getByRole("heading", { level: 1 }).first().waitFor();
      expect(await page.getByRole("button", { name: "Back" }).count()).toBe(1);
      await screenshot(page, "13-offline-terms");

      const api = await page.evaluate(async () => {
        try {
          const response = await fetch("/api/health");
          return `answered ${response.status}`;
        } catch {
          return "network error";
        }
      });
      expect(api).toBe("network error");
    } finally {
      await context.setOffline(false);
    }
  });
});
