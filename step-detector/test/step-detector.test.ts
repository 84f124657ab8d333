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
  /** A beat once per stride (two steps) this big, m/s²: an arm swinging the phone. */
  strideBeat?: number;
  /** Every other step is this share of the one before: a phone in one leg's pocket. */
  otherLeg?: number;
  /** A second bump in each step (heel strike, then push-off), this share of the first. */
  secondBump?: number;
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
      const phase = segment.cadence * ((t - segmentStart) / 1000);
      let vertical = 0;
      if (segment.cadence > 0) {
        // The leg whose step this is: even steps on one, odd on the other.
        const leg = Math.floor(phase) % 2 === 0 ? 1 : (segment.otherLeg ?? 1);
        vertical = leg * bounce * Math.sin(2 * Math.PI * phase);
        vertical += (segment.strideBeat ?? 0) * Math.sin(Math.PI * phase);
        vertical += (segment.secondBump ?? 0) * bounce * Math.sin(4 * Math.PI * phase);
      }
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

/** The phone lifted off a table (up and stopping over 0.8 s), held in a slightly shaking hand and
 * tilted for `heldS` seconds, then put down again with a small knock. */
function withLift(samples: MotionSample[], atS: number, heldS: number): MotionSample[] {
  const start = atS * 1000;
  const liftMs = 800;
  const end = start + 2 * liftMs + heldS * 1000;
  return samples.map((sample) => {
    if (sample.t < start || sample.t >= end + 60) return sample;
    const since = sample.t - start;
    let lift = 0;
    if (since < liftMs) lift = 2.5 * Math.sin((2 * Math.PI * since) / liftMs);
    else if (sample.t >= end - liftMs && sample.t < end)
      lift = -2.5 * Math.sin((2 * Math.PI * (sample.t - end + liftMs)) / liftMs);
    else if (sample.t >= end) lift = 4 * Math.sin((Math.PI * (sample.t - end)) / 60);
    const inHand = sample.t >= start + liftMs && sample.t < end - liftMs;
    const sway = inHand ? 0.3 * Math.sin((2 * Math.PI * since) / 1700) : 0;
    const tilt = inHand ? 0.4 * Math.sin((Math.PI * (since - liftMs)) / (heldS * 1000)) : 0;
    return {
      t: sample.t,
      x: sample.x + Math.sin(tilt) * GRAVITY + (lift + sway) * UP[0],
      y: sample.y + (lift + sway) * UP[1],
      z: sample.z - (1 - Math.cos(tilt)) * GRAVITY + (lift + sway) * UP[2],
    };
  });
}

/** The phone turned over in the hand (half a turn in 0.6 s about the y axis, held about 5 cm from
 * the wrist) at each of `turnsS` seconds, alternately face down and face up again. */
function turnedOver(samples: MotionSample[], turnsS: number[]): MotionSample[] {
  const turnMs = 600;
  const radius = 0.05;
  return samples.map((sample) => {
    let done = 0;
    let angle = 0;
    let rate = 0;
    for (const at of turnsS) {
      const since = sample.t - at * 1000;
      if (since >= turnMs) done++;
      else if (since >= 0) {
        // A smooth start and stop: the angle follows half a cosine.
        const progress = since / turnMs;
        angle = (Math.PI * (1 - Math.cos(Math.PI * progress))) / 2;
        rate = ((Math.PI * Math.PI) / (2 * turnMs)) * Math.sin(Math.PI * progress) * 1000;
      }
    }
    const base = done % 2 === 0 ? 0 : Math.PI;
    const theta = base + (done % 2 === 0 ? angle : -angle);
    // Gravity seen from the turning phone, plus the pull towards the wrist of turning about it.
    const { x, y, z } = sample;
    const centripetal = rate * rate * radius;
    return {
      t: sample.t,
      x: x * Math.cos(theta) - z * Math.sin(theta) + centripetal,
      y,
      z: x * Math.sin(theta) + z * Math.cos(theta),
    };
  });
}

function expectAbout(counted: number, expected: number, tolerance = 0.02) {
  expect(counted).toBeGreaterThanOrEqual(Math.floor(expected * (1 - tolerance)));
  expect(counted).toBeLessThanOrEqual(Math.ceil(expected * (1 + tolerance)));
}

describe("step detector on synthesised walks", () => {
  it.each([50, 60, 100, 200, 405])("counts a 100 s walk at 1.8 steps/s sampled at %i Hz within 2%%", (hz) => {
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
    // A fast sensor is noisier sample by sample.
    expect(countSteps(synthesise([{ seconds: 300, cadence: 0 }], { hz: 405 }, 0.6, 3))).toBe(0);
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

  it("counts a phone swung in the hand, whose arm beats at half the step rate, within 2%", () => {
    // The arm swings once per stride, so a beat at half the step rate rides on the steps: every
    // other step peaks at a third of the one before (as on the recorded swinging-arm walk).
    const samples = synthesise([{ seconds: 100, cadence: 1.8, bounce: 1.5, strideBeat: 0.75 }], { hz: 405 });
    expectAbout(countSteps(samples), 180);
    expectAbout(countSteps(samples.filter((_, i) => i % 7 === 0)), 180);
  });

  it("counts a phone in a trouser pocket, where one leg's step is half the other's, within 2%", () => {
    const samples = synthesise([{ seconds: 100, cadence: 1.8, bounce: 3, otherLeg: 0.5 }], { hz: 100 });
    expectAbout(countSteps(samples), 180);
  });

  it("counts a slow walk with two bumps in every step (the second the bigger) once per step", () => {
    // Its power is mostly at twice the step rate, as a stride's is at twice its own: the step
    // period is too short for a stride, so it is not halved.
    const samples = synthesise([{ seconds: 100, cadence: 1.3, bounce: 2, secondBump: 1.5 }], { hz: 60 });
    expectAbout(countSteps(samples), 130);
  });

  it("counts nothing for a phone picked up, held, and put down again, over and over", () => {
    const random = seededRandom(11);
    let samples: MotionSample[] = synthesise([{ seconds: 120, cadence: 0 }], { hz: 60 }, 0.05);
    let at = 2;
    while (at < 110) {
      const held = 2 + 4 * random();
      samples = withLift(samples, at, held);
      at += held + 1.6 + 3 * random();
    }
    expect(countSteps(samples)).toBe(0);
  });

  it("counts nothing for a phone turned over in the hand and back, again and again", () => {
    const random = seededRandom(5);
    const turns: number[] = [];
    for (let at = 1; at < 110; at += 1.2 + 2.5 * random()) turns.push(at);
    const samples = turnedOver(synthesise([{ seconds: 120, cadence: 0 }], { hz: 60 }, 0.2), turns);
    expect(countSteps(samples)).toBe(0);
  });

  it("counts each of two walks with no data between them (a hidden page), and nothing for the gap", () => {
    const first = synthesise([{ seconds: 20, cadence: 1.8 }], { hz: 60 });
    const second = synthesise([{ seconds: 20, cadence: 1.8 }], { hz: 60 }, 0.3, 2).map((sample) => ({
      ...sample,
      t: sample.t + 50_000,
    }));
    const detector = createStepDetector();
    const counted = [first, second].map((walk) =>
      walk.reduce((sum, sample) => sum + detector.push(sample), 0),
    );
    // Each walk may lose its first step or two while its rhythm is recognised.
    for (const steps of counted) {
      expect(steps).toBeGreaterThanOrEqual(33);
      expect(steps).toBeLessThanOrEqual(36);
    }
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
