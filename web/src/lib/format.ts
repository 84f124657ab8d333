import { formatNumber } from "@charity-steps/shared-types";

/** A count of steps as a person reads it: "12,345". */
export const formatSteps = (steps: number) => formatNumber(steps);
