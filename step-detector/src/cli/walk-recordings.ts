// Node-only reader for the Oxford Step Counter recordings (see the walks folder's README).
// It needs node:fs, so it lives beside the CLI and the package's main entry (what the app imports)
// does not import it.
import { readdirSync, readFileSync, statSync } from "node:fs";
import { basename, join, relative, sep } from "node:path";
import type { MotionSample } from "../index.js";

const ACCELEROMETER_FILE = "accelerometer.csv";
const NS_PER_MS = 1e6;

/** Samples of one recording, in ms and m/s² (gravity included). Accepts a validation CSV, an
 * optimisation folder, or that folder's accelerometer.csv. */
export function readWalkRecording(path: string): MotionSample[] {
  if (statSync(path).isDirectory()) return readAccelerometerCsv(join(path, ACCELEROMETER_FILE));
  if (basename(path) === ACCELEROMETER_FILE) return readAccelerometerCsv(path);
  return readValidationCsv(path);
}

/** Recordings at or under `path`, sorted: validation CSVs and optimisation folders. */
export function findWalkRecordings(path: string): string[] {
  if (!statSync(path).isDirectory()) return [path];
  if (isOptimisationFolder(path)) return [path];
  const found: string[] = [];
  for (const entry of readdirSync(path, { withFileTypes: true })) {
    const child = join(path, entry.name);
    if (entry.isDirectory()) found.push(...findWalkRecordings(child));
    else if (entry.isFile() && isValidationCsv(child)) found.push(child);
  }
  return found.sort();
}

/** Ground-truth steps from `ground_truth.csv`, keyed by the path relative to the walks folder
 * without a trailing slash (`validation/x.csv`, `optimisation/Y`). */
export function readGroundTruth(walksDir: string): Map<string, number> {
  const [header, ...rows] = readLines(join(walksDir, "ground_truth.csv"));
  const columns = header?.split(",") ?? [];
  const pathColumn = columns.indexOf("path");
  const stepsColumn = columns.indexOf("gt_steps");
  if (pathColumn < 0 || stepsColumn < 0) throw new Error("ground_truth.csv lacks path or gt_steps");
  const truth = new Map<string, number>();
  for (const row of rows) {
    const cells = row.split(",");
    const path = cells[pathColumn]?.replace(/\/+$/, "");
    const steps = Number(cells[stepsColumn]);
    if (path && Number.isFinite(steps)) truth.set(path, steps);
  }
  return truth;
}

/** The key `readGroundTruth` uses for a recording found under `walksDir`. */
export function groundTruthKey(walksDir: string, recordingPath: string): string {
  return relative(walksDir, recordingPath).split(sep).join("/");
}

function isOptimisationFolder(path: string): boolean {
  try {
    return statSync(join(path, ACCELEROMETER_FILE)).isFile();
  } catch {
    return false;
  }
}

// Validation files have seven columns; other CSVs (ground_truth.csv, stepcounter.csv) do not.
function isValidationCsv(path: string): boolean {
  if (!path.endsWith(".csv") || basename(path) === ACCELEROMETER_FILE) return false;
  const firstLine = readFileSync(path, "utf8").slice(0, 400).split("\n", 1)[0] ?? "";
  const cells = firstLine.split(",");
  return cells.length === 7 && cells.every((cell) => cell.trim() !== "" && Number.isFinite(Number(cell)));
}

// timestamp_ns, ax, ay, az, algo_steps, gt_steps, hw_steps
function readValidationCsv(path: string): MotionSample[] {
  return parseRows(path, 7, 1);
}

// timestamp_ns, accuracy, ax, ay, az
function readAccelerometerCsv(path: string): MotionSample[] {
  return parseRows(path, 5, 2);
}

function parseRows(path: string, columnCount: number, firstAxis: number): MotionSample[] {
  const samples: MotionSample[] = [];
  for (const line of readLines(path)) {
    const cells = line.split(",");
    if (cells.length !== columnCount) throw new Error(`${path}: expected ${columnCount} columns: ${line}`);
    samples.push({
      t: Number(cells[0]) / NS_PER_MS,
      x: Number(cells[firstAxis]),
      y: Number(cells[firstAxis + 1]),
      z: Number(cells[firstAxis + 2]),
    });
  }
  return samples;
}

function readLines(path: string): string[] {
  return readFileSync(path, "utf8")
    .split(/\r?\n/)
    .filter((line) => line.trim() !== "");
}
