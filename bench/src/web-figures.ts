/**
 * What the PWA costs a walker's phone, measured
 * in Debian's Chromium against the app as `pnpm start` serves it (a fresh data folder, started and
 * stopped here).
 */
import { type AppServer, startAppServer } from "@charity-steps/e2e/support/app-server";
import { CHROMIUM_PATH, launchChromium } from "@charity-steps/e2e/support/chromium";
import type { Browser } from "playwright-core";
import { type Figure, type FigureGroup, notMeasured } from "./figure.js";
import { measureJsWeight } from "./web/js-weight.js";
import { measureLighthouse, measureLighthouseQuality } from "./web/lighthouse.js";
import { measureOfflineReplay } from "./web/offline-replay.js";
import { measureOfflineVisit } from "./web/offline-visit.js";
import { attempt, signedInWalker } from "./web/shared.js";

export const measureWeb: FigureGroup = async ({ quick }) => {
  let server: AppServer | undefined;
  let browser: Browser | undefined;
  try {
    [server, browser] = await Promise.all([startAppServer(), launchChromium()]);
    const { origin } = server;
    const figures: Figure[] = [];
    const chromium = browser;

    // One walker for the pages, one each for the replays (each replay is a fresh device and account).
    const walker = await signedInWalker(chromium, origin);

    figures.push(
      ...(await attempt(["landing page JS (gzip -9)", "dashboard JS, signed in (gzip -9)"], () =>
        measureJsWeight(chromium, origin, walker, quick),
      )),
    );

    const lighthouseFigures = [
      { label: "landing page", path: "/", cookie: null, minPerformance: 95 },
      { label: "dashboard (signed in)", path: "/dashboard", cookie: walker.cookie, minPerformance: 90 },
    ];
    for (const page of lighthouseFigures) {
      const names = [`Lighthouse performance, ${page.label}`, `Lighthouse CLS, ${page.label}`];
      if (quick) {
        figures.push(
          notMeasured(names[0] as string, "score", `≥ ${page.minPerformance}`, "skipped in --quick"),
          notMeasured(names[1] as string, "", "≤ 0.05", "skipped in --quick"),
        );
        continue;
      }
      figures.push(
        ...(await attempt(names, () =>
          measureLighthouse({
            label: page.label,
            url: `${origin}${page.path}`,
            chromePath: CHROMIUM_PATH,
            cookie: page.cookie,
            runs: 3,
            minPerformance: page.minPerformance,
            quick,
          }),
        )),
      );
    }

    for (const page of lighthouseFigures) {
      const names = [`Lighthouse accessibility, ${page.label}`, `Lighthouse best practices, ${page.label}`];
      if (quick) {
        figures.push(
          notMeasured(names[0] as string, "score", "≥ 98", "skipped in --quick"),
          notMeasured(names[1] as string, "score", "≥ 95", "skipped in --quick"),
        );
        continue;
      }
      figures.push(
        ...(await attempt(names, () =>
          measureLighthouseQuality({
            label: page.label,
            url: `${origin}${page.path}`,
            chromePath: CHROMIUM_PATH,
            cookie: page.cookie,
            minAccessibility: 98,
            minBestPractices: 95,
            quick,
          }),
        )),
      );
    }

    // Quick mode writes the same steps in fewer, larger batches.
    const stepsPerBatch = quick ? 250 : 10;
    for (const scenario of [
      { label: "offline replay, 1 day", days: 1, stepsPerDay: 10_000, stepsPerBatch },
      { label: "offline replay, 7 days", days: 7, stepsPerDay: 10_000, stepsPerBatch },
    ]) {
      const names = ["step requests on reconnect", "outbox drained", "server total"].map(
        (what) => `${scenario.label}: ${what}`,
      );
      figures.push(
        ...(await attempt(names, async () => {
          const replayWalker = await signedInWalker(chromium, origin);
          return measureOfflineReplay(origin, replayWalker.cookie, scenario, quick);
        })),
      );
    }
    // Last: it stops the server, so the service worker's own fetches fail as they would offline.
    const running = server;
    figures.push(
      ...(await attempt(["offline repeat visit: dashboard shown"], () =>
        measureOfflineVisit(chromium, origin, walker, quick ? 1 : 5, quick, () => running.stop()),
      )),
    );
    return figures;
  } finally {
    await browser?.close();
    await server?.stop();
  }
};
