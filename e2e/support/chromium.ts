import { mkdirSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { type Browser, type BrowserContext, chromium, type Locator, type Page } from "playwright-core";

export const CHROMIUM_PATH = process.env.CHROMIUM_PATH ?? "/usr/bin/chromium";
const screenshotDir = fileURLToPath(new URL("../screenshots", import.meta.url));

/** The flags every Chromium the tests and the bench start gets: no sandbox (root in CI), no GPU, no background traffic. */
export const CHROMIUM_ARGS = [
  "--no-sandbox",
  "--disable-gpu",
  "--disable-background-networking",
  "--disable-component-update",
  "--disable-sync",
  "--no-first-run",
];

/**
 * The features playwright-core turns off when it starts Chromium (its `chromiumSwitches`). Chromium
 * heeds only the last `--disable-features` it is given, so a list of the tests' own must repeat
 * these; `tests/chromium-features.test.ts` fails when an upgrade of playwright-core changes them.
 */
export const PLAYWRIGHT_DISABLED_FEATURES = [
  "AvoidUnnecessaryBeforeUnloadCheckSync",
  "DestroyProfileOnBrowserClose",
  "HttpsUpgrades",
  "HttpsFirstBalancedModeAutoEnable",
  "LensOverlay",
  "MediaRouter",
  "PaintHolding",
  "ThirdPartyStoragePartitioning",
  "AvoidCorsURLLoaderRestartOnRedirect",
  "TcpPortRandomizationWin",
  "OptimizationHints",
  "NetworkTimeServiceQuerying",
  "AimEnabled",
  "PreconnectToSearch",
  "msForceBrowserSignIn",
  "msEdgeUpdateLaunchServicesPreferredVersion",
];

/**
 * The omnibox's popup, which this Chromium draws as a web page of its own
 * (chrome://omnibox-popup.top-chrome/) and loads, in a renderer of its own, for every new window:
 * that is, for the first page of every browser context. Nothing here has an omnibox to open, and
 * loading it cost several times the CPU of the blank page it came with, in every context a test
 * opens (see bench/HISTORY.md, "A browser context's first page").
 */
const OMNIBOX_POPUP_FEATURES = ["WebUIOmniboxPopup", "WebUIOmniboxAimPopup", "WebUIOmniboxFullPopup"];

/** The tests' browsers: CHROMIUM_ARGS, and no omnibox popup. Lighthouse's runs keep its own switches. */
const TEST_BROWSER_ARGS = [
  ...CHROMIUM_ARGS,
  `--disable-features=${[...PLAYWRIGHT_DISABLED_FEATURES, ...OMNIBOX_POPUP_FEATURES].join(",")}`,
];

/** A phone: 390×844 at 2×, touch, as walkers use the app. */
const PHONE = { viewport: { width: 390, height: 844 }, deviceScaleFactor: 2, isMobile: true, hasTouch: true };

const launchOptions = { executablePath: CHROMIUM_PATH, headless: true, args: TEST_BROWSER_ARGS };

/**
 * Debian's Chromium with the flags the tests need (no downloads, no background traffic). Each test
 * file starts its own: two files run at once, and while they shared one Chromium, one file's page
 * would now and then stall for half a minute while the other's ran.
 */
export function launchChromium(): Promise<Browser> {
  return chromium.launch(launchOptions);
}

/** A phone-sized context (390×844 at 2×, touch), as walkers use the app. */
export function phoneContext(
  browser: Browser,
  options: { serviceWorkers?: "allow" | "block" } = {},
): Promise<BrowserContext> {
  return browser.newContext({ ...PHONE, ...options });
}

/**
 * A phone whose browser profile lives in `userDataDir`: closing it and opening it again on the same
 * folder is a walker closing the browser and coming back (cookies, IndexedDB, service worker kept).
 */
export function launchPhoneProfile(userDataDir: string): Promise<BrowserContext> {
  return chromium.launchPersistentContext(userDataDir, {
    executablePath: CHROMIUM_PATH,
    headless: true,
    args: TEST_BROWSER_ARGS,
    ...PHONE,
  });
}

/**
 * Whether screenshots are written: they are for a person to look at, so CI (E2E_SCREENSHOTS=off),
 * where nobody sees them, skips the encoding: a full page at 2× is megapixels of PNG each.
 */
const screenshotsWanted = process.env.E2E_SCREENSHOTS !== "off";

/**
 * The whole page, or with `{ fullPage: false }` only what the phone's screen shows (an overlay);
 * given a locator, that one element.
 */
export async function screenshot(
  target: Page | Locator,
  name: string,
  { fullPage = true } = {},
): Promise<void> {
  if (!screenshotsWanted) return;
  mkdirSync(screenshotDir, { recursive: true });
  const path = join(screenshotDir, `${name}.png`);
  await ("goto" in target ? target.screenshot({ path, fullPage }) : target.screenshot({ path }));
}

/**
 * Holds each answer to `url` (a route glob) until `asked()` is true, or 5 s at most, then lets it
 * through: for "does the page ask for this while it waits for that answer, not after?". Answers a
 * reading of whether `asked()` had come true when the last held answer went.
 */
export async function holdAnswersUntil(
  page: Page,
  url: string,
  asked: () => boolean,
): Promise<() => boolean> {
  let askedFirst = false;
  await page.route(url, async (route) => {
    // A monotonic clock: a test may move the date.
    const until = performance.now() + 5000;
    while (!asked() && performance.now() < until) await new Promise((resolve) => setTimeout(resolve, 20));
    askedFirst = asked();
    await route.continue();
  });
  return () => askedFirst;
}

const ASSET_TYPES = new Set(["script", "stylesheet", "image", "manifest", "font"]);

/**
 * Collects what the page logs as errors (CSP violations among them), uncaught exceptions, server
 * failures and missing assets. Chromium also logs every 4xx answer ("Failed to load resource"):
 * those are expected here (the signed-out 401 of GET /api/auth/user, a refused password), so
 * answers are judged by status and type instead.
 */
export function watchForErrors(page: Page): string[] {
  const errors: string[] = [];
  page.on("console", (message) => {
    const text = message.text();
    if (message.type() === "error" && !text.startsWith("Failed to load resource")) errors.push(text);
  });
  page.on("response", (response) => {
    const status = response.status();
    if (status >= 500 || (status >= 400 && ASSET_TYPES.has(response.request().resourceType()))) {
      errors.push(`${status} ${response.url()}`);
    }
  });
  page.on("pageerror", (error) => errors.push(error.message));
  return errors;
}

/** The errors logged but the browser's own for requests a page made with no signal. */
export function withoutOfflineNoise(errors: readonly string[]): string[] {
  return errors.filter((error) => !/ERR_INTERNET_DISCONNECTED|Failed to fetch/.test(error));
}

/** The errors logged but the app's own note that a (blocked) service worker could not register. */
export function withoutBlockedWorkerNote(errors: readonly string[]): string[] {
  return errors.filter((error) => !error.startsWith("Service worker registration failed"));
}

/**
 * Notes every toast the page shows, from its first script on (call before the page loads): a toast
 * lasts seconds and the next replaces it, so on a busy machine it can come and go between two looks.
 * `seen()` waits, up to its timeout, for a toast whose text contains `text`, and answers every toast
 * text noted so far (joined by " | ").
 */
export async function recordToasts(page: Page): Promise<{
  seen(text: string, options?: { timeout?: number }): Promise<string>;
  all(): Promise<string[]>;
}> {
  await page.addInitScript(() => {
    const toasts: string[] = [];
    Object.assign(window, { toastsSeen: toasts });
    new MutationObserver(() => {
      for (const toast of Array.from(document.querySelectorAll("li.toast"))) {
        const text = toast.textContent ?? "";
        if (!toasts.includes(text)) toasts.push(text);
      }
    }).observe(document, { subtree: true, childList: true, characterData: true });
  });
  // What the page said, for the message when the toast never comes.
  const said: string[] = [];
  page.on("console", (message) => said.push(`${message.type()}: ${message.text()}`));
  page.on("pageerror", (error) => said.push(`uncaught: ${error.message}`));
  const all = () => page.evaluate(() => (window as unknown as { toastsSeen: string[] }).toastsSeen);
  return {
    all,
    async seen(text, { timeout = 30_000 } = {}) {
      // waitForFunction, unlike a poll of evaluate, gives up after its timeout; it looks on a
      // timer, not on animation frames, which a page sharing a busy browser may be given few of.
      const found = await page
        .waitForFunction(
          (wanted) => {
            const { toastsSeen } = window as unknown as { toastsSeen: string[] };
            return toastsSeen.some((toast) => toast.includes(wanted)) && toastsSeen.join(" | ");
          },
          text,
          { timeout, polling: 100 },
        )
        .catch(async (error: unknown) => {
          // Read with a bound of its own: a page caught mid-navigation must not hold the test.
          const unread = new Promise<string[]>((resolve) =>
            setTimeout(() => resolve(["(the page could not be read)"]), 2_000),
          );
          const seenSoFar = await Promise.race([all().catch(() => ["(the page could not be read)"]), unread]);
          throw new Error(
            `No toast saying "${text}" in ${timeout} ms on ${page.url()}. Toasts seen: ${JSON.stringify(seenSoFar)}. The page said: ${JSON.stringify(said.slice(-20))}`,
            { cause: error },
          );
        });
      return (await found.jsonValue()) as string;
    },
  };
}

/**
 * Shows `page` in `theme` as the app does for a walker who chose it (`data-theme` on <html>), and
 * waits for the colours' CSS transitions to end: a picture taken at once catches buttons halfway.
 */
export async function showTheme(page: Page, theme: "light" | "dark"): Promise<void> {
  await page.evaluate((chosen) => {
    document.documentElement.dataset.theme = chosen;
  }, theme);
  await page.waitForFunction(() =>
    document.getAnimations().every((animation) => !(animation instanceof CSSTransition)),
  );
}
