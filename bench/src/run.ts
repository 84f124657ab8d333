import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { measureApi } from "./api-figures.js";
import { measureDetector } from "./detector.js";
import type { BenchContext, Figure, FigureGroup } from "./figure.js";
import { measureWeb } from "./web-figures.js";

const root = fileURLToPath(new URL("../..", import.meta.url));
const quick = process.argv.includes("--quick");
const context: BenchContext = { quick, root };

// Each group starts and stops what it needs; a group that fails is reported, the rest still run.
const groups: [string, FigureGroup][] = [
  ["step detector", measureDetector],
  ["API", measureApi],
  ["web and offline replay", measureWeb],
];

const figures: Figure[] = [];
for (const [name, measure] of groups) {
  process.stdout.write(`· ${name}…\n`);
  try {
    figures.push(...(await measure(context)));
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

const format = (value: number | null | undefined, unit = "") =>
  value === null || value === undefined
    ? "–"
    : `${Number.isInteger(value) ? value : value.toPrecision(3)}${unit ? ` ${unit}` : ""}`;
const verdict = (pass: boolean | null) =>
  pass === null ? (quick ? "(quick)" : "–") : pass ? "pass" : "FAIL";
const rows = figures.map((figure) => [
  figure.name,
  format(figure.value, figure.unit),
  figure.reference
    ? `${figure.reference.name}: ${format(figure.reference.value, figure.reference.unit)}`
    : "",
  figure.ratio === undefined ? "" : `${(figure.ratio * 100).toFixed(0)}%`,
  figure.budget,
  verdict(figure.pass) + (figure.note ? ` (${figure.note})` : ""),
]);
const header = ["figure", "value", "reference", "ratio", "budget", "result"];
const widths = header.map((title, column) =>
  Math.max(title.length, ...rows.map((row) => (row[column] ?? "").length)),
);
const line = (cells: string[]) => cells.map((cell, column) => cell.padEnd(widths[column] ?? 0)).join("  ");
console.log(`\n${line(header)}\n${widths.map((width) => "-".repeat(width)).join("  ")}`);
for (const row of rows) console.log(line(row));

const markdown = [
  `| ${header.join(" | ")} |`,
  `| ${header.map(() => "---").join(" | ")} |`,
  ...rows.map((row) => `| ${row.map((cell) => cell.replaceAll("|", "\\|")).join(" | ")} |`),
].join("\n");
const resultsDir = join(root, "bench", "results");
mkdirSync(resultsDir, { recursive: true });
const stamp = { at: new Date().toISOString(), quick, node: process.version, figures };
writeFileSync(join(resultsDir, quick ? "quick.json" : "latest.json"), `${JSON.stringify(stamp, null, 2)}\n`);
writeFileSync(join(resultsDir, quick ? "quick.md" : "latest.md"), `${markdown}\n`);
console.log(`\nWritten to bench/results/${quick ? "quick" : "latest"}.{json,md}`);

const failed = figures.filter((figure) => figure.pass === false);
// In --quick (CI) nothing is judged, but a group that crashed means the harness is broken.
if (failed.some((figure) => figure.note?.startsWith("failed:"))) process.exitCode = 1;
