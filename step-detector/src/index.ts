/** One accelerometer reading: time in ms, acceleration in m/s² with gravity included (what
 * `DeviceMotionEvent.accelerationIncludingGravity` gives). */
export interface MotionSample {
  t: number;
  x: number;
  y: number;
  z: number;
}

export interface StepDetectorOptions {
  /** Samples are averaged into bins this long; everything after runs once per bin, so a fast
   * sensor costs no more per second than a slow one beyond the averaging. */
  binMs: number;
  /** Time constant of the low-pass on the binned |a|, ms. */
  smoothingMs: number;
  /** Time constant of the slow average removed from |a| (gravity and posture), ms. */
  baselineMs: number;
  /** How long the running autocorrelation remembers, ms: a few strides. */
  rhythmMemoryMs: number;
  /** Shortest step period considered, ms (faster than any walk). */
  minStepMs: number;
  /** Longest step period that is still walking, ms. */
  maxStepMs: number;
  /** A repeat shorter than this is a step, never a stride: half of it is faster than a brisk walk, ms. */
  minStrideMs: number;
  /** Longest repeat (a stride, two steps) the autocorrelation looks for, ms. */
  maxStrideMs: number;
  /** Quality factor of the band-pass centred on the step frequency. */
  bandQ: number;
  /** A repeat within this share of the strongest one counts as the rhythm, so the shortest true
   * repeat wins over its multiples. */
  nearBest: number;
  /** Normalised autocorrelation at the repeat below which the motion is not walking. */
  minPeriodicity: number;
  /** A cycle of the band-passed signal counts when it swings past this share of the recent peak
   * envelope, both ways. */
  thresholdRatio: number;
  /** ...and never less than this many m/s²: hand tremor and a phone on a table stay under it. */
  minAmplitude: number;
  /** How fast the peak envelope forgets a big swing, ms. */
  envelopeDecayMs: number;
  /** A step weaker than this share of the walk's typical step means the walk has ended. */
  fadeRatio: number;
  /** How fast the walk's typical step size follows each step (share per step). */
  amplitudeFollow: number;
  /** Longer than this between two steps ends a walk. */
  maxStepIntervalMs: number;
  /** Steps in a row, in the walk's rhythm, before any of them count. */
  stepsToStart: number;
  /** The most steps held back while a walk is being recognised (all of them count once it is). */
  maxHeldBack: number;
  /** A held-back step is in rhythm when its interval is within these factors of the step period. */
  rhythmLow: number;
  rhythmHigh: number;
  /** How often the step period is re-estimated, ms. */
  periodEveryMs: number;
}

// One set for every phone position and sensor rate; measured on the recorded walks (see
// test/step-detector.walks.test.ts), and each value is a round figure with slack on both sides.
export const DEFAULT_STEP_DETECTOR_OPTIONS: StepDetectorOptions = {
  binMs: 40,
  smoothingMs: 40,
  baselineMs: 2000,
  rhythmMemoryMs: 4000,
  minStepMs: 280,
  maxStepMs: 1200,
  minStrideMs: 800,
  maxStrideMs: 2200,
  bandQ: 1.5,
  nearBest: 0.85,
  minPeriodicity: 0.5,
  thresholdRatio: 0.25,
  minAmplitude: 0.15,
  envelopeDecayMs: 2000,
  fadeRatio: 0.35,
  amplitudeFollow: 0.1,
  maxStepIntervalMs: 2000,
  stepsToStart: 5,
  maxHeldBack: 16,
  rhythmLow: 0.6,
  rhythmHigh: 1.6,
  periodEveryMs: 200,
};

export interface StepDetector {
  /** Feeds one sample; returns the steps it confirmed (several at once when a walk starts). */
  push(sample: MotionSample): number;
  readonly total: number;
}

/**
 * A streaming step counter, the same for every phone position and sensor rate.
 *
 * The size of the acceleration |a| does not depend on how the phone is held. It is averaged into
 * fixed bins, and per bin:
 * 1. a running autocorrelation (a few strides long) finds the signal's repeat. Every walk repeats
 *    each stride (two steps); a phone in the hand or on the neck also repeats each step, but in a
 *    trouser pocket one leg's step looks unlike the other's and in a swinging hand the arm adds a
 *    beat at half the step rate, so the shortest strong repeat is sometimes a stride. It is a
 *    stride when the signal has more power at twice its repeat rate than at the repeat rate itself
 *    (two similar beats per repeat) and the repeat is long enough for two walking steps, and then
 *    the step period is half of it;
 * 2. a band-pass centred on that step frequency leaves one even swing per step, whatever the
 *    pocket, arm or sensor adds around it (the stride's beat, a second bump per step, noise);
 * 3. each swing of it past a threshold (a share of the recent swings) is a step, counted while the
 *    motion is periodic (the autocorrelation at the repeat is high) and the steps keep their size.
 *
 * A walk must show its rhythm for `stepsToStart` steps before any step counts (then the held-back
 * ones that kept the rhythm count too), so picking the phone up, putting it down, turning it over
 * or knocking it counts nothing. When the steps fade, the walk ends and its rhythm is forgotten,
 * so a bag swinging after the walker stops does not count on the old rhythm's credit.
 */
export function createStepDetector(options: Partial<StepDetectorOptions> = {}): StepDetector {
  const o = { ...DEFAULT_STEP_DETECTOR_OPTIONS, ...options };
  const binMs = o.binMs;
  const minLag = Math.max(2, Math.round(o.minStepMs / binMs));
  const maxLag = Math.round(o.maxStrideMs / binMs);
  const maxStepLag = o.maxStepMs / binMs;
  const minStrideLag = o.minStrideMs / binMs;
  const periodEvery = Math.max(1, Math.round(o.periodEveryMs / binMs));
  // Gaps in the data up to this many bins (a second) are bridged.
  const maxBridged = Math.ceil(1000 / binMs);

  const smoothAlpha = 1 - Math.exp(-binMs / o.smoothingMs);
  const baselineAlpha = 1 - Math.exp(-binMs / o.baselineMs);
  const rhythmAlpha = 1 - Math.exp(-binMs / o.rhythmMemoryMs);
  const envelopeDecay = Math.exp(-binMs / o.envelopeDecayMs);

  // Recent signal, newest at `historyPos - 1`, and its autocorrelation at lags 0..maxLag.
  const history = new Float64Array(maxLag + 1);
  const correlation = new Float64Array(maxLag + 1);
  // A Hann lag window for reading the power spectrum off the autocorrelation (Blackman–Tukey).
  const lagWindow = new Float64Array(maxLag + 1);
  for (let k = 0; k <= maxLag; k++) lagWindow[k] = 0.5 + 0.5 * Math.cos((Math.PI * k) / (maxLag + 1));
  let historyPos = 0;

  // Binning.
  let bin = Number.NaN;
  let binSum = 0;
  let binCount = 0;
  let bins = 0;

  // Per-bin filters.
  let smooth = Number.NaN;
  let baseline = 0;
  let b0 = 0;
  let a1 = 0;
  let a2 = 0;
  let x1 = 0;
  let x2 = 0;
  let y1 = 0;
  let y2 = 0;

  // The rhythm: the step period (in bins) the band-pass is centred on, and how periodic the
  // motion is (normalised autocorrelation at its repeat).
  let stepLag = 550 / binMs;
  let periodicity = 0;

  // Cycles of the band-passed signal.
  let envelope = 0;
  let low = true;
  let cycleMax = 0;
  let cycleMin = 0;
  let lastCycleT = Number.NEGATIVE_INFINITY;

  // Walks.
  let walking = false;
  let stepSize = 0;
  const heldT = new Float64Array(o.maxHeldBack);
  const heldSize = new Float64Array(o.maxHeldBack);
  let heldPos = 0;
  let held = 0;
  let total = 0;

  centreBand(stepLag);

  // RBJ band-pass (0 dB at the centre), for a centre period in bins.
  function centreBand(lag: number) {
    const w = (2 * Math.PI) / lag;
    const alpha = Math.sin(w) / (2 * o.bandQ);
    const a0 = 1 + alpha;
    b0 = alpha / a0;
    a1 = (-2 * Math.cos(w)) / a0;
    a2 = (1 - alpha) / a0;
  }

  /** Power at `cyclesPerBin`, read off the autocorrelation (the cosines by recurrence: one Math.cos). */
  function power(cyclesPerBin: number): number {
    const c1 = Math.cos(2 * Math.PI * cyclesPerBin);
    let previous = 1;
    let c = c1;
    let sum = correlation[0] as number;
    for (let k = 1; k <= maxLag; k++) {
      sum += 2 * (lagWindow[k] as number) * (correlation[k] as number) * c;
      const next = 2 * c1 * c - previous;
      previous = c;
      c = next;
    }
    return sum;
  }

  function findRhythm() {
    const energy = correlation[0] as number;
    if (!(energy > 0)) return;
    let best = Number.NEGATIVE_INFINITY;
    for (let k = minLag; k < maxLag; k++) best = Math.max(best, correlation[k] as number);
    // The shortest strong repeat: its multiples repeat as well, and are not the rhythm.
    let repeat = 0;
    for (let k = minLag; k < maxLag; k++) {
      const value = correlation[k] as number;
      if (
        value >= o.nearBest * best &&
        value >= (correlation[k - 1] as number) &&
        value >= (correlation[k + 1] as number)
      ) {
        repeat = k;
        break;
      }
    }
    if (repeat === 0) {
      periodicity = 0;
      return;
    }
    const before = correlation[repeat - 1] as number;
    const at = correlation[repeat] as number;
    const after = correlation[repeat + 1] as number;
    const curvature = before - 2 * at + after;
    const lag = curvature < 0 ? repeat + (0.5 * (before - after)) / curvature : repeat;
    periodicity = at / energy;
    const step = lag >= minStrideLag && power(2 / lag) > power(1 / lag) ? lag / 2 : lag;
    if (step > maxStepLag) {
      periodicity = 0;
      return;
    }
    if (Math.abs(step - stepLag) > 0.03 * stepLag) {
      stepLag = step;
      centreBand(stepLag);
    }
  }

  /** Back to the state of a fresh detector, except the count and the last step period. */
  function restart() {
    smooth = Number.NaN;
    x1 = x2 = y1 = y2 = 0;
    envelope = 0;
    low = true;
    cycleMax = cycleMin = 0;
    lastCycleT = Number.NEGATIVE_INFINITY;
    walking = false;
    held = 0;
    forgetRhythm();
  }

  function forgetRhythm() {
    // The history goes too: products with it would carry the old rhythm into the new estimate.
    correlation.fill(0);
    history.fill(0);
    periodicity = 0;
  }

  /** One swing of the band-passed signal, at time t, of the given size (peak to peak). */
  function onCycle(t: number, size: number): number {
    const gap = t - lastCycleT;
    lastCycleT = t;
    if (walking) {
      if (gap <= o.maxStepIntervalMs && size >= o.fadeRatio * stepSize) {
        stepSize += o.amplitudeFollow * (size - stepSize);
        total += 1;
        return 1;
      }
      walking = false;
      held = 0;
      forgetRhythm();
    }
    if (gap > o.maxStepIntervalMs) held = 0;
    heldT[heldPos] = t;
    heldSize[heldPos] = size;
    heldPos = (heldPos + 1) % o.maxHeldBack;
    held = Math.min(held + 1, o.maxHeldBack);
    if (held < o.stepsToStart || periodicity < o.minPeriodicity) return 0;

    // The motion is a walk. The strongest of its latest steps sets the size; walking back from
    // them, the held-back cycles that keep the step period and that size count too (the ones
    // before were the phone being handled, or the band-pass ringing after a knock).
    const period = stepLag * binMs;
    const slot = (age: number) => (heldPos - 1 - age + 2 * o.maxHeldBack) % o.maxHeldBack;
    let size0 = 0;
    for (let age = 0; age < o.stepsToStart; age++) size0 = Math.max(size0, heldSize[slot(age)] as number);
    let steps = 1;
    while (steps < held) {
      const interval = (heldT[slot(steps - 1)] as number) - (heldT[slot(steps)] as number);
      if (interval < o.rhythmLow * period || interval > o.rhythmHigh * period) break;
      if ((heldSize[slot(steps)] as number) < o.fadeRatio * size0) break;
      steps++;
    }
    if (steps < o.stepsToStart) return 0;
    walking = true;
    stepSize = size0;
    held = 0;
    total += steps;
    return steps;
  }

  function onBin(value: number, t: number): number {
    if (Number.isNaN(smooth)) smooth = baseline = value;
    smooth += smoothAlpha * (value - smooth);
    baseline += baselineAlpha * (value - baseline);
    const x = smooth - baseline;

    history[historyPos] = x;
    for (let k = 0, j = historyPos; k <= maxLag; k++, j = j === 0 ? maxLag : j - 1) {
      correlation[k] =
        (correlation[k] as number) + rhythmAlpha * (x * (history[j] as number) - (correlation[k] as number));
    }
    historyPos = historyPos === maxLag ? 0 : historyPos + 1;
    bins++;
    if (bins % periodEvery === 0) findRhythm();

    const y = b0 * (x - x2) - a1 * y1 - a2 * y2;
    x2 = x1;
    x1 = x;
    y2 = y1;
    y1 = y;
    envelope = Math.max(envelope * envelopeDecay, Math.abs(y));
    const threshold = Math.max(o.minAmplitude, o.thresholdRatio * envelope);
    cycleMax = Math.max(cycleMax, y);
    cycleMin = Math.min(cycleMin, y);
    if (low && y > threshold) {
      low = false;
      const size = cycleMax - cycleMin;
      cycleMax = cycleMin = y;
      return onCycle(t, size);
    }
    if (!low && y < -threshold) low = true;
    return 0;
  }

  return {
    push({ t, x, y, z }) {
      const magnitude = Math.sqrt(x * x + y * y + z * z);
      // Some sensors report 0,0,0 before their first real reading.
      if (!(magnitude > 0) || !Number.isFinite(t)) return 0;
      const index = Math.floor(t / binMs);
      if (index === bin) {
        binSum += magnitude;
        binCount++;
        return 0;
      }
      // A clock that goes back: the sample is dropped, as the filters cannot take it.
      if (index < bin) return 0;
      let added = 0;
      if (binCount > 0) {
        const mean = binSum / binCount;
        added += onBin(mean, bin * binMs);
        // Empty bins between this sample and the last are filled in on a straight line; after a
        // longer silence (the page was hidden, the sensor stopped) the stream starts afresh, as
        // the filters' and the rhythm's memories describe motion that is gone.
        const missing = index - bin - 1;
        if (missing > maxBridged) restart();
        else {
          for (let i = 1; i <= missing; i++) {
            added += onBin(mean + ((magnitude - mean) * i) / (missing + 1), (bin + i) * binMs);
          }
        }
      }
      bin = index;
      binSum = magnitude;
      binCount = 1;
      return added;
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
