import { createServer, type Server } from "node:http";
import type { Browser, BrowserContext, Page, Response } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type AppServer, startAppServer } from "../support/app-server.js";
import { launchChromium, phoneContext, watchForErrors } from "../support/chromium.js";
import { freePort } from "../support/ports.js";
import { signUpNewWalker } from "../support/walker.js";

/**
 * The security headers as the browser gets them, and the app working under its own
 * Content Security Policy (no violation on any screen a walker visits), and refusing to be framed.
 */
let server: AppServer;
let browser: Browser;
let context: BrowserContext;
let page: Page;
let framer: Server;
let framerOrigin: string;

beforeAll(async () => {
  [server, browser] = await Promise.all([startAppServer(), launchChromium()]);
  context = await phoneContext(browser);
  page = await context.newPage();
  // Another site that tries to show the app in a frame (clickjacking).
  const port = await freePort();
  framerOrigin = `http://127.0.0.1:${port}`;
  framer = createServer((_request, response) => {
    response.writeHead(200, { "content-type": "text/html" });
    response.end(`<!doctype html><iframe id="app" src="${server.origin}/dashboard"></iframe>`);
  });
  await new Promise<void>((resolve) => framer.listen(port, "127.0.0.1", resolve));
});
afterAll(async () => {
  await new Promise((resolve) => framer?.close(resolve));
  await browser?.close();
  await server?.stop();
});

function expectSecurityHeaders(response: Response | null, label: string) {
  expect(response, label).not.toBeNull();
  const headers = response?.headers() ?? {};
  const csp = headers["content-security-policy"] ?? "";
  expect(csp, label).toContain("default-src 'self'");
  expect(csp, label).toContain("script-src 'self'");
  expect(csp, label).toContain("frame-ancestors 'none'");
  expect(csp, label).toContain("object-src 'none'");
  expect(headers["x-content-type-options"], label).toBe("nosniff");
  expect(headers["referrer-policy"], label).toBe("strict-origin-when-cross-origin");
}

describe("security headers in the browser", () => {
  it("are on every page a walker opens, and the app runs under its CSP without a single violation", async () => {
    const errors = watchForErrors(page);
    const violations: string[] = [];
    await page.exposeFunction("reportViolation", (text: string) => violations.push(text));
    await page.addInitScript(() => {
      document.addEventListener("securitypolicyviolation", (event) => {
        (window as unknown as { reportViolation(text: string): void }).reportViolation(
          `${event.violatedDirective} ${event.blockedURI}`,
        );
      });
    });

    expectSecurityHeaders(await page.goto(`${server.origin}/`), "landing page");
    const signIn = page.waitForResponse((response) => response.url().includes("/auth/interaction/"));
    await page.goto(`${server.origin}/api/login`);
    expectSecurityHeaders(await signIn, "sign-in page");
    await signUpNewWalker(page, server.origin);
    for (const path of ["/dashboard", "/charity", "/prize-draw", "/groups", "/account"]) {
      expectSecurityHeaders(await page.goto(`${server.origin}${path}`), path);
      await page.getByRole("navigation", { name: "Main" }).waitFor();
    }
    const api = await page.request.get(`${server.origin}/api/dashboard/stats`);
    expect(api.headers()["x-content-type-options"]).toBe("nosniff");
    expect(violations).toEqual([]);
    expect(errors).toEqual([]);
  });

  it("cannot be shown in a frame on another site", async () => {
    const other = await context.newPage();
    const blocked: string[] = [];
    const appAssets: string[] = [];
    other.on("console", (message) => blocked.push(message.text()));
    other.on("request", (request) => {
      if (request.url().startsWith(`${server.origin}/assets/`)) appAssets.push(request.url());
    });
    await other.goto(`${framerOrigin}/`);
    await expect
      .poll(() => blocked.some((text) => text.includes("frame-ancestors")), { timeout: 10_000 })
      .toBe(true);
    // The refused frame never ran the app: none of its scripts or styles were even asked for.
    await other.waitForTimeout(1_000);
    expect(appAssets).toEqual([]);
    await other.close();
  });
});
