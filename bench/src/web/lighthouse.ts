import { createRequire } from "node:module";
import { pathToFileURL } from "node:url";
import { CHROMIUM_ARGS } from "@charity-steps/e2e/support/chromium";
import lighthouse from "lighthouse";
import { bounded, type Figure } from "../figure.js";
import { median } from "./shared.js";

interface LaunchedChrome {
  port: number;
  kill(): void | Promise<void>;
}
interface ChromeLauncher {
  launch(options: { chromePath: string; chromeFlags: string[]; logLevel?: string }): Promise<LaunchedChrome>;
}

/** chrome-launcher ships with lighthouse (not a dependency of bench), so it is found from there. */
async function chromeLauncher(): Promise<ChromeLauncher> {
  const fromLighthouse = createRequire(createRequire(import.meta.url).resolve("lighthouse"));
  return (await import(pathToFileURL(fromLighthouse.resolve("chrome-launcher")).href)) as ChromeLauncher;
}

export interface LighthouseRun {
  performance: number;
  cls: number;
  lcpMs: number;
  tbtMs: number;
  /** Lighthouse's measure of this machine's speed (its CPU throttling assumes about 1,000+). */
  benchmarkIndex: number;
  /** What shifted, from the layout-shifts audit. */
  shifted: string[];
  /** Estimated savings from compressing text responses, in ms. */
  compressionSavingsMs: number;
}

/** One Lighthouse 12 run, default (mobile, simulated throttling) config, performance only. */
async function runOnce(url: string, chromePath: string, cookie: string | null): Promise<LighthouseRun> {
  const launcher = await chromeLauncher();
  const chrome = await launcher.launch({ chromePath, chromeFlags: [...CHROMIUM_ARGS, "--headless=new"] });
  try {
    const result = await lighthouse(url, {
      port: chrome.port,
      output: "json",
      logLevel: "error",
      onlyCategories: ["performance"],
      ...(cookie ? { extraHeaders: { Cookie: cookie } } : {}),
    });
    if (!result) throw new Error("lighthouse returned no result");
    const { lhr } = result;
    if (lhr.runtimeError) throw new Error(`lighthouse: ${lhr.runtimeError.code} ${lhr.runtimeError.message}`);
    const score = lhr.categories.performance?.score;
    if (score === null || score === undefined) throw new Error("lighthouse gave no performance score");
    const numeric = (id: string) => lhr.audits[id]?.numericValue ?? Number.NaN;
    return {
      performance: Math.round(score * 100),
      cls: numeric("cumulative-layout-shift"),
      lcpMs: numeric("largest-contentful-paint"),
      tbtMs: numeric("total-blocking-time"),
      benchmarkIndex: Math.round(lhr.environment.benchmarkIndex),
      shifted: (
        (
          lhr.audits["layout-shifts"]?.details as {
            items?: { node?: { nodeLabel?: string; selector?: string } }[];
          }
        )?.items ?? []
      )
        .map((item) => item.node?.selector ?? item.node?.nodeLabel ?? "?")
        .slice(0, 3),
      compressionSavingsMs: numeric("uses-text-compression"),
    };
  } finally {
    await chrome.kill();
  }
}

/** Median of `runs` Lighthouse runs (scores wobble on a shared machine), as two figures. */
/**
 * Lighthouse now and then fails to record a page load's trace (NO_NAVSTART: "Please run Lighthouse
 * again"); such a run is run again, twice at most. Any other failure is reported at once.
 */
async function runWithRetries(
  url: string,
  chromePath: string,
  cookie: string | null,
): Promise<LighthouseRun> {
  for (let attempt = 1; ; attempt += 1) {
    try {
      return await runOnce(url, chromePath, cookie);
    } catch (error) {
      const flake = error instanceof Error && error.message.includes("NO_NAVSTART");
      if (!flake || attempt >= 3) throw error;
    }
  }
}

export async function measureLighthouse(options: {
  label: string;
  url: string;
  chromePath: string;
  cookie: string | null;
  runs: number;
  minPerformance: number;
  quick: boolean;
}): Promise<Figure[]> {
  const results: LighthouseRun[] = [];
  for (let run = 0; run < options.runs; run += 1) {
    results.push(await runWithRetries(options.url, options.chromePath, options.cookie));
  }
  const scores = results.map((result) => result.performance);
  const cls = median(results.map((result) => result.cls));
  const lcp = median(results.map((result) => result.lcpMs));
  const tbt = median(results.map((result) => result.tbtMs));
  return [
    bounded(
      {
        name: `Lighthouse performance, ${options.label}`,
        value: median(scores),
        unit: "score",
        limit: options.minPerformance,
        atLeast: true,
        note:
          `median of ${options.runs} (${scores.join(", ")}); LCP ${Math.round(lcp)} ms, TBT ${Math.round(tbt)} ms; ` +
          `text compression would save ~${Math.round(median(results.map((r) => r.compressionSavingsMs)))} ms; ` +
          `benchmarkIndex ${results.map((r) => r.benchmarkIndex).join("/")}`,
      },
      options.quick,
    ),
    bounded(
      {
        name: `Lighthouse CLS, ${options.label}`,
        value: Math.round(cls * 1000) / 1000,
        unit: "",
        limit: 0.05,
        budget: "≤ 0.05",
        note: `runs ${results.map((r) => Math.round(r.cls * 1000) / 1000).join(", ")}; shifted: ${
          [...new Set(results.flatMap((r) => r.shifted))].join(", ") || "nothing reported"
        }`,
      },
      options.quick,
    ),
  ];
}
