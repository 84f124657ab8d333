import { phoneContext } from "@charity-steps/e2e/support/chromium";
import type { Browser } from "playwright-core";
import { bounded, type Figure } from "../figure.js";
import { GOAL_TEXT, median, type SignedInWalker } from "./shared.js";

/**
 * A repeat visit with no network: the walker's dashboard, visited once online so the service worker
 * controls it, is reloaded offline. The figure is the wall time from the reload until the goal line
 * shows (median of `repeats` reloads).
 */
export async function measureOfflineVisit(
  browser: Browser,
  origin: string,
  walker: SignedInWalker,
  repeats: number,
  quick: boolean,
  /** Stops the server: Chromium's offline emulation does not cover the service worker's own fetches. */
  cutServer: () => Promise<void>,
): Promise<Figure[]> {
  const context = await phoneContext(browser);
  try {
    await context.addCookies(walker.cookies);
    const page = await context.newPage();
    await page.goto(`${origin}/dashboard`);
    await page.getByText(GOAL_TEXT).waitFor();
    await page.evaluate(async () => {
      await navigator.serviceWorker.ready;
    });
    // Once more online, so the worker controls the page and has cached the API answers.
    await page.reload();
    await page.getByText(GOAL_TEXT).waitFor();
    await page.waitForLoadState("networkidle");
    const controlled = await page.evaluate(() => navigator.serviceWorker.controller !== null);
    if (!controlled) throw new Error("the service worker does not control the dashboard after a reload");

    await context.setOffline(true);
    await cutServer();
    const times: number[] = [];
    const inPage: number[] = [];
    for (let repeat = 0; repeat < repeats; repeat += 1) {
      const started = performance.now();
      await page.reload({ waitUntil: "commit" });
      await page.getByText(GOAL_TEXT).waitFor({ timeout: 15_000 });
      times.push(performance.now() - started);
      inPage.push(await page.evaluate(() => performance.now()));
    }
    const scripts = await page.evaluate(() =>
      performance
        .getEntriesByType("resource")
        .filter((entry) => entry.name.endsWith(".js"))
        .map((entry) => Math.round(entry.startTime + entry.duration)),
    );
    return [
      bounded(
        {
          name: "offline repeat visit: dashboard shown",
          value: Math.round(median(times)),
          unit: "ms",
          limit: 1000,
          note:
            `median of ${repeats} reloads, page offline and server stopped ` +
            `(${times.map((t) => Math.round(t)).join(", ")} ms; in the page ${Math.round(median(inPage))} ms ` +
            `after navigation start, last script in at ${Math.max(0, ...scripts)} ms)`,
        },
        quick,
      ),
    ];
  } finally {
    await context.close();
  }
}
