import { mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { createRequire } from "node:module";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { CHROMIUM_ARGS } from "@charity-steps/e2e/support/chromium";
import lighthouse, { type Flags } from "lighthouse";
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

/**
 * The phone the performance budgets stand for, by Lighthouse's benchmark index: the budgets were set
 * and met on this machine when it measured 2,600–2,800 under Lighthouse's default 4× CPU slowdown,
 * that is a phone of about 675 (Lighthouse's "mid-tier mobile" runs from 125 to 800). This machine's
 * speed has since been read from 1,000 to 2,700, and a fixed 4× then simulates a phone up to three
 * times slower on a slow day. So the slowdown is worked out from the indexes Lighthouse read in the
 * page loads it scores, the calibration its throttling guide describes for a host unlike the desktop
 * its default assumes.
 */
export const BUDGET_PHONE_BENCHMARK_INDEX = 675;
/** Lighthouse's own slowdown, whatever the host: each run is scored with it too, for reference. */
const DEFAULT_CPU_SLOWDOWN = 4;

/** The CPU slowdown that makes this machine the budgets' phone (never under 1: no speeding up). */
export function cpuSlowdownFor(hostIndex: number): number {
  return Math.max(1, Math.round((hostIndex / BUDGET_PHONE_BENCHMARK_INDEX) * 10) / 10);
}

export interface LighthouseRun {
  performance: number;
  cls: number;
  lcpMs: number;
  tbtMs: number;
  /** Lighthouse's measure of this machine's speed, read at the start of the page load. */
  benchmarkIndex: number;
  /** The score at Lighthouse's default 4× slowdown. */
  performanceAtDefault: number;
  /** What shifted, from the layout-shifts audit. */
  shifted: string[];
  /** Estimated savings from compressing text responses, in ms. */
  compressionSavingsMs: number;
}

/** One page load's record, as Lighthouse's gather mode wrote it, to be scored afterwards. */
interface Gathered {
  url: string;
  flags: Flags;
  record: string;
  benchmarkIndex: number;
}

/**
 * Loads the page once in a fresh Chromium, in Lighthouse 12's gather mode (mobile, simulated
 * throttling, performance only). Simulated throttling loads the page at full speed and applies the
 * slowdown afterwards, in its model of the load, so one load can be scored at any slowdown.
 */
async function gather(url: string, chromePath: string, cookie: string | null): Promise<Gathered> {
  const launcher = await chromeLauncher();
  const chrome = await launcher.launch({ chromePath, chromeFlags: [...CHROMIUM_ARGS, "--headless=new"] });
  const record = await mkdtemp(join(tmpdir(), "lighthouse-"));
  try {
    const flags: Flags = {
      output: "json",
      logLevel: "error",
      onlyCategories: ["performance"],
      ...(cookie ? { extraHeaders: { Cookie: cookie } } : {}),
    };
    await lighthouse(url, { ...flags, port: chrome.port, gatherMode: record });
    const artifacts = JSON.parse(await readFile(join(record, "artifacts.json"), "utf8")) as {
      BenchmarkIndex: number;
    };
    return { url, flags, record, benchmarkIndex: artifacts.BenchmarkIndex };
  } catch (error) {
    await rm(record, { recursive: true, force: true });
    throw error;
  } finally {
    await chrome.kill();
  }
}

/**
 * Scores a gathered load (audit mode) at the given slowdown and at the default. Lighthouse refuses
 * to score a record with other settings than it was made with, so the slowdown is written into the
 * record's settings first.
 */
async function score(gathered: Gathered, cpuSlowdown: number): Promise<LighthouseRun> {
  const artifactsFile = join(gathered.record, "artifacts.json");
  const artifacts = JSON.parse(await readFile(artifactsFile, "utf8")) as {
    settings: { throttling: { cpuSlowdownMultiplier: number } };
  };
  const scoreAt = async (cpuSlowdownMultiplier: number) => {
    artifacts.settings.throttling.cpuSlowdownMultiplier = cpuSlowdownMultiplier;
    await writeFile(artifactsFile, JSON.stringify(artifacts));
    const result = await lighthouse(gathered.url, {
      ...gathered.flags,
      auditMode: gathered.record,
      throttling: { cpuSlowdownMultiplier },
    });
    if (!result) throw new Error("lighthouse returned no result");
    const { lhr } = result;
    if (lhr.runtimeError) throw new Error(`lighthouse: ${lhr.runtimeError.code} ${lhr.runtimeError.message}`);
    const performance = lhr.categories.performance?.score;
    if (performance === null || performance === undefined)
      throw new Error("lighthouse gave no performance score");
    return { lhr, performance: Math.round(performance * 100) };
  };
  const atDefault = await scoreAt(DEFAULT_CPU_SLOWDOWN);
  const { lhr, performance } = await scoreAt(cpuSlowdown);
  const numeric = (id: string) => lhr.audits[id]?.numericValue ?? Number.NaN;
  return {
    performance,
    cls: numeric("cumulative-layout-shift"),
    lcpMs: numeric("largest-contentful-paint"),
    tbtMs: numeric("total-blocking-time"),
    benchmarkIndex: Math.round(gathered.benchmarkIndex),
    performanceAtDefault: atDefault.performance,
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
}

/**
 * Lighthouse now and then fails to record a page load's trace (NO_NAVSTART: "Please run Lighthouse
 * again"); such a load is made again, twice at most. Any other failure is reported at once.
 */
async function gatherWithRetries(url: string, chromePath: string, cookie: string | null): Promise<Gathered> {
  for (let attempt = 1; ; attempt += 1) {
    try {
      return await gather(url, chromePath, cookie);
    } catch (error) {
      const flake = error instanceof Error && error.message.includes("NO_NAVSTART");
      if (!flake || attempt >= 3) throw error;
    }
  }
}

/**
 * Median of `runs` Lighthouse runs (scores wobble on a shared machine), as two figures.
 *
 * Every run is scored at one slowdown, from the median of the runs' benchmark indexes. Lighthouse
 * reads the index once, in the page just opened, over half a second of string and array work, and
 * on this machine that reading says more about how warmed up the page's JavaScript engine is than
 * about the machine: eight readings in a row in one page rose from about 1,500 to 3,000, and the
 * same build's loads read 900 to 2,500 while scoring alike at a fixed 4×. Scored each at its own
 * reading, they spread 20 points apart.
 */
export async function measureLighthouse(options: {
  label: string;
  url: string;
  chromePath: string;
  cookie: string | null;
  runs: number;
  minPerformance: number;
  quick: boolean;
}): Promise<Figure[]> {
  const loads: Gathered[] = [];
  const results: LighthouseRun[] = [];
  let cpuSlowdown = DEFAULT_CPU_SLOWDOWN;
  try {
    for (let run = 0; run < options.runs; run += 1) {
      loads.push(await gatherWithRetries(options.url, options.chromePath, options.cookie));
    }
    cpuSlowdown = cpuSlowdownFor(median(loads.map((load) => load.benchmarkIndex)));
    for (const load of loads) results.push(await score(load, cpuSlowdown));
  } finally {
    await Promise.all(loads.map((load) => rm(load.record, { recursive: true, force: true })));
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
          `benchmarkIndex ${results.map((r) => r.benchmarkIndex).join("/")}, so CPU ${cpuSlowdown}× ` +
          `for a phone of ${BUDGET_PHONE_BENCHMARK_INDEX}; at the default 4×: ${results.map((r) => r.performanceAtDefault).join(", ")}`,
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

/** Lighthouse's accessibility and best-practices scores of one page, and the audits that cost points. */
interface QualityRun {
  accessibility: number;
  bestPractices: number;
  accessibilityMisses: string[];
  bestPracticesMisses: string[];
}

/**
 * One run for the two scores that do not wobble with the machine's speed (they check the page, not
 * its timing), kept apart from the performance runs so those measure a page load and nothing else.
 */
async function runQualityOnce(url: string, chromePath: string, cookie: string | null): Promise<QualityRun> {
  const launcher = await chromeLauncher();
  const chrome = await launcher.launch({ chromePath, chromeFlags: [...CHROMIUM_ARGS, "--headless=new"] });
  try {
    const result = await lighthouse(url, {
      port: chrome.port,
      output: "json",
      logLevel: "error",
      onlyCategories: ["accessibility", "best-practices"],
      ...(cookie ? { extraHeaders: { Cookie: cookie } } : {}),
    });
    if (!result) throw new Error("lighthouse returned no result");
    const { lhr } = result;
    if (lhr.runtimeError) throw new Error(`lighthouse: ${lhr.runtimeError.code} ${lhr.runtimeError.message}`);
    const score = (id: string) => {
      const value = lhr.categories[id]?.score;
      if (value === null || value === undefined) throw new Error(`lighthouse gave no ${id} score`);
      return Math.round(value * 100);
    };
    // The audits that weigh in the category and did not pass, by id; a console error says what it was
    // (a signed-out visitor's 401 from "who is signed in?" is one Chromium always logs).
    const misses = (id: string) =>
      (lhr.categories[id]?.auditRefs ?? [])
        .filter((ref) => ref.weight > 0 && (lhr.audits[ref.id]?.score ?? 1) < 1)
        .map((ref) => {
          const items = (lhr.audits[ref.id]?.details as { items?: { description?: string; url?: string }[] })
            ?.items;
          const first = ref.id === "errors-in-console" ? items?.[0] : undefined;
          return first
            ? `${ref.id} (${first.description ?? ""} ${first.url ?? ""})`.replace(" )", ")")
            : ref.id;
        });
    return {
      accessibility: score("accessibility"),
      bestPractices: score("best-practices"),
      accessibilityMisses: misses("accessibility"),
      bestPracticesMisses: misses("best-practices"),
    };
  } finally {
    await chrome.kill();
  }
}

/** Lighthouse accessibility (≥ `minAccessibility`) and best practices (≥ `minBestPractices`) of a page. */
export async function measureLighthouseQuality(options: {
  label: string;
  url: string;
  chromePath: string;
  cookie: string | null;
  minAccessibility: number;
  minBestPractices: number;
  quick: boolean;
}): Promise<Figure[]> {
  let run: QualityRun | undefined;
  for (let attempt = 1; !run; attempt += 1) {
    try {
      run = await runQualityOnce(options.url, options.chromePath, options.cookie);
    } catch (error) {
      const flake = error instanceof Error && error.message.includes("NO_NAVSTART");
      if (!flake || attempt >= 3) throw error;
    }
  }
  const missed = (audits: string[]) =>
    audits.length > 0 ? `missed: ${audits.join(", ")}` : "every audit passed";
  return [
    bounded(
      {
        name: `Lighthouse accessibility, ${options.label}`,
        value: run.accessibility,
        unit: "score",
        limit: options.minAccessibility,
        atLeast: true,
        note: missed(run.accessibilityMisses),
      },
      options.quick,
    ),
    bounded(
      {
        name: `Lighthouse best practices, ${options.label}`,
        value: run.bestPractices,
        unit: "score",
        limit: options.minBestPractices,
        atLeast: true,
        note: missed(run.bestPracticesMisses),
      },
      options.quick,
    ),
  ];
}
