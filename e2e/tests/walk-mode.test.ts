import type { Browser, BrowserContext, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type AppServer, startAppServer } from "../support/app-server.js";
import { launchChromium, phoneContext, screenshot, showTheme, watchForErrors } from "../support/chromium.js";
import { createFakeClock, MID_MONTH_MOMENT, signUpAhead } from "../support/fake-clock.js";
import { newSignedInWalker, serverTodaySteps, shownTodaySteps, walk } from "../support/walker.js";

let server: AppServer;
let browser: Browser;
let context: BrowserContext;
let page: Page;
let errors: string[];
// The steps counted are read back as today's, on the phone and the server: on clocks that start at
// a fixed day and run on at the real pace (the walks' timers need it), no midnight falls between.
const clock = createFakeClock();
const NOW = MID_MONTH_MOMENT;

interface WakeLockLog {
  requested: number;
  held: number;
}

beforeAll(async () => {
  await signUpAhead(clock, NOW, async () => {
    [server, browser] = await Promise.all([startAppServer({ env: { ...clock.env } }), launchChromium()]);
    context = await phoneContext(browser);
    // Chromium's real Screen Wake Lock, watched: each lock the app takes and each release is counted.
    await context.addInitScript(() => {
      const log = { requested: 0, held: 0 };
      Object.assign(window, { wakeLockLog: log });
      const wakeLock = navigator.wakeLock;
      if (!wakeLock) return;
      const request = wakeLock.request.bind(wakeLock);
      wakeLock.request = async (type) => {
        const sentinel = await request(type);
        log.requested += 1;
        log.held += 1;
        sentinel.addEventListener("release", () => {
          log.held -= 1;
        });
        return sentinel;
      };
    });
    page = await context.newPage();
    errors = watchForErrors(page);
    await newSignedInWalker(page, server.origin);
  });
  await context.clock.setSystemTime(NOW);
  await page.reload();
});
afterAll(async () => {
  await browser?.close();
  await server?.stop();
  clock.dispose();
});

const wakeLocks = () => page.evaluate(() => (window as unknown as { wakeLockLog: WakeLockLog }).wakeLockLog);

/**
 * The phone locked or the walker switched apps, and back: headless Chromium never hides a page by
 * itself, so the page is told it is hidden the way the browser tells it.
 */
async function setVisibility(state: "hidden" | "visible"): Promise<void> {
  await page.evaluate((visibility) => {
    Object.defineProperty(document, "visibilityState", { value: visibility, configurable: true });
    Object.defineProperty(document, "hidden", { value: visibility === "hidden", configurable: true });
    document.dispatchEvent(new Event("visibilitychange"));
  }, state);
}

/**
 * When the app noted it was hidden (the device's meta row `backgroundFlags`, in IndexedDB), moved by
 * `ms` first (negative: earlier) when it has such a note; null when it has none.
 */
function hiddenAtMovedBy(ms: number): Promise<number | null> {
  return page.evaluate(
    (by) =>
      new Promise<number | null>((resolve, reject) => {
        const open = indexedDB.open("charity-steps");
        open.onerror = () => reject(open.error);
        open.onsuccess = () => {
          const meta = open.result.transaction("meta", "readwrite").objectStore("meta");
          const read = meta.get("backgroundFlags");
          read.onerror = () => reject(read.error);
          read.onsuccess = () => {
            const flags = read.result?.value as { enabled: boolean; hiddenAt: number | null } | undefined;
            const hiddenAt = flags?.hiddenAt == null ? null : flags.hiddenAt + by;
            if (flags && hiddenAt !== null && by !== 0)
              meta.put({ key: "backgroundFlags", value: { ...flags, hiddenAt } });
            meta.transaction.oncomplete = () => {
              open.result.close();
              resolve(hiddenAt);
            };
          };
        };
      }),
    ms,
  );
}

describe("walk mode", () => {
  it("keeps the screen on while counting, and says what counts", async () => {
    await page.getByText("Counts while this screen is on").waitFor();
    await page.getByRole("button", { name: "Enable" }).click();
    await page.getByText("Live", { exact: true }).waitFor();
    await page.getByText("Counting while this screen is on. The screen stays on while you count.").waitFor();
    expect(await wakeLocks()).toEqual({ requested: 1, held: 1 });
    await walk(page, 6);
    expect(await shownTodaySteps(page)).toBeGreaterThan(5);
    await screenshot(page, "60-walk-mode-screen-on");
  });

  it("lets the lock go when the page is hidden and takes it again on return", async () => {
    await setVisibility("hidden");
    await expect.poll(wakeLocks).toEqual({ requested: 1, held: 0 });
    await setVisibility("visible");
    await expect.poll(wakeLocks).toEqual({ requested: 2, held: 1 });
  });

  it("adds nothing for an hour away: the card says counting paused", async () => {
    const before = await shownTodaySteps(page);
    // An hour in the background, as the device remembers it. The app's note of this hiding is
    // awaited before it is moved an hour back: on a slow machine the app's write could otherwise
    // land after the test's and undo it, and the walker would rightly be told nothing. The last
    // return's clearing of the note is awaited first, so the note seen is this hiding's.
    await expect.poll(() => hiddenAtMovedBy(0)).toBeNull();
    await setVisibility("hidden");
    await expect.poll(() => hiddenAtMovedBy(0)).not.toBeNull();
    const noted = (await hiddenAtMovedBy(0)) as number;
    expect(await hiddenAtMovedBy(-60 * 60_000)).toBe(noted - 60 * 60_000);
    await setVisibility("visible");
    await page.getByText(/Counting paused for 1 h while Charity Steps was in the background/).waitFor();
    expect(await shownTodaySteps(page)).toBe(before);
    // The signal coming back sends whatever waits: the server ends at what was walked, no more.
    await context.setOffline(true);
    await context.setOffline(false);
    await expect.poll(() => serverTodaySteps(page), { timeout: 20_000 }).toBe(before);
    expect(await shownTodaySteps(page)).toBe(before);
    await screenshot(page, "61-counting-paused-notice");
    await page.getByRole("button", { name: "Dismiss" }).click();
  });

  it("goes black with the live count in a pocket, ignores a brush, and leaves on press and hold", async () => {
    await page.getByRole("button", { name: "Pocket screen" }).click();
    const pocket = page.getByRole("dialog", { name: "Pocket screen" });
    await pocket.waitFor();
    const before = await shownTodaySteps(page);
    // The last walk has ended, so the detector must recognise a new one: its first step counts some
    // 3 to 3.5 s in. A 4 s walk left half a second, and on a busy machine, where the page's timers
    // run late, the pocket screen sometimes counted nothing; 8 s leaves room.
    await walk(page, 8);
    await expect
      .poll(async () =>
        Number((await page.getByTestId("pocket-screen-steps").textContent())?.replaceAll(",", "")),
      )
      .toBeGreaterThan(before);
    await screenshot(page, "62-pocket-screen", { fullPage: false });

    // A pocket brushing the screen is a short press: the screen stays.
    const box = await pocket.boundingBox();
    if (!box) throw new Error("the pocket screen has no box");
    await page.mouse.move(box.x + box.width / 2, box.y + box.height / 2);
    await page.mouse.down();
    await new Promise((resolve) => setTimeout(resolve, 300));
    await page.mouse.up();
    expect(await pocket.isVisible()).toBe(true);

    await page.mouse.down();
    await new Promise((resolve) => setTimeout(resolve, 1_800));
    await page.mouse.up();
    await pocket.waitFor({ state: "detached" });
    expect(await wakeLocks()).toMatchObject({ held: 1 });
  });

  it("releases the screen on Disconnect", async () => {
    await page.getByRole("button", { name: "Disconnect" }).click();
    await expect.poll(wakeLocks).toMatchObject({ held: 0 });
    expect(errors).toEqual([]);
  });

  it("says so when the device sends no motion readings, and connected once one comes", async () => {
    // This Chromium has no motion sensor: until a walk is played to it, no reading arrives.
    await page.getByRole("button", { name: "Enable" }).click();
    const noReadings = page.getByRole("status").filter({ hasText: "No Motion Readings" });
    await noReadings.waitFor({ timeout: 15_000 });
    expect(await noReadings.textContent()).toContain(
      "This device isn't sending motion readings, so steps won't be counted here.",
    );
    await screenshot(page, "63-no-motion-readings", { fullPage: false });
    await showTheme(page, "dark");
    await screenshot(page, "63-no-motion-readings-dark", { fullPage: false });
    await showTheme(page, "light");
    // A phone slow to start: its first reading still says connected, and counting was on all along.
    await page.evaluate(() =>
      window.dispatchEvent(
        new DeviceMotionEvent("devicemotion", { accelerationIncludingGravity: { x: 0.3, y: 0.2, z: 9.81 } }),
      ),
    );
    await page.getByRole("status").filter({ hasText: "Device Motion Connected!" }).waitFor();
    const before = await shownTodaySteps(page);
    // As long a walk as the first: the detector confirms steps once a walk's rhythm is clear.
    await walk(page, 6);
    await expect.poll(() => shownTodaySteps(page), { timeout: 10_000 }).toBeGreaterThan(before);
    await page.getByRole("button", { name: "Disconnect" }).click();
    expect(errors).toEqual([]);
  });
});
