import { describe, expect, it } from "vitest";
import { countSteps, createStepDetector, type MotionSample } from "../src/index.js";

const GRAVITY = 9.81;
// The phone is held tilted, so gravity and the bounce of each step spread over all three axes.
const UP = normalise([0.3, 0.5, 0.8]);

interface Segment {
  seconds: number;
  /** Steps per second; 0 means standing still. */
  cadence: number;
  /** Peak vertical acceleration of each step, m/s². */
  bounce?: number;
}

interface Sampling {
  hz: number;
  /** Sample intervals vary by up to this share of the nominal one. */
  jitter?: number;
  /** Seconds at which the sensor goes quiet for `gapMs`. */
  gapsAt?: number[];
  gapMs?: number;
}

/** Accelerometer samples of someone walking and standing, with sensor noise, from a fixed seed. */
function synthesise(segments: Segment[], sampling: Sampling, noise = 0.3, seed = 1): MotionSample[] {
  const random = seededRandom(seed);
  const samples: MotionSample[] = [];
  const interval = 1000 / sampling.hz;
  const gaps = [...(sampling.gapsAt ?? [])];
  let t = 0;
  let segmentStart = 0;
  for (const segment of segments) {
    const end = segmentStart + segment.seconds * 1000;
    const bounce = segment.bounce ?? 3;
    while (t < end) {
      const vertical =
        segment.cadence > 0
          ? bounce * Math.sin(2 * Math.PI * segment.cadence * ((t - segmentStart) / 1000))
          : 0;
      const along = GRAVITY + vertical;
      samples.push({
        t,
        x: along * UP[0] + noise * gaussian(random),
        y: along * UP[1] + noise * gaussian(random),
        z: along * UP[2] + noise * gaussian(random),
      });
      t += interval * (1 + (sampling.jitter ?? 0) * (2 * random() - 1));
      if (gaps.length > 0 && t >= (gaps[0] ?? 0) * 1000) {
        gaps.shift();
        t += sampling.gapMs ?? 0;
      }
    }
    segmentStart = end;
  }
  return samples;
}

function withJolts(samples: MotionSample[], joltTimesS: number[], size = 12): MotionSample[] {
  // A tap or knock: a 60 ms spike on top of whatever the phone was doing.
  return samples.map((sample) => {
    const hit = joltTimesS.find((s) => sample.t >= s * 1000 && sample.t < s * 1000 + 60);
    if (hit === undefined) return sample;
    const shape = Math.sin((Math.PI * (sample.t - hit * 1000)) / 60);
    return {
      t: sample.t,
      x: sample.x + size * shape * UP[0],
      y: sample.y + size * shape * UP[1],
      z: sample.z + size * shape * UP[2],
    };
  });
}

function expectAbout(counted: number, expected: number, tolerance = 0.02) {
  expect(counted).toBeGreaterThanOrEqual(Math.floor(expected * (1 - tolerance)));
  expect(counted).toBeLessThanOrEqual(Math.ceil(expected * (1 + tolerance)));
}

describe("step detector on synthesised walks", () => {
  it.each([50, 60, 100, 200])("counts a 100 s walk at 1.8 steps/s sampled at %i Hz within 2%%", (hz) => {
    const samples = synthesise([{ seconds: 100, cadence: 1.8 }], { hz });
    expectAbout(countSteps(samples), 180);
  });

  it.each([
    [1.0, 1.5],
    [1.4, 2],
    [2.4, 4],
  ])("counts a stroll, a walk and a brisk walk (%f steps/s)", (cadence, bounce) => {
    const samples = synthesise([{ seconds: 60, cadence, bounce }], { hz: 60 });
    expectAbout(countSteps(samples), 60 * cadence);
  });

  it("counts a gentle walk with the phone held steadily in the hand", () => {
    const samples = synthesise([{ seconds: 60, cadence: 1.8, bounce: 1 }], { hz: 60 }, 0.15);
    expectAbout(countSteps(samples), 108);
  });

  it("counts nothing for a phone lying still or held by someone standing", () => {
    expect(countSteps(synthesise([{ seconds: 600, cadence: 0 }], { hz: 60 }, 0.05))).toBe(0);
    expect(countSteps(synthesise([{ seconds: 600, cadence: 0 }], { hz: 60 }, 0.3, 7))).toBe(0);
  });

  it("counts nothing for a few knocks and taps while standing", () => {
    const still = synthesise([{ seconds: 60, cadence: 0 }], { hz: 60 }, 0.1);
    const knocks = withJolts(still, [2, 2.6, 3.1, 10, 10.4, 20, 21.5, 22, 22.3, 40]);
    expect(countSteps(knocks)).toBe(0);
  });

  it("counts nothing for a phone being jiggled without a rhythm", () => {
    const still = synthesise([{ seconds: 30, cadence: 0 }], { hz: 60 }, 0.1);
    const jiggles = withJolts(still, [1, 1.4, 2.3, 2.7, 4.2, 4.6, 5.9, 6.3, 7.9, 8.3, 9.9], 6);
    expect(countSteps(jiggles)).toBe(0);
  });

  it("keeps counting through irregular sampling and 200 ms gaps in the data", () => {
    const samples = synthesise([{ seconds: 100, cadence: 1.8 }], {
      hz: 60,
      jitter: 0.5,
      gapsAt: [10, 25, 40, 55, 70, 85],
      gapMs: 200,
    });
    // Each gap may swallow the one step inside it.
    expectAbout(countSteps(samples), 180 - 6 * 0.2 * 1.8, 0.03);
  });

  it("counts a walk that starts after standing, including the steps held back to start it", () => {
    const samples = synthesise(
      [
        { seconds: 30, cadence: 0 },
        { seconds: 60, cadence: 1.8 },
      ],
      { hz: 60 },
    );
    const detector = createStepDetector();
    let firstCountAt: number | undefined;
    let firstBatch = 0;
    for (const sample of samples) {
      const added = detector.push(sample);
      if (added > 0 && firstCountAt === undefined) {
        firstCountAt = sample.t;
        firstBatch = added;
      }
    }
    expectAbout(detector.total, 108);
    // Counting begins within a few seconds of the first step, with the first steps in one go.
    expect(firstCountAt).toBeGreaterThan(30_000);
    expect(firstCountAt).toBeLessThan(33_000);
    expect(firstBatch).toBeGreaterThanOrEqual(4);
  });

  it("counts two walks separated by a pause, and nothing during the pause", () => {
    const samples = synthesise(
      [
        { seconds: 40, cadence: 1.8 },
        { seconds: 20, cadence: 0 },
        { seconds: 40, cadence: 1.8 },
      ],
      { hz: 60 },
    );
    const detector = createStepDetector();
    let duringPause = 0;
    for (const sample of samples) {
      const added = detector.push(sample);
      if (sample.t > 41_000 && sample.t < 60_000) duringPause += added;
    }
    expect(duringPause).toBe(0);
    expectAbout(detector.total, 144);
  });

  it("ignores a sensor's 0,0,0 first reading", () => {
    const samples = synthesise([{ seconds: 20, cadence: 0 }], { hz: 100 }, 0.05);
    expect(countSteps([{ t: -10, x: 0, y: 0, z: 0 }, ...samples])).toBe(0);
  });

  it("reports the same total whether pushed sample by sample or counted at once", () => {
    const samples = synthesise([{ seconds: 30, cadence: 1.8 }], { hz: 60 });
    const detector = createStepDetector();
    let added = 0;
    for (const sample of samples) added += detector.push(sample);
    expect(added).toBe(detector.total);
    expect(detector.total).toBe(countSteps(samples));
  });
});

function normalise(v: [number, number, number]): [number, number, number] {
  const length = Math.hypot(...v);
  return [v[0] / length, v[1] / length, v[2] / length];
}

// mulberry32: small, fast and good enough for test noise.
function seededRandom(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let r = Math.imul(state ^ (state >>> 15), 1 | state);
    r = (r + Math.imul(r ^ (r >>> 7), 61 | r)) ^ r;
    return ((r ^ (r >>> 14)) >>> 0) / 4294967296;
  };
}

function gaussian(random: () => number): number {
  return Math.sqrt(-2 * Math.log(1 - random())) * Math.cos(2 * Math.PI * random());
}
