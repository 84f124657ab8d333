import { gzipSync } from "node:zlib";
import type { Browser, Page, Response } from "playwright-core";
import { bounded, type Figure } from "../figure.js";
import { GOAL_TEXT, type SignedInWalker } from "./shared.js";

export interface ScriptLoad {
  url: string;
  /** Bytes as stored (uncompressed). */
  raw: number;
  /** gzip -9 of the body, with node:zlib. */
  gzip: number;
  /** What went over the wire, when the server compressed it (else null). */
  encoding: string | null;
  dexie: boolean;
  tracking: boolean;
}

// Dexie's bundle always carries its error names; the tracking store its Web Locks name.
const DEXIE_MARKERS = ["DatabaseClosedError", "MissingAPIError"];
const TRACKING_MARKERS = ["charity-steps-motion"];

/** Records every script the page loads (not the service worker's precache fetches). */
function recordScripts(page: Page): () => Promise<ScriptLoad[]> {
  const pending: Promise<ScriptLoad | null>[] = [];
  page.on("response", (response: Response) => {
    if (response.request().resourceType() !== "script") return;
    pending.push(
      (async () => {
        const body = await response.body().catch(() => null);
        if (!body) return null;
        const text = body.toString("utf8");
        const name = new URL(response.url()).pathname;
        return {
          url: name,
          raw: body.length,
          gzip: gzipSync(body, { level: 9 }).length,
          encoding: (await response.headerValue("content-encoding")) ?? null,
          dexie: /dexie/i.test(name) || DEXIE_MARKERS.some((marker) => text.includes(marker)),
          tracking:
            /tracking-store|motion-tracker/i.test(name) || TRACKING_MARKERS.some((m) => text.includes(m)),
        };
      })(),
    );
  });
  return async () => (await Promise.all(pending)).filter((load): load is ScriptLoad => load !== null);
}

const kb = (bytes: number) => Math.round((bytes / 1024) * 10) / 10;
const total = (loads: ScriptLoad[]) => loads.reduce((sum, load) => sum + load.gzip, 0);
const largest = (loads: ScriptLoad[]) =>
  [...loads]
    .sort((a, b) => b.gzip - a.gzip)
    .slice(0, 4)
    .map((load) => `${load.url.replace("/assets/", "")} ${kb(load.gzip)}`)
    .join(", ");

/**
 * Loads `path` in a fresh phone context (no HTTP cache, service workers blocked, so every script
 * comes from the network) and returns the scripts it loaded.
 */
async function scriptsOf(
  browser: Browser,
  url: string,
  walker: SignedInWalker | null,
  ready: (page: Page) => Promise<void>,
): Promise<ScriptLoad[]> {
  const context = await browser.newContext({
    viewport: { width: 390, height: 844 },
    deviceScaleFactor: 2,
    isMobile: true,
    hasTouch: true,
    serviceWorkers: "block",
  });
  try {
    if (walker) await context.addCookies(walker.cookies);
    const page = await context.newPage();
    const cdp = await context.newCDPSession(page);
    await cdp.send("Network.enable");
    await cdp.send("Network.setCacheDisabled", { cacheDisabled: true });
    const scripts = recordScripts(page);
    await page.goto(url, { waitUntil: "networkidle" });
    await ready(page);
    // Anything prefetched after the first paint (idle imports) counts too.
    await page.waitForLoadState("networkidle");
    await page.waitForTimeout(500);
    return await scripts();
  } finally {
    await context.close();
  }
}

export async function measureJsWeight(
  browser: Browser,
  origin: string,
  walker: SignedInWalker,
  quick: boolean,
): Promise<Figure[]> {
  const landing = await scriptsOf(browser, `${origin}/`, null, (page) =>
    page.getByRole("link", { name: "Get Started", exact: true }).waitFor(),
  );
  const dashboard = await scriptsOf(browser, `${origin}/dashboard`, walker, (page) =>
    page.getByText(GOAL_TEXT).waitFor(),
  );
  const compressed = [...landing, ...dashboard].some((load) => load.encoding);
  const wire = compressed ? "server compresses; " : "server sends scripts uncompressed; ";
  const heavy = landing.filter((load) => load.dexie || load.tracking);
  return [
    bounded(
      {
        name: "landing page JS (gzip -9)",
        value: kb(total(landing)),
        unit: "KB",
        limit: 110,
        note: `${wire}${landing.length} scripts, largest: ${largest(landing)}`,
      },
      quick,
    ),
    bounded(
      {
        name: "landing page: Dexie/tracking chunks",
        value: heavy.length,
        unit: "chunks",
        limit: 0,
        budget: "none",
        note: heavy.length
          ? heavy
              .map((load) => `${load.url.replace("/assets/", "")} (${load.dexie ? "Dexie" : "tracking"})`)
              .join(", ")
          : "neither Dexie nor the tracking store is loaded",
      },
      quick,
    ),
    bounded(
      {
        name: "dashboard JS, signed in (gzip -9)",
        value: kb(total(dashboard)),
        unit: "KB",
        limit: 170,
        note: `${dashboard.length} scripts, largest: ${largest(dashboard)}`,
      },
      quick,
    ),
  ];
}
