import { existsSync, readFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { countSteps, createStepDetector } from "@charity-steps/step-detector";
import {
  findWalkRecordings,
  groundTruthKey,
  readGroundTruth,
  readWalkRecording,
} from "@charity-steps/step-detector/walk-recordings";
import { type BenchContext, bounded, type Figure, notMeasured } from "./figure.js";

const DAY_AT_60_HZ = 24 * 60 * 60 * 60;

/**
 * A day of walking-like 60 Hz samples, made once: 1.8 steps a second with some noise. Kept in typed
 * arrays, not as millions of objects: a heap of 5 million live objects had V8's garbage collector
 * marking it, on threads that `process.cpuUsage` counts, during the measured loop (1.3–2.2 s in some
 * runs, 0.4 s in others). A phone gets each sample as a new, short-lived object, as the loop does.
 */
function syntheticDay(samples: number) {
  let seed = 7;
  const noise = () => {
    seed = (seed * 1_103_515_245 + 12_345) % 2_147_483_648;
    return seed / 2_147_483_648 - 0.5;
  };
  const day = { x: new Float64Array(samples), y: new Float64Array(samples), z: new Float64Array(samples) };
  for (let i = 0; i < samples; i++) {
    const t = (i * 1000) / 60;
    day.x[i] = 0.3 + noise();
    day.y[i] = 0.2 + noise();
    day.z[i] = 9.81 + 3 * Math.sin(2 * Math.PI * 1.8 * (t / 1000)) + noise();
  }
  return day;
}

interface Baselines {
  oxford: number | null;
  phone: number | null;
}

/** The reference counts the recordings carry (the Oxford algorithm live, the phone's own counter). */
function readBaselines(walksDir: string): Map<string, Baselines> {
  const lines = readFileSync(join(walksDir, "ground_truth.csv"), "utf8").trim().split("\n");
  const header = (lines.shift() ?? "").split(",");
  const column = (name: string) => header.indexOf(name);
  const baselines = new Map<string, Baselines>();
  for (const line of lines) {
    const cells = line.split(",");
    const number = (name: string) => {
      const value = cells[column(name)];
      return value ? Number(value) : null;
    };
    baselines.set(cells[column("path")] ?? "", {
      oxford: number("oxford_algo_steps"),
      phone: number("phone_hw_counter_steps"),
    });
  }
  return baselines;
}

const median = (values: number[]) => {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2
    ? (sorted[middle] as number)
    : ((sorted[middle - 1] as number) + (sorted[middle] as number)) / 2;
};

/** The detector's cost on a day of samples and its error on the recorded walks. */
export async function measureDetector({ quick }: BenchContext): Promise<Figure[]> {
  const figures: Figure[] = [];

  const samples = quick ? DAY_AT_60_HZ / 24 : DAY_AT_60_HZ;
  const detector = createStepDetector();
  const day = syntheticDay(samples);
  const before = process.cpuUsage();
  for (let i = 0; i < samples; i++) {
    detector.push({ t: (i * 1000) / 60, x: day.x[i] ?? 0, y: day.y[i] ?? 0, z: day.z[i] ?? 0 });
  }
  const cpu = process.cpuUsage(before);
  const cpuMs = (cpu.user + cpu.system) / 1000;
  figures.push(
    bounded(
      {
        name: quick ? "detector CPU, 1 h of 60 Hz" : "detector CPU, 24 h of 60 Hz",
        value: Math.round(cpuMs),
        unit: "ms",
        limit: quick ? 1000 / 24 : 1000,
        budget: quick ? "≤ 42 ms (1 s a day)" : "≤ 1000 ms",
        note: `${samples.toLocaleString("en-GB")} samples, ${detector.total.toLocaleString("en-GB")} steps`,
      },
      quick,
    ),
  );

  // The recorded walks are not in the repository; WALKS_DIR names their folder.
  const walksDir = process.env.WALKS_DIR ? resolve(process.env.WALKS_DIR) : undefined;
  if (walksDir === undefined || !existsSync(join(walksDir, "ground_truth.csv"))) {
    figures.push(
      notMeasured(
        "detector error on recorded walks",
        "%",
        "median ≤ 2%, worst ≤ 5%",
        walksDir === undefined ? "WALKS_DIR is not set" : `no walks at ${walksDir}`,
      ),
    );
    return figures;
  }
  const truth = readGroundTruth(walksDir);
  const baselines = readBaselines(walksDir);
  const rows: { path: string; error: number; oxford: number | null; phone: number | null }[] = [];
  for (const path of findWalkRecordings(walksDir)) {
    const key = groundTruthKey(walksDir, path);
    const expected = truth.get(key);
    if (!expected) continue;
    const counted = countSteps(readWalkRecording(path));
    const base = baselines.get(key) ?? baselines.get(`${key}/`) ?? { oxford: null, phone: null };
    const error = (count: number | null) => (count === null ? null : ((count - expected) / expected) * 100);
    rows.push({
      path: key,
      error: error(counted) as number,
      oxford: error(base.oxford),
      phone: error(base.phone),
    });
  }
  const percent = (value: number | null) =>
    value === null ? "–" : `${value >= 0 ? "+" : ""}${value.toFixed(1)}%`;
  console.log("  walk                                                error   Oxford live   phone counter");
  for (const row of rows) {
    console.log(
      `  ${row.path.padEnd(50)} ${percent(row.error).padStart(6)}   ${percent(row.oxford).padStart(11)}   ${percent(row.phone).padStart(13)}`,
    );
  }
  const absolute = (values: (number | null)[]) => values.filter((v): v is number => v !== null).map(Math.abs);
  const ours = absolute(rows.map((row) => row.error));
  const oxford = absolute(rows.map((row) => row.oxford));
  const phone = absolute(rows.map((row) => row.phone));
  const versus = `Oxford live median ${median(oxford).toFixed(1)}% (worst ${Math.max(...oxford).toFixed(1)}%), phone counter median ${phone.length ? median(phone).toFixed(1) : "–"}% on ${phone.length} walks`;
  figures.push(
    bounded(
      {
        name: `detector median |error|, ${rows.length} walks`,
        value: Number(median(ours).toFixed(2)),
        unit: "%",
        limit: 2,
        note: versus,
      },
      quick,
    ),
    bounded(
      { name: "detector worst |error|", value: Number(Math.max(...ours).toFixed(2)), unit: "%", limit: 5 },
      quick,
    ),
  );
  return figures;
}
