import { existsSync } from "node:fs";
import { join, resolve } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { readGroundTruth, readWalkRecording } from "../src/cli/walk-recordings.js";
import { countSteps, type MotionSample } from "../src/index.js";

// Real walks with a foot-pressure ground truth (Oxford Step Counter data set, CC BY 4.0). They are
// not in the repository: WALKS_DIR names their folder, and without it nothing here is measured.
const walksDir = process.env.WALKS_DIR ? resolve(process.env.WALKS_DIR) : undefined;
const found = walksDir !== undefined && existsSync(join(walksDir, "ground_truth.csv"));

// The ground truth itself is good to about ±1–2%; on these walks the detector's worst file is
// 3.4% off and the total 0.4%, so these bounds leave room for that noise and nothing more.
const MAX_ERROR_PER_WALK = 0.05;
const MAX_TOTAL_ERROR = 0.02;
// Phones deliver devicemotion at about 60 Hz, less than these recordings' 100–215 Hz.
const PHONE_RATE_HZ = 60;

interface Result {
  path: string;
  truth: number;
  counted: number;
  at60Hz: number;
}

if (walksDir === undefined) {
  console.warn("WALKS_DIR is not set: the step detector's accuracy on recorded walks was NOT measured");
}

describe("step detector on recorded walks", () => {
  // Without WALKS_DIR this shows as skipped, under a name that says why.
  it.runIf(walksDir !== undefined)(
    walksDir === undefined
      ? "NOT RUN: set WALKS_DIR to the walk recordings' folder to measure accuracy"
      : `finds the walk recordings in ${walksDir}`,
    () => {
      // A folder named on purpose must be there.
      expect(found, `no ground_truth.csv in ${walksDir}`).toBe(true);
    },
  );

  describe.runIf(found)(`recordings in ${walksDir}`, () => {
    const truth = found && walksDir ? readGroundTruth(walksDir) : new Map<string, number>();
    const results: Result[] = [];

    it.each([...truth.entries()])("counts %s within 5%", (path, steps) => {
      const samples = readWalkRecording(join(walksDir ?? "", path));
      const result = {
        path,
        truth: steps,
        counted: countSteps(samples),
        at60Hz: countSteps(resample(samples, PHONE_RATE_HZ)),
      };
      results.push(result);
      expect(Math.abs(result.counted - steps) / steps).toBeLessThanOrEqual(MAX_ERROR_PER_WALK);
      expect(Math.abs(result.at60Hz - steps) / steps).toBeLessThanOrEqual(MAX_ERROR_PER_WALK);
    });

    it("counts all the walks together within 2%, at the recorded rate and at 60 Hz", () => {
      expect(results).toHaveLength(truth.size);
      const total = sum(results.map((r) => r.truth));
      expect(Math.abs(sum(results.map((r) => r.counted)) - total) / total).toBeLessThanOrEqual(
        MAX_TOTAL_ERROR,
      );
      expect(Math.abs(sum(results.map((r) => r.at60Hz)) - total) / total).toBeLessThanOrEqual(
        MAX_TOTAL_ERROR,
      );
    });

    afterAll(() => {
      if (results.length > 0) console.log(formatTable(results));
    });
  });
});

/** Keeps roughly one sample per 1/hz seconds, as a slower sensor would have delivered. */
function resample(samples: MotionSample[], hz: number): MotionSample[] {
  const interval = 1000 / hz;
  let next = Number.NEGATIVE_INFINITY;
  return samples.filter((sample) => {
    if (sample.t < next) return false;
    next = Math.max(next + interval, sample.t);
    return true;
  });
}

function formatTable(results: Result[]): string {
  const error = (counted: number, truth: number) => `${(((counted - truth) / truth) * 100).toFixed(1)}%`;
  const rows = results.map((r) => [
    r.path,
    r.truth,
    r.counted,
    error(r.counted, r.truth),
    error(r.at60Hz, r.truth),
  ]);
  const truth = sum(results.map((r) => r.truth));
  const counted = sum(results.map((r) => r.counted));
  const at60Hz = sum(results.map((r) => r.at60Hz));
  rows.push(["total", truth, counted, error(counted, truth), error(at60Hz, truth)]);
  const header = ["path", "truth", "counted", "error", "error at 60 Hz"];
  const widths = header.map((h, i) => Math.max(h.length, ...rows.map((row) => String(row[i]).length)));
  return [header, ...rows]
    .map((row) =>
      row
        .map((cell, i) => String(cell).padEnd(widths[i] ?? 0))
        .join("  ")
        .trimEnd(),
    )
    .join("\n");
}

function sum(values: number[]): number {
  return values.reduce((a, b) => a + b, 0);
}
