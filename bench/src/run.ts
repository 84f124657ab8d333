import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { measureApi } from "./api/figures.js";
import { measureSpeedPieces } from "./api/pieces.js";
import { measureDetector } from "./detector.js";
import { measureDraw } from "./draw.js";
import type { BenchContext, Figure, FigureGroup } from "./figure.js";
import { measureHealthExport } from "./health-export/figures.js";
import { waitForQuietMachine } from "./quiet.js";
import { HEADER as header, markdownTable, tableRows } from "./table.js";
import { measureWeb } from "./web-figures.js";

const root = fileURLToPath(new URL("../..", import.meta.url));
const quick = process.argv.includes("--quick");
const context: BenchContext = { quick, root };

// Each group starts and stops what it needs; a group that fails is reported, the rest still run.
const allGroups: [string, FigureGroup][] = [
  ["step detector", measureDetector],
  ["API", measureApi],
  ["speed pieces", measureSpeedPieces],
  ["web and offline replay", measureWeb],
  ["Apple Health export", measureHealthExport],
  ["prize draw", measureDraw],
];
// `--only=API` (any part of a group's name) runs just that group, for profiling one thing.
const only = process.argv
  .find((arg) => arg.startsWith("--only="))
  ?.slice("--only=".length)
  .toLowerCase();
const groups = allGroups.filter(([name]) => only === undefined || name.toLowerCase().includes(only));

const figures: Figure[] = [];
for (const [index, [name, measure]] of groups.entries()) {
  // What the group before left behind (a database being dropped, servers exiting) must settle
  // first: the Lighthouse scores, above all, follow how busy the machine is.
  if (index > 0 && !quick) process.stdout.write(`· machine ${await waitForQuietMachine()}\n`);
  process.stdout.write(`· ${name}…\n`);
  const started = performance.now();
  try {
    figures.push(...(await measure(context)));
    process.stdout.write(`  (${name}: ${((performance.now() - started) / 1000).toFixed(0)} s)\n`);
  } catch (error) {
    figures.push({
      name,
      value: null,
      unit: "",
      budget: "",
      pass: false,
      note: `failed: ${error instanceof Error ? error.message : String(error)}`,
    });
  }
}

const rows = tableRows(figures, quick);
const widths = header.map((title, column) =>
  Math.max(title.length, ...rows.map((row) => (row[column] ?? "").length)),
);
const line = (cells: string[]) => cells.map((cell, column) => cell.padEnd(widths[column] ?? 0)).join("  ");
console.log(`\n${line(header)}\n${widths.map((width) => "-".repeat(width)).join("  ")}`);
for (const row of rows) console.log(line(row));

if (only === undefined) {
  const markdown = markdownTable(rows);
  const resultsDir = join(root, "bench", "results");
  mkdirSync(resultsDir, { recursive: true });
  const stamp = { at: new Date().toISOString(), quick, node: process.version, figures };
  const name = quick ? "quick" : "latest";
  writeFileSync(join(resultsDir, `${name}.json`), `${JSON.stringify(stamp, null, 2)}\n`);
  writeFileSync(join(resultsDir, `${name}.md`), `${markdown}\n`);
  console.log(`\nWritten to bench/results/${name}.{json,md}`);
} else {
  console.log("\n(one group only: bench/results left as they were)");
}

const failed = figures.filter((figure) => figure.pass === false);
// In --quick (CI) nothing is judged, but a group that crashed means the harness is broken.
if (failed.some((figure) => figure.note?.startsWith("failed:"))) process.exitCode = 1;
