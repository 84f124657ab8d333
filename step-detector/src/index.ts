/** One accelerometer reading: time in ms, acceleration in m/s² with gravity included (what
 * `DeviceMotionEvent.accelerationIncludingGravity` gives). */
export interface MotionSample {
  t: number;
  x: number;
  y: number;
  z: number;
}

export interface StepDetectorOptions {
  /** Time constant of the two-stage low-pass filter on |a|, ms. */
  smoothingMs: number;
  /** Time constant of the slow average removed from |a| (gravity and posture), ms. */
  baselineMs: number;
  /** A peak counts when it rises above this share of the recent peak envelope. */
  thresholdRatio: number;
  /** Peaks below this many m/s² never count: hand tremor and a phone on a table stay under it. */
  minPeak: number;
  /** How fast the peak envelope forgets a big peak, ms. */
  envelopeDecayMs: number;
  minStepIntervalMs: number;
  maxStepIntervalMs: number;
  /** Steps in a row, each within maxStepIntervalMs of the last, before any of them count. */
  stepsToStart: number;
  /** While a walk starts, each interval must be within this factor of the one before. */
  startRhythmTolerance: number;
}

// Tuned on the recorded walks (see test/step-detector.walks.test.ts); one set for every phone position.
export const DEFAULT_STEP_DETECTOR_OPTIONS: StepDetectorOptions = {
  smoothingMs: 50,
  baselineMs: 2000,
  thresholdRatio: 0.3,
  minPeak: 0.3,
  envelopeDecayMs: 2000,
  minStepIntervalMs: 300,
  maxStepIntervalMs: 2000,
  stepsToStart: 5,
  startRhythmTolerance: 1.5,
};

export interface StepDetector {
  /** Feeds one sample; returns the steps it confirmed (several at once when a walk starts). */
  push(sample: MotionSample): number;
  readonly total: number;
}

export function createStepDetector(options: Partial<StepDetectorOptions> = {}): StepDetector {
  const o = { ...DEFAULT_STEP_DETECTOR_OPTIONS, ...options };

  let started = false;
  let lastT = 0;
  // Filter factors for the last interval; sensors repeat nearly the same interval, and recomputing
  // three exponentials per sample was most of the cost.
  let factorsDt = Number.NaN;
  let smoothAlpha = 0;
  let baselineAlpha = 0;
  let envelopeDecay = 1;
  let smooth1 = 0;
  let smooth2 = 0;
  let baseline = 0;
  let envelope = 0;
  // Peak tracking: while the signal is above the threshold we remember its highest point.
  let above = false;
  let peakValue = 0;
  let peakT = 0;
  let lastStepT = Number.NEGATIVE_INFINITY;
  let runLength = 0;
  let lastInterval = 0;
  let total = 0;

  function onPeak(t: number, value: number): number {
    envelope = Math.max(envelope, value);
    const gap = t - lastStepT;
    if (gap < o.minStepIntervalMs) return 0;
    lastStepT = t;
    const previousInterval = lastInterval;
    lastInterval = gap;
    if (gap > o.maxStepIntervalMs) {
      runLength = 1;
      return 0;
    }
    if (runLength >= o.stepsToStart) {
      total += 1;
      return 1;
    }
    // Walking has a rhythm; fiddling with the phone does not. An off-beat step restarts the run
    // from the step before it.
    const ratio = gap / previousInterval;
    const inRhythm =
      runLength < 2 || (ratio <= o.startRhythmTolerance && ratio >= 1 / o.startRhythmTolerance);
    runLength = inRhythm ? runLength + 1 : 2;
    if (runLength < o.stepsToStart) return 0;
    // The run just became long enough: the steps held back so far count too.
    total += runLength;
    return runLength;
  }

  return {
    push({ t, x, y, z }) {
      const magnitude = Math.sqrt(x * x + y * y + z * z);
      // Some sensors report 0,0,0 before their first real reading.
      if (!(magnitude > 0) || !Number.isFinite(t)) return 0;
      if (!started) {
        started = true;
        lastT = t;
        smooth1 = smooth2 = baseline = magnitude;
        return 0;
      }
      const dt = t - lastT;
      if (!(dt > 0)) return 0;
      lastT = t;

      // Filters are defined by time constants, not per-sample factors, so irregular rates and gaps work.
      if (!(Math.abs(dt - factorsDt) <= 0.01 * factorsDt)) {
        factorsDt = dt;
        smoothAlpha = 1 - Math.exp(-dt / o.smoothingMs);
        baselineAlpha = 1 - Math.exp(-dt / o.baselineMs);
        envelopeDecay = Math.exp(-dt / o.envelopeDecayMs);
      }
      smooth1 += smoothAlpha * (magnitude - smooth1);
      smooth2 += smoothAlpha * (smooth1 - smooth2);
      baseline += baselineAlpha * (magnitude - baseline);
      envelope *= envelopeDecay;

      const signal = smooth2 - baseline;
      const threshold = Math.max(o.minPeak, o.thresholdRatio * envelope);
      if (signal > threshold) {
        if (!above || signal > peakValue) {
          peakValue = signal;
          peakT = t;
        }
        above = true;
        return 0;
      }
      // Hysteresis: a peak ends only once the signal is back below the baseline.
      if (above && signal < 0) {
        above = false;
        return onPeak(peakT, peakValue);
      }
      return 0;
    },
    get total() {
      return total;
    },
  };
}

/** Steps in a whole recording. */
export function countSteps(samples: Iterable<MotionSample>, options?: Partial<StepDetectorOptions>): number {
  const detector = createStepDetector(options);
  for (const sample of samples) detector.push(sample);
  return detector.total;
}
