/**
 * Load generation: autocannon runs against a bench server, alone or taking turns with others, and
 * the requests they send.
 */
import { addDays, BADGES_PATH, londonDay, MOTION_SOURCES } from "@charity-steps/shared-types";
import autocannon from "autocannon";
import type { RunningServer } from "./server-process.js";

export const CONNECTIONS = 50;

/** Seconds of measured load per run, and of warm-up before it; `rounds` for `alternating` (ROUNDS unless set). */
export interface LoadRun {
  seconds: number;
  warmup: number;
  rounds?: number;
}

export interface LoadResult {
  rps: number;
  p99: number;
  non2xx: number;
  errors: number;
  total: number;
}

export interface Request {
  method: "GET" | "POST";
  path: string;
  headers?: Record<string, string>;
  body?: string;
}

/** Where a load run goes, what it sends, and at how many connections. */
export interface Side {
  server: RunningServer;
  title: string;
  next: (random: () => number) => Request;
  connections: number;
}

/** One autocannon run of `seconds`; with `latencies`, every response's time (ms) is added to it. */
async function loadOnce(side: Side, seconds: number, latencies?: number[]): Promise<LoadResult> {
  const { server, title, next, connections } = side;
  // autocannon's promise is also its event emitter, which tells of each response.
  const tracker = autocannon({
    title,
    url: `http://127.0.0.1:${server.port}`,
    connections,
    duration: seconds,
    requests: [{ setupRequest: (request) => ({ ...request, ...next(Math.random) }) }],
  }) as unknown as autocannon.Instance & PromiseLike<autocannon.Result>;
  if (latencies) {
    tracker.on("response", (_client: unknown, _status: number, _bytes: number, ms: number) => {
      latencies.push(ms);
    });
  }
  const result = await tracker;
  return {
    rps: result.requests.average,
    p99: result.latency.p99,
    non2xx: result.non2xx,
    errors: result.errors + result.timeouts,
    total: result.requests.total,
  };
}

/** `seconds` of load at `connections` connections after `warmup` seconds of the same, not counted. */
export async function load(
  server: RunningServer,
  title: string,
  run: LoadRun,
  next: (random: () => number) => Request,
  connections = CONNECTIONS,
): Promise<LoadResult> {
  const side = { server, title, next, connections };
  if (run.warmup > 0) await loadOnce(side, run.warmup);
  return loadOnce(side, run.seconds);
}

/** The sync route's side of an `alternating` measurement, on `server`'s walkers. */
export function syncSide(server: RunningServer, title: string): Side {
  return { server, title, next: syncRequests(server.cookies), connections: CONNECTIONS };
}

/**
 * A read of a random walker's badges, on `server`'s walkers: about ten queries built by Kysely (the
 * walker's badges, goals, best day and month, runs of days), the API's read most made of them.
 */
export function badgesSide(server: RunningServer, title: string): Side {
  const next = (random: () => number): Request => ({
    method: "GET",
    path: BADGES_PATH,
    headers: { cookie: pick(server.cookies, random) },
  });
  return { server, title, next, connections: CONNECTIONS };
}

/** Rounds in which the sides of an `alternating` measurement take turns. */
export const ROUNDS = 3;

/**
 * Loads the sides in turn: one warm-up each, then ROUNDS rounds of `seconds / ROUNDS` each, so
 * that a machine whose speed drifts during the run (this one does, by up to ±30%) slows each side
 * alike. Each side's rate is its requests over its seconds, and its p99 is exact, taken over every
 * one of its responses. After each turn its server is asked to finish the work the turn's requests
 * left for later (a sync's look at badges comes five seconds on), and the time that takes counts in
 * the side's seconds: else that work would run in the next side's turn, and be charged to it.
 */
export async function alternating(sides: Side[], run: LoadRun): Promise<LoadResult[]> {
  if (run.warmup > 0) {
    for (const side of sides) {
      await loadOnce(side, run.warmup);
      await side.server.settle();
    }
  }
  const rounds = run.rounds ?? ROUNDS;
  const seconds = Math.max(1, Math.round(run.seconds / rounds));
  const pooled = sides.map((side) => ({
    side,
    latencies: [] as number[],
    total: 0,
    non2xx: 0,
    errors: 0,
    settling: 0,
  }));
  for (let round = 0; round < rounds; round++) {
    for (const sum of pooled) {
      const result = await loadOnce(sum.side, seconds, sum.latencies);
      const started = performance.now();
      await sum.side.server.settle();
      sum.settling += (performance.now() - started) / 1000;
      sum.total += result.total;
      sum.non2xx += result.non2xx;
      sum.errors += result.errors;
    }
  }
  return pooled.map((sum) => ({
    rps: sum.total / (seconds * rounds + sum.settling),
    p99: Math.round(percentile(sum.latencies, 0.99) * 10) / 10,
    non2xx: sum.non2xx,
    errors: sum.errors,
    total: sum.total,
  }));
}

function percentile(values: number[], fraction: number): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.max(0, Math.ceil(sorted.length * fraction) - 1)] ?? 0;
}

/**
 * The days back a bench sync may name: four weeks, whatever the date. A sync raises a counter only
 * when its count is the highest yet, so how many counters share the load decides how much of it
 * writes: days of this month alone left two counters per walker on the 1st and sixty on the 30th,
 * and the figures moved with the calendar.
 */
export const SYNC_DAYS = 28;

/** Random walker, device, day of the last `SYNC_DAYS` up to today (London) and steps; duplicates included. */
export function syncRequests(cookies: string[]) {
  const today = londonDay();
  return (random: () => number): Request => ({
    method: "POST",
    path: "/api/steps/sync",
    headers: {
      "content-type": "application/json",
      "sec-fetch-site": "same-origin",
      cookie: pick(cookies, random),
      "x-device-id": `phone-${Math.floor(random() * 2)}`,
    },
    body: JSON.stringify({
      steps: Math.floor(random() * 20_000),
      date: addDays(today, -Math.floor(random() * SYNC_DAYS)),
      source: pick(MOTION_SOURCES, random),
    }),
  });
}

export function pick<T>(items: readonly T[], random: () => number): T {
  const item = items[Math.floor(random() * items.length)];
  if (item === undefined) throw new Error("nothing to pick from");
  return item;
}

export function describeErrors(result: LoadResult): string {
  const parts: string[] = [];
  if (result.non2xx > 0) parts.push(`${result.non2xx} non-2xx`);
  if (result.errors > 0) parts.push(`${result.errors} errors`);
  return parts.length > 0 ? ` (${parts.join(", ")} of ${result.total})` : "";
}
