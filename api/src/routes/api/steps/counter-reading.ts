import {
  type DayString,
  DEFAULT_DEVICE_ID,
  isCalendarDay,
  isHealthSource,
  londonDay,
  stepDateOutOfRange,
} from "@charity-steps/shared-types";
import { BadRequestError, UnprocessableError } from "../../../errors.js";
import type { CounterReading } from "../../../ledger/ledger.js";

/**
 * Where a count goes: a health source is one counter per walker and day, whatever the
 * device; motion counting (live, background, local tracker) is one counter per device.
 */
export function counterReading(
  userId: string,
  deviceId: string | undefined,
  { steps, date, source }: { steps: number; date: DayString; source: string },
): CounterReading {
  if (isHealthSource(source)) {
    return { userId, day: date, counterId: `health:${source}`, kind: "health", source, steps };
  }
  const device = deviceId ?? DEFAULT_DEVICE_ID;
  return { userId, day: date, counterId: `device:${device}`, kind: "motion", source, steps };
}

/** A day steps may be recorded for: 400 when it is no calendar date, 422 when out of the window. */
export function acceptedStepDate(date: string, now = Date.now()): DayString {
  if (!isCalendarDay(date)) throw new BadRequestError(`date ${date} is not a calendar date (YYYY-MM-DD).`);
  const problem = stepDateOutOfRange(date, londonDay(now));
  if (problem) throw new UnprocessableError(problem);
  return date;
}
