// Node-only reader for the Oxford Step Counter recordings (see the walks folder's README).
// It needs node:fs, so it lives beside the CLI and the package's main entry (what the app imports)
// does not import it.
import { existsSync, readdirSync, readFileSync, statSync } from "node:fs";
import { basename, join } from "node:path";
import type { MotionSample } from "../index.js";

const ACCELEROMETER_FILE = "accelerometer.csv";
const NS_PER_MS = 1e6;
// Heel sensors are read at about 10 Hz; see readHeelStrikes.
const MIN_RELEASED_SAMPLES = 2;

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

/** One walk of `ground_truth.csv`: where it is, the steps the file states, and what it was. */
export interface WalkEntry {
  /** Relative to the walks folder, without a trailing slash (`validation/x.csv`, `optimisation/Y`). */
  path: string;
  /** The file's ground truth: every 0→1 of either heel sensor. */
  steps: number;
  phone: string;
  /** Where the phone was, lower case, "inhand" read as "hand". */
  position: string;
  surface: string;
  /** The Oxford algorithm's live count and the phone's own step counter, where logged. */
  oxford: number | null;
  phoneCounter: number | null;
}

/** Every walk `ground_truth.csv` lists, in its order. */
export function readWalkList(walksDir: string): WalkEntry[] {
  const [header, ...rows] = readLines(join(walksDir, "ground_truth.csv"));
  const columns = header?.split(",") ?? [];
  const column = (name: string) => {
    const index = columns.indexOf(name);
    if (index < 0) throw new Error(`ground_truth.csv lacks ${name}`);
    return index;
  };
  const [path, steps, phone, position, surface, oxford, phoneCounter] = [
    "path",
    "gt_steps",
    "phone",
    "position",
    "surface",
    "oxford_algo_steps",
    "phone_hw_counter_steps",
  ].map(column) as [number, number, number, number, number, number, number];
  const count = (cell: string | undefined) => (cell ? Number(cell) : null);
  return rows.map((row) => {
    const cells = row.split(",");
    const place = (cells[position] ?? "").toLowerCase();
    return {
      path: (cells[path] ?? "").replace(/\/+$/, ""),
      steps: Number(cells[steps]),
      phone: cells[phone] ?? "",
      position: place === "inhand" ? "hand" : place,
      surface: cells[surface] ?? "",
      oxford: count(cells[oxford]),
      phoneCounter: count(cells[phoneCounter]),
    };
  });
}

/**
 * Heel strikes (ms) from an optimisation folder's `stepcounter.csv`, both feet, in time order; null
 * for a recording without one. A strike is a heel sensor going from released to pressed, as in the
 * file's ground truth, except that a sensor reading released for a single sample (about 90 ms)
 * between two presses is chatter, not a step: a foot in a walk is off the floor for a good part of
 * each stride, and where the file's count and this one differ, the sensor that chatters logs more
 * strikes than the other foot (which a walk, alternating feet, cannot do).
 */
export function readHeelStrikes(recordingPath: string): number[] | null {
  const file = join(recordingPath, "stepcounter.csv");
  if (!statSync(recordingPath).isDirectory() || !existsSync(file)) return null;
  const rows = readLines(file).map((line) => line.split(",").map(Number));
  const strikes: number[] = [];
  for (const foot of [1, 2]) {
    let released = 0;
    for (const row of rows) {
      if (row[foot] === 0) {
        released++;
        continue;
      }
      if (released >= MIN_RELEASED_SAMPLES) strikes.push((row[0] as number) / NS_PER_MS);
      released = 0;
    }
  }
  return strikes.sort((a, b) => a - b);
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
