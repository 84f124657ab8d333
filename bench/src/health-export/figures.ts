/**
 * Reading an Apple Health export on the phone: a generated export.zip (years of records, as the
 * Health app writes them) is picked on the app's /apple-health page in Chromium, read by the real
 * worker, and timed from the pick to the result on screen; the worker's JS heap is sampled meanwhile
 * through DevTools. Two sizes show whether the heap follows the file's size (it must not).
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { type AppServer, startAppServer } from "@charity-steps/e2e/support/app-server";
import { launchChromium, phoneContext } from "@charity-steps/e2e/support/chromium";
import { type GeneratedHealthExport, writeHealthExport } from "@charity-steps/e2e/support/health-export";
import { signUpNewWalker } from "@charity-steps/e2e/support/walker";
import type { Browser, BrowserContext } from "playwright-core";
import { bounded, type Figure, type FigureGroup, relative } from "../figure.js";
import { WorkerHeapSampler } from "./worker-heap.js";

const MB = 1_000_000;
const MIN_XML_MB_PER_S = 20;
const MAX_HEAP_MB = 100;
/**
 * The worker's memory (JS heap and ArrayBuffers) for an export 3.6 times larger: GC timing moves it,
 * the file's size must not (growing with it would be 3.6×).
 */
const MAX_MEMORY_GROWTH = 1.5;

interface ImportRun {
  seconds: number;
  peakUsedMb: number;
  peakTotalMb: number;
  peakBackingMb: number;
  peakMemoryMb: number;
  samples: number;
}

async function importOnce(
  context: BrowserContext,
  origin: string,
  file: GeneratedHealthExport,
): Promise<ImportRun> {
  const page = await context.newPage();
  try {
    await page.goto(`${origin}/apple-health`);
    const picker = page.getByLabel("Choose the Health export");
    await picker.waitFor({ state: "attached" });
    const sampler = new WorkerHeapSampler(await context.newCDPSession(page), "health-export.worker");
    await sampler.attach();
    sampler.start();
    const started = performance.now();
    await picker.setInputFiles(file.path);
    await page
      .getByText(`Imported ${file.expected.size} days of steps from Apple Health.`)
      .waitFor({ timeout: 300_000 });
    const seconds = (performance.now() - started) / 1000;
    await sampler.stop();
    if (sampler.samples === 0) throw new Error("the worker's heap was never sampled");
    return {
      seconds,
      peakUsedMb: sampler.peakUsed / MB,
      peakTotalMb: sampler.peakTotal / MB,
      peakBackingMb: sampler.peakBacking / MB,
      peakMemoryMb: sampler.peakMemory / MB,
      samples: sampler.samples,
    };
  } finally {
    await page.close();
  }
}

export const measureHealthExport: FigureGroup = async ({ quick }) => {
  // Quick mode keeps the harness working in CI with small files (the smallest export, 31 days and a
  // day, is about 12 MB); the full run reads over 200 MB.
  const sizes = quick ? [12 * MB, 36 * MB] : [60 * MB, 220 * MB];
  const runs = quick ? 1 : 3;
  const folder = mkdtempSync(join(tmpdir(), "charity-steps-bench-health-"));
  let server: AppServer | undefined;
  let browser: Browser | undefined;
  try {
    [server, browser] = await Promise.all([startAppServer(), launchChromium()]);
    const context = await phoneContext(browser);
    const page = await context.newPage();
    await signUpNewWalker(page, server.origin);
    await page.close();

    const measured: { file: GeneratedHealthExport; best: ImportRun; peak: Omit<ImportRun, "seconds"> }[] = [];
    for (const [index, xmlBytes] of sizes.entries()) {
      const file = await writeHealthExport({ path: join(folder, `export-${index}.zip`), xmlBytes });
      const all: ImportRun[] = [];
      for (let run = 0; run < runs; run++) all.push(await importOnce(context, server.origin, file));
      const best = all.reduce((fastest, run) => (run.seconds < fastest.seconds ? run : fastest));
      // Memory is the largest over every run: a run that happened to collect early hides nothing.
      const most = (key: keyof Omit<ImportRun, "seconds">) => Math.max(...all.map((run) => run[key]));
      const peak = {
        peakUsedMb: most("peakUsedMb"),
        peakTotalMb: most("peakTotalMb"),
        peakBackingMb: most("peakBackingMb"),
        peakMemoryMb: most("peakMemoryMb"),
        samples: all.reduce((sum, run) => sum + run.samples, 0),
      };
      measured.push({ file, best, peak });
      rmSync(file.path, { force: true });
    }

    const figures: Figure[] = [];
    const large = measured.at(-1);
    const small = measured[0];
    if (large === undefined || small === undefined) return figures;
    const label = (file: GeneratedHealthExport) =>
      `${Math.round(file.xmlBytes / MB)} MB export.xml, ${(file.zipBytes / MB).toFixed(1)} MB zip`;
    const xmlRate = large.file.xmlBytes / MB / large.best.seconds;
    figures.push(
      bounded(
        {
          name: `Health export read in the worker, XML (${label(large.file)})`,
          value: xmlRate,
          unit: "MB/s",
          limit: MIN_XML_MB_PER_S,
          atLeast: true,
          note: `${large.best.seconds.toFixed(2)} s from the pick to the result, best of ${runs}`,
        },
        quick,
      ),
      {
        name: "Health export read in the worker, zip bytes",
        value: large.file.zipBytes / MB / large.best.seconds,
        unit: "MB/s",
        budget: "(follows the XML rate)",
        pass: null,
      },
    );
    for (const { file, peak } of measured) {
      figures.push(
        bounded(
          {
            name: `Health export worker JS heap, peak (${label(file)})`,
            value: peak.peakTotalMb,
            unit: "MB",
            limit: MAX_HEAP_MB,
            note: `V8 heap size; used at most ${peak.peakUsedMb.toFixed(1)} MB; ${peak.samples} samples`,
          },
          quick,
        ),
        bounded(
          {
            name: `Health export worker ArrayBuffers, peak (${label(file)})`,
            value: peak.peakBackingMb,
            unit: "MB",
            limit: MAX_HEAP_MB,
            note: "the file's chunks and the inflated XML, most of it garbage not yet collected",
          },
          quick,
        ),
      );
    }
    const sizeName = (file: GeneratedHealthExport) => `${Math.round(file.xmlBytes / MB)} MB`;
    figures.push(
      relative(
        {
          name: `Health export worker memory (heap + ArrayBuffers), ${sizeName(large.file)} vs ${sizeName(small.file)}`,
          value: large.peak.peakMemoryMb,
          unit: "MB",
          reference: { name: `${sizeName(small.file)} export`, value: small.peak.peakMemoryMb, unit: "MB" },
          maxRatio: MAX_MEMORY_GROWTH,
          budget: `flat: ≤ ${MAX_MEMORY_GROWTH}× for ${(large.file.xmlBytes / small.file.xmlBytes).toFixed(1)}× the file`,
        },
        quick,
      ),
    );
    return figures;
  } finally {
    await browser?.close();
    await server?.stop();
    rmSync(folder, { recursive: true, force: true });
  }
};
