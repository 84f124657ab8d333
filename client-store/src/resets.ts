/**
 * The London daily and monthly resets. Days and months are keys here, so a "reset" is the
 * new day's (or month's) counters starting from zero; past days stay until the server has them, and
 * past months stay for history. The server resets are called too, but a failure there never stops
 * the local one.
 */
import {
  type DailyResetResponse,
  type DayString,
  londonDay,
  londonMonth,
  type MonthlyResetResponse,
  type MonthString,
  monthOfDay,
} from "@charity-steps/shared-types";
import { apiRequest, type FetchLike } from "./api-client";
import { db, getMeta, setMeta } from "./db";
import { emptyDay, recomputeMonth } from "./local-steps";

export const DAILY_RESET_PATH = "/api/daily-reset";
export const MONTHLY_RESET_PATH = "/api/monthly-reset";
/** How often the page checks whether London has passed midnight. */
export const RESET_CHECK_INTERVAL_MS = 60_000;

export interface DailyResetResult {
  type: "dailyReset";
  day: DayString;
  /** The day of the previous reset, or null on the device's first run. */
  previousDay: DayString | null;
  /** The server's answer, or null when the call failed (the local reset happened anyway). */
  server: DailyResetResponse | null;
}

export interface MonthlyResetResult {
  type: "monthlyReset";
  month: MonthString;
  previousMonth: MonthString | null;
  server: MonthlyResetResponse | null;
}

export interface ResetOptions<T> {
  now?: Date | number;
  /** Calls the server's reset; defaults to a same-origin POST with the session cookie. */
  callServer?: () => Promise<T>;
}

/**
 * The server's daily reset: a `POST` with the JSON header and no body; throws an ApiError on a
 * refusal. Once `signal` is aborted it sends nothing, and a call under way is abandoned.
 */
export function postDailyReset(fetchFn?: FetchLike, signal?: AbortSignal): () => Promise<DailyResetResponse> {
  return postReset<DailyResetResponse>(DAILY_RESET_PATH, fetchFn, signal);
}

/** The server's monthly reset, sent like the daily one. */
export function postMonthlyReset(
  fetchFn?: FetchLike,
  signal?: AbortSignal,
): () => Promise<MonthlyResetResponse> {
  return postReset<MonthlyResetResponse>(MONTHLY_RESET_PATH, fetchFn, signal);
}

function postReset<T>(path: string, fetchFn?: FetchLike, signal?: AbortSignal) {
  return async (): Promise<T> => {
    signal?.throwIfAborted();
    const headers = { "Content-Type": "application/json" };
    const response = await apiRequest("POST", path, undefined, headers, { fetch: fetchFn, signal });
    return (await response.json()) as T;
  };
}

/** Logs a server reset's failure, but not one abandoned on purpose (the checks were stopped). */
function warnUnlessAbandoned(which: string, error: unknown): null {
  const abandoned = error instanceof Error && error.name === "AbortError";
  if (!abandoned) console.warn(`Server ${which} reset failed; the local reset still happened`, error);
  return null;
}

/**
 * When the London date differs from the last daily reset: the new day's counters start at zero,
 * the date is stored, the server reset is called (a failure is only logged), and the result is
 * returned. Resolves to null when the day has not changed. Safe to run from several tabs: only the
 * one whose transaction moved the date calls the server.
 */
export async function checkDailyReset({
  now = Date.now(),
  callServer = postDailyReset(),
}: ResetOptions<DailyResetResponse> = {}): Promise<DailyResetResult | null> {
  const day = londonDay(now);
  const at = typeof now === "number" ? now : now.getTime();
  const previousDay = await db.transaction("rw", [db.meta, db.days, db.months], async () => {
    const last = (await getMeta("lastDailyReset")) ?? null;
    if (last === day) return undefined;
    await zeroDay(day, at);
    await setMeta("lastDailyReset", day);
    return last;
  });
  if (previousDay === undefined) return null;
  const server = await callServer().catch((error: unknown) => warnUnlessAbandoned("daily", error));
  return { type: "dailyReset", day, previousDay, server };
}

/** As `checkDailyReset`, for a new London month against `lastMonthlyReset`. */
export async function checkMonthlyReset({
  now = Date.now(),
  callServer = postMonthlyReset(),
}: ResetOptions<MonthlyResetResponse> = {}): Promise<MonthlyResetResult | null> {
  const month = londonMonth(now);
  const at = typeof now === "number" ? now : now.getTime();
  const previousMonth = await db.transaction("rw", [db.meta, db.days, db.months], async () => {
    const last = (await getMeta("lastMonthlyReset")) ?? null;
    if (last === month) return undefined;
    // The new month's total is only its own days (at most today's steps so far); old months stay.
    await recomputeMonth(month, at, { allowShrink: true });
    await setMeta("lastMonthlyReset", month);
    return last;
  });
  if (previousMonth === undefined) return null;
  const server = await callServer().catch((error: unknown) => warnUnlessAbandoned("monthly", error));
  return { type: "monthlyReset", month, previousMonth, server };
}

/**
 * The new day starts from zero. Steps written after London midnight are the new day's own and stay;
 * a row last written before the day began can only be stale, and is zeroed.
 */
async function zeroDay(day: DayString, at: number): Promise<void> {
  const existing = await db.days.get(day);
  if (existing && londonDay(existing.updatedAt) >= day) return;
  await db.days.put(emptyDay(day, at));
  if (existing) await recomputeMonth(monthOfDay(day), at, { allowShrink: true });
}

export interface ResetChecksOptions {
  fetch?: FetchLike;
  intervalMs?: number;
  clock?: () => number;
  onDailyReset?: (result: DailyResetResult) => void;
  onMonthlyReset?: (result: MonthlyResetResult) => void;
}

/**
 * Checks both resets now and every 60 s; returns a function that stops the checks. Stopping also
 * ends a check under way (the walker has signed out, or the page has closed their screen): a local
 * reset already begun finishes, but nothing more is sent to the server and no callback runs.
 */
export function startResetChecks({
  fetch: fetchFn,
  intervalMs = RESET_CHECK_INTERVAL_MS,
  clock = Date.now,
  onDailyReset,
  onMonthlyReset,
}: ResetChecksOptions = {}): () => void {
  let checking = false;
  const stopped = new AbortController();
  const { signal } = stopped;
  const check = async () => {
    if (checking || signal.aborted) return;
    checking = true;
    try {
      const now = clock();
      const daily = await checkDailyReset({ now, callServer: postDailyReset(fetchFn, signal) });
      if (signal.aborted) return;
      if (daily) onDailyReset?.(daily);
      const monthly = await checkMonthlyReset({ now, callServer: postMonthlyReset(fetchFn, signal) });
      if (signal.aborted) return;
      if (monthly) onMonthlyReset?.(monthly);
    } catch (error) {
      console.warn("Reset check failed", error);
    } finally {
      checking = false;
    }
  };
  void check();
  const timer = setInterval(() => void check(), intervalMs);
  return () => {
    clearInterval(timer);
    stopped.abort();
  };
}
