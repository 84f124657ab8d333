// The detector's accuracy on the recorded walks, measured one way for the walks test, the bench and
// anyone reading the table: each walk's error at its own rate and thinned to a phone's 60 Hz, and
// the median and worst error overall, by phone position and by phone.
import { join } from "node:path";
import { countSteps, type MotionSample } from "../index.js";
import { readHeelStrikes, readWalkList, readWalkRecording, type WalkEntry } from "./walk-recordings.js";

/** Phones deliver devicemotion at about 60 Hz, less than the recordings' 100–405 Hz. */
export const PHONE_RATE_HZ = 60;

export interface WalkResult extends WalkEntry {
  /** Heel strikes the foot sensors logged, sensor chatter removed (see readHeelStrikes); the
   * file's count where the raw sensor states were not kept. */
  truth: number;
  counted: number;
  at60Hz: number;
  /** Median sample rate of the recording, Hz. */
  rateHz: number;
}

/** Signed relative error, e.g. -0.02 for 2% short. */
export function errorOf(counted: number, truth: number): number {
  return (counted - truth) / truth;
}

type Counter = (samples: MotionSample[]) => number;
const detectorCount: Counter = (samples) => countSteps(samples);

/** Counts every walk `ground_truth.csv` lists in `walksDir`, at its rate and at 60 Hz. */
export function measureWalks(walksDir: string, count: Counter = detectorCount): WalkResult[] {
  return readWalkList(walksDir).map((walk) => measureWalk(walksDir, walk, count));
}

/** Counts one walk at its rate and at 60 Hz. */
export function measureWalk(walksDir: string, walk: WalkEntry, count: Counter = detectorCount): WalkResult {
  const recording = join(walksDir, walk.path);
  const samples = readWalkRecording(recording);
  return {
    ...walk,
    truth: readHeelStrikes(recording)?.length ?? walk.steps,
    counted: count(samples),
    at60Hz: count(resample(samples, PHONE_RATE_HZ)),
    rateHz: medianRate(samples),
  };
}

/** Keeps roughly one sample per 1/hz seconds, as a slower sensor would have delivered. */
export function resample(samples: MotionSample[], hz: number): MotionSample[] {
  const interval = 1000 / hz;
  let next = Number.NEGATIVE_INFINITY;
  return samples.filter((sample) => {
    if (sample.t < next) return false;
    next = Math.max(next + interval, sample.t);
    return true;
  });
}

export interface Spread {
  walks: number;
  /** Median and worst |error|, as fractions. */
  median: number;
  worst: number;
}

/** Median and worst of the absolute errors. */
export function spread(errors: number[]): Spread {
  const sorted = errors.map(Math.abs).sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  const median =
    sorted.length === 0
      ? Number.NaN
      : sorted.length % 2
        ? (sorted[middle] as number)
        : ((sorted[middle - 1] as number) + (sorted[middle] as number)) / 2;
  return { walks: sorted.length, median, worst: sorted.length ? (sorted.at(-1) as number) : Number.NaN };
}

/** The spread at the recorded rate and at 60 Hz, over all walks and per value of `key`. */
export function spreadBy(
  results: WalkResult[],
  key: (result: WalkResult) => string,
): { group: string; native: Spread; at60Hz: Spread }[] {
  const groups = new Map<string, WalkResult[]>();
  for (const result of results) groups.set(key(result), [...(groups.get(key(result)) ?? []), result]);
  return [...groups.entries()]
    .sort(([a], [b]) => a.localeCompare(b))
    .map(([group, members]) => ({
      group,
      native: spread(members.map((r) => errorOf(r.counted, r.truth))),
      at60Hz: spread(members.map((r) => errorOf(r.at60Hz, r.truth))),
    }));
}

/** The per-walk table and the summaries by position and by phone, as text. */
export function formatAccuracyReport(results: WalkResult[]): string {
  const percent = (value: number | null) =>
    value === null || Number.isNaN(value) ? "–" : `${value >= 0 ? "+" : ""}${(value * 100).toFixed(1)}%`;
  const plain = (value: number) => `${(value * 100).toFixed(1)}%`;
  const versus = (count: number | null, truth: number) => (count === null ? null : errorOf(count, truth));
  const walks = table(
    [
      "walk",
      "phone",
      "position",
      "Hz",
      "truth",
      "file",
      "counted",
      "error",
      "at 60 Hz",
      "vs file",
      "Oxford",
      "phone ctr",
    ],
    results.map((r) => [
      r.path,
      r.phone,
      r.position,
      String(Math.round(r.rateHz)),
      String(r.truth),
      String(r.steps),
      String(r.counted),
      percent(errorOf(r.counted, r.truth)),
      percent(errorOf(r.at60Hz, r.truth)),
      percent(errorOf(r.counted, r.steps)),
      percent(versus(r.oxford, r.steps)),
      percent(versus(r.phoneCounter, r.steps)),
    ]),
  );
  const summary = (title: string, key: (r: WalkResult) => string) =>
    table(
      [title, "walks", "median", "worst", "median 60 Hz", "worst 60 Hz"],
      spreadBy(results, key).map(({ group, native, at60Hz }) => [
        group,
        String(native.walks),
        plain(native.median),
        plain(native.worst),
        plain(at60Hz.median),
        plain(at60Hz.worst),
      ]),
    );
  return [
    walks,
    "",
    summary("all walks", () => "all"),
    "",
    summary("position", (r) => r.position),
    "",
    summary("phone", (r) => r.phone),
    "",
    "truth: heel strikes from the foot sensors with sensor chatter removed (the file's count where only",
    "that was kept); file: the recording's own ground-truth count; vs file: the error against it.",
  ].join("\n");
}

function table(header: string[], rows: string[][]): string {
  const widths = header.map((h, i) => Math.max(h.length, ...rows.map((row) => (row[i] ?? "").length)));
  return [header, ...rows]
    .map((row) =>
      row
        .map((cell, i) => cell.padEnd(widths[i] ?? 0))
        .join("  ")
        .trimEnd(),
    )
    .join("\n");
}

function medianRate(samples: MotionSample[]): number {
  const intervals: number[] = [];
  for (let i = 1; i < samples.length; i++) {
    const dt = (samples[i] as MotionSample).t - (samples[i - 1] as MotionSample).t;
    if (dt > 0) intervals.push(dt);
  }
  intervals.sort((a, b) => a - b);
  const middle = intervals[Math.floor(intervals.length / 2)];
  return middle ? 1000 / middle : Number.NaN;
}
