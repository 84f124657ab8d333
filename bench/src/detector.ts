import { existsSync } from "node:fs";
import { join, resolve } from "node:path";
import { createStepDetector } from "@charity-steps/step-detector";
import {
  errorOf,
  formatAccuracyReport,
  measureWalks,
  spread,
  type WalkResult,
} from "@charity-steps/step-detector/walk-accuracy";
import { type BenchContext, bounded, type Figure, notMeasured, relative } from "./figure.js";

const SECONDS_A_DAY = 24 * 60 * 60;
// The fastest sensor among the recordings (a Google Pixel).
const FAST_HZ = 405;

/**
 * Walking-like samples at `hz`, made once: 1.8 steps a second with some noise. Kept in typed
 * arrays, not as millions of objects: a heap of 5 million live objects had V8's garbage collector
 * marking it, on threads that `process.cpuUsage` counts, during the measured loop (1.3–2.2 s in some
 * runs, 0.4 s in others). A phone gets each sample as a new, short-lived object, as the loop does.
 */
function syntheticWalk(samples: number, hz: number) {
  let seed = 7;
  const noise = () => {
    seed = (seed * 1_103_515_245 + 12_345) % 2_147_483_648;
    return seed / 2_147_483_648 - 0.5;
  };
  const walk = { x: new Float64Array(samples), y: new Float64Array(samples), z: new Float64Array(samples) };
  for (let i = 0; i < samples; i++) {
    const t = (i * 1000) / hz;
    walk.x[i] = 0.3 + noise();
    walk.y[i] = 0.2 + noise();
    walk.z[i] = 9.81 + 3 * Math.sin(2 * Math.PI * 1.8 * (t / 1000)) + noise();
  }
  return walk;
}

/** CPU ms to feed `seconds` of `hz` samples to a fresh detector, and the steps it counted. */
function detectorCpu(seconds: number, hz: number): { cpuMs: number; samples: number; steps: number } {
  const samples = Math.round(seconds * hz);
  const walk = syntheticWalk(samples, hz);
  const detector = createStepDetector();
  const before = process.cpuUsage();
  for (let i = 0; i < samples; i++) {
    detector.push({ t: (i * 1000) / hz, x: walk.x[i] ?? 0, y: walk.y[i] ?? 0, z: walk.z[i] ?? 0 });
  }
  const cpu = process.cpuUsage(before);
  return { cpuMs: (cpu.user + cpu.system) / 1000, samples, steps: detector.total };
}

/** The detector's cost on a day of samples (and on a fast sensor) and its error on the recorded walks. */
export async function measureDetector({ quick }: BenchContext): Promise<Figure[]> {
  const figures: Figure[] = [];

  const seconds = quick ? SECONDS_A_DAY / 24 : SECONDS_A_DAY;
  const day = detectorCpu(seconds, 60);
  figures.push(
    bounded(
      {
        name: quick ? "detector CPU, 1 h of 60 Hz" : "detector CPU, 24 h of 60 Hz",
        value: Math.round(day.cpuMs),
        unit: "ms",
        limit: quick ? 1000 / 24 : 1000,
        budget: quick ? "≤ 42 ms (1 s a day)" : "≤ 1000 ms",
        note: `${day.samples.toLocaleString("en-GB")} samples, ${day.steps.toLocaleString("en-GB")} steps`,
      },
      quick,
    ),
  );

  // A faster sensor delivers more samples, each averaged into the detector's fixed bins; it may
  // cost more per second only by those samples, never more per sample than a phone's 60 Hz.
  const fastSeconds = quick ? 300 : 3600;
  const fast = detectorCpu(fastSeconds, FAST_HZ);
  const slowPerSecond = day.cpuMs / seconds;
  const fastPerSecond = fast.cpuMs / fastSeconds;
  const nsPerSample = (cpuMs: number, samples: number) => ((cpuMs * 1e6) / samples).toFixed(0);
  figures.push(
    relative(
      {
        name: `detector CPU per second of ${FAST_HZ} Hz, vs 60 Hz`,
        value: Number((fastPerSecond * 1000).toFixed(1)),
        unit: "µs",
        reference: { name: "60 Hz", value: Number((slowPerSecond * 1000).toFixed(1)), unit: "µs" },
        maxRatio: FAST_HZ / 60,
        budget: `≤ ${(FAST_HZ / 60).toFixed(2)}× (no more per sample than at 60 Hz)`,
        note: `${nsPerSample(fast.cpuMs, fast.samples)} ns a sample at ${FAST_HZ} Hz, ${nsPerSample(day.cpuMs, day.samples)} ns at 60 Hz`,
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
        "median ≤ 1%, worst ≤ 4%",
        walksDir === undefined ? "WALKS_DIR is not set" : `no walks at ${walksDir}`,
      ),
    );
    return figures;
  }
  const results = measureWalks(walksDir);
  console.log(indent(formatAccuracyReport(results)));

  const percent = (value: number) => Number((value * 100).toFixed(2));
  const ours = spread(results.map((r) => errorOf(r.counted, r.truth)));
  const at60Hz = spread(results.map((r) => errorOf(r.at60Hz, r.truth)));
  const baseline = (count: (r: WalkResult) => number | null) =>
    spread(
      results.flatMap((r) => {
        const value = count(r);
        return value === null ? [] : [errorOf(value, r.steps)];
      }),
    );
  const oxford = baseline((r) => r.oxford);
  const phone = baseline((r) => r.phoneCounter);
  const versus = `Oxford live median ${(oxford.median * 100).toFixed(1)}% (worst ${(oxford.worst * 100).toFixed(1)}%) on ${oxford.walks} walks, phone counter median ${(phone.median * 100).toFixed(1)}% (worst ${(phone.worst * 100).toFixed(1)}%) on ${phone.walks}`;
  figures.push(
    bounded(
      {
        name: `detector median |error|, ${results.length} walks`,
        value: percent(ours.median),
        unit: "%",
        limit: 1,
        note: versus,
      },
      quick,
    ),
    bounded({ name: "detector worst |error|", value: percent(ours.worst), unit: "%", limit: 4 }, quick),
    bounded(
      { name: "detector median |error| at 60 Hz", value: percent(at60Hz.median), unit: "%", limit: 1 },
      quick,
    ),
    bounded(
      { name: "detector worst |error| at 60 Hz", value: percent(at60Hz.worst), unit: "%", limit: 4 },
      quick,
    ),
  );
  return figures;
}

function indent(text: string): string {
  return text
    .split("\n")
    .map((line) => `  ${line}`)
    .join("\n");
}
