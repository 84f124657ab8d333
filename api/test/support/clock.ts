import { londonDay, londonMonth } from "@charity-steps/shared-types";
import { afterAll, beforeAll } from "vitest";
import { shiftDate } from "./shifted-date.js";

/**
 * The moment a test about "today" starts at, whatever the day it really runs: noon on Saturday
 * 21 November 2026 in London (GMT), well inside its month, far from a draw's close, a postal
 * entry's closing day and the clock changes.
 */
export const TEST_NOW = new Date("2026-11-21T12:00:00Z");
export const TEST_TODAY = londonDay(TEST_NOW);
export const TEST_MONTH = londonMonth(TEST_NOW);

/**
 * Sets this file's clock (or this describe block's) to `at` before its tests, running on from
 * there, and gives the real one back after them. Only Date moves: timers stay real, and the app
 * under inject() (or listening in this process) reads the same clock as the test.
 */
export function useTestClock(at: Date = TEST_NOW): void {
  let restore: (() => void) | undefined;
  beforeAll(() => {
    restore = shiftDate(at.getTime() - Date.now());
  });
  afterAll(() => {
    restore?.();
  });
}

/** Runs `work` with the clock at `iso` (running on from there), then puts it back. */
export async function atMoment<T>(iso: string, work: () => Promise<T>): Promise<T> {
  const restore = shiftDate(Date.parse(iso) - Date.now());
  try {
    return await work();
  } finally {
    restore();
  }
}
