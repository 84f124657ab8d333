/** One measured figure of `pnpm bench`, printed beside what bounds it. */
export interface Figure {
  /** What is measured, e.g. "sync throughput (SQLite)". */
  name: string;
  /** The measured value, or null when it could not be measured (then `note` says why). */
  value: number | null;
  unit: string;
  /** The reference measured in the same run, when the budget is relative to one. */
  reference?: { name: string; value: number; unit: string };
  /** value / reference.value, when there is a reference. */
  ratio?: number;
  /** The budget in words, e.g. "≥ 50% of bare Fastify". */
  budget: string;
  /** Whether the budget holds; null when not measured or not judged (--quick). */
  pass: boolean | null;
  note?: string;
}

export interface BenchContext {
  /** A short run that keeps the harness working in CI; it judges nothing. */
  quick: boolean;
  /** The repository root. */
  root: string;
}

export type FigureGroup = (context: BenchContext) => Promise<Figure[]>;

/** A figure with a budget "value ≤ limit" (or ≥ when `atLeast`). */
export function bounded(
  base: Omit<Figure, "pass" | "budget"> & { limit: number; atLeast?: boolean; budget?: string },
  quick: boolean,
): Figure {
  const { limit, atLeast = false, budget, ...figure } = base;
  const measured = figure.value;
  const holds = measured === null ? null : atLeast ? measured >= limit : measured <= limit;
  return {
    ...figure,
    budget: budget ?? `${atLeast ? "≥" : "≤"} ${limit} ${figure.unit}`,
    pass: quick ? null : holds,
  };
}

/** A figure judged by its ratio to a reference measured in the same run. */
export function relative(
  base: Omit<Figure, "pass" | "budget" | "ratio"> & {
    reference: NonNullable<Figure["reference"]>;
    minRatio?: number;
    maxRatio?: number;
    budget: string;
  },
  quick: boolean,
): Figure {
  const { minRatio, maxRatio, ...figure } = base;
  const ratio =
    figure.value === null || figure.reference.value === 0 ? undefined : figure.value / figure.reference.value;
  const holds =
    ratio === undefined
      ? null
      : (minRatio === undefined || ratio >= minRatio) && (maxRatio === undefined || ratio <= maxRatio);
  return { ...figure, ...(ratio === undefined ? {} : { ratio }), pass: quick ? null : holds };
}

/** A figure that could not be measured here, and why. */
export function notMeasured(name: string, unit: string, budget: string, why: string): Figure {
  return { name, value: null, unit, budget, pass: null, note: `not measured: ${why}` };
}
