/**
 * The API's figures: sync path (throughput beside a bare Fastify route, p99 latency, cost
 * with 1,000,000 day rows of history), leaderboard and dashboard latency, and resident memory under
 * load. Each server runs in a child process (`server.ts`); autocannon in this process is the load.
 */
import { randomBytes } from "node:crypto";
import {
  type BenchContext,
  bounded,
  type Figure,
  type FigureGroup,
  notMeasured,
  relative,
} from "../figure.js";
import { findPostgres } from "./databases.js";
import {
  alternating,
  CONNECTIONS,
  describeErrors,
  type LoadResult,
  load,
  pick,
  type Request,
  ROUNDS,
  type Side,
  syncRequests,
  syncSide,
} from "./load.js";
import type { SeedPlan } from "./protocol.js";
import { type RunningServer, residentMegabytes, startServer, withApp } from "./server-process.js";

/**
 * The leaderboard's and dashboard's budgets are the latency of one request: at 50 connections a
 * request would mostly wait behind 49 others (p99 ≈ 50 × service time), so they run one at a time.
 */
const READ_CONNECTIONS = 1;

/**
 * Walkers the sync figures spread their load over (`BENCH_WALKERS`, 1,000 unless set). At 1,000 each
 * walker syncs several times a second, so the look at badges that follows a raising sync serves
 * many; with tens of thousands each raising sync has a look of its own, as phones' syncs do.
 */
function syncWalkers(): number {
  const walkers = Number(process.env.BENCH_WALKERS ?? 1000);
  if (!Number.isInteger(walkers) || walkers < 1 || walkers > 1_000_000) {
    throw new Error(
      `BENCH_WALKERS must be a whole number from 1 to 1,000,000, not "${process.env.BENCH_WALKERS}"`,
    );
  }
  return walkers;
}

interface Settings {
  quick: boolean;
  /** Seconds of measured load per run, and of warm-up before it; rounds of turns. */
  seconds: number;
  warmup: number;
  rounds: number;
  walkers: number;
  historyRows: number;
  groupSizes: number[];
  memorySeconds: number;
}

function settings(quick: boolean): Settings {
  return quick
    ? // Every figure's code runs once, as briefly as it can: CI keeps the harness working with it.
      {
        quick,
        seconds: 1,
        warmup: 0,
        rounds: 1,
        walkers: 100,
        historyRows: 2_000,
        groupSizes: [10, 100, 1000],
        memorySeconds: 1,
      }
    : {
        quick,
        seconds: 10,
        warmup: 3,
        rounds: ROUNDS,
        walkers: syncWalkers(),
        historyRows: 1_000_000,
        groupSizes: [100, 1000, 10_000],
        memorySeconds: 60,
      };
}

export const measureApi: FigureGroup = async (context: BenchContext) => {
  const run = settings(context.quick);
  const figures: Figure[] = [];
  const log = (text: string) => process.stdout.write(`  ${text}\n`);
  const postgres = await findPostgres(context.root);
  if (postgres.url === null) log(`PostgreSQL: not measured (${postgres.why})`);

  // The reference: a bare Fastify route, same process settings. It answers the very requests the
  // sync route gets (method, path, headers, cookie and JSON body, which Fastify parses), so that the
  // ratio is the app's cost over Fastify's, not also the cost of the bigger request: autocannon
  // builds and sends it on the same two cores. It stays up through the sync figures and takes
  // turns with the routes it bounds, so that the machine's drift slows each alike.
  const bareServer = await startServer(context.root, { kind: "bare" });
  let bareRss = 0;
  const bareTimer = setInterval(() => {
    bareRss = Math.max(bareRss, residentMegabytes(bareServer.pid) ?? 0);
  }, 500);
  const bareSide: Side = {
    server: bareServer,
    title: "bare",
    // Cookies of the same shape as the app's; bare Fastify reads none of them.
    next: syncRequests(
      Array.from({ length: 1000 }, () => `cs_session=${randomBytes(32).toString("base64url")}`),
    ),
    connections: CONNECTIONS,
  };

  // 1. The sync path, empty ledger and with history, per dialect.
  try {
    for (const dialect of ["sqlite", "postgres"] as const) {
      const label = dialect === "sqlite" ? "SQLite" : "PostgreSQL";
      const minRatio = dialect === "sqlite" ? 0.5 : 0.35;
      const budget = `≥ ${minRatio * 100}% of bare Fastify`;
      if (dialect === "postgres" && postgres.url === null) {
        const why = postgres.why;
        figures.push(notMeasured(`sync throughput (${label})`, "req/s", budget, why));
        figures.push(notMeasured(`sync p99 at ${CONNECTIONS} connections (${label})`, "ms", "≤ 25 ms", why));
        figures.push(
          notMeasured(`sync route without the ledger (${label})`, "req/s", "(reference: the ceiling)", why),
        );
        figures.push(
          notMeasured(`sync throughput, 1M day rows (${label})`, "req/s", "≥ 90% of empty ledger", why),
        );
        continue;
      }
      // The p99 comes from one steady run, on a ledger of its own (a ledger that has taken load
      // writes less: see the README): each turn starts with fifty new connections, which a walker's
      // phone does not open, and their start-up would weigh in three times over. Then the sync
      // route, bare Fastify and the same route with the ledger taken out (the ceiling) take turns.
      const steady = await withApp(context.root, dialect, postgres.url, syncPlan(run, 0), (server) =>
        load(server, `sync ${label}, steady`, run, syncRequests(server.cookies)),
      );
      const [bare, empty, ceiling] = await withApp(
        context.root,
        dialect,
        postgres.url,
        syncPlan(run, 0),
        (syncServer) =>
          withApp(
            context.root,
            dialect,
            postgres.url,
            { ...syncPlan(run, 0), withoutLedger: true },
            (ceilingServer) =>
              alternating(
                [
                  bareSide,
                  syncSide(syncServer, `sync ${label}`),
                  syncSide(ceilingServer, `sync ${label} without the ledger`),
                ],
                run,
              ),
          ),
      );
      if (!bare || !empty || !ceiling) throw new Error(`no sync run for ${label}`);
      log(`bare Fastify, in turns with ${label}: ${bare.rps.toFixed(0)} req/s, p99 ${bare.p99} ms`);
      log(
        `sync ${label}: ${empty.rps.toFixed(0)} req/s${describeErrors(empty)}; steady run p99 ${steady.p99} ms`,
      );
      log(`sync ${label} without the ledger: ${ceiling.rps.toFixed(0)} req/s, p99 ${ceiling.p99} ms`);
      const bareRef = { name: "bare Fastify, in turns", value: round(bare.rps), unit: "req/s" };
      const turns = `${run.walkers.toLocaleString("en-GB")} walkers, ${run.rounds} rounds each, taking turns with bare Fastify and the route without the ledger`;
      figures.push(
        relative(
          {
            name: `sync throughput (${label})`,
            value: round(empty.rps),
            unit: "req/s",
            reference: bareRef,
            minRatio,
            budget,
            note: `${turns}${describeErrors(empty)}`,
          },
          run.quick,
        ),
      );
      figures.push(
        bounded(
          {
            name: `sync p99 at ${CONNECTIONS} connections (${label})`,
            value: steady.p99,
            unit: "ms",
            limit: 25,
            note: `one steady run of ${run.seconds} s after ${run.warmup} s of warm-up (${steady.rps.toFixed(0)} req/s)${describeErrors(steady)}`,
          },
          run.quick,
        ),
      );
      figures.push({
        ...relative(
          {
            name: `sync route without the ledger (${label})`,
            value: round(ceiling.rps),
            unit: "req/s",
            reference: bareRef,
            budget: "(reference: the ceiling)",
            note: `session, validation and answer as above, the ledger answering at once (nothing read or written): the most the sync figure could reach; in the same turns; p99 ${ceiling.p99} ms${describeErrors(ceiling)}`,
          },
          run.quick,
        ),
        pass: null,
      });
      // The ledger with history beside an empty one, taking turns under the same load.
      const [alongside, history] = await withApp(
        context.root,
        dialect,
        postgres.url,
        syncPlan(run, 0),
        async (emptyServer) => {
          const started = Date.now();
          return withApp(
            context.root,
            dialect,
            postgres.url,
            syncPlan(run, run.historyRows),
            (historyServer) => {
              log(
                `seeded ${run.historyRows} day rows on ${label} in ${((Date.now() - started) / 1000).toFixed(1)} s`,
              );
              return alternating(
                [
                  syncSide(emptyServer, `sync ${label}, empty ledger`),
                  syncSide(historyServer, `sync ${label} with history`),
                ],
                run,
              );
            },
          );
        },
      );
      if (!alongside || !history) throw new Error(`no history run for ${label}`);
      log(
        `sync ${label}, ${run.historyRows} day rows: ${history.rps.toFixed(0)} req/s, p99 ${history.p99} ms; empty ledger in turns: ${alongside.rps.toFixed(0)} req/s, p99 ${alongside.p99} ms`,
      );
      figures.push(
        relative(
          {
            name: `sync throughput, ${rows(run.historyRows)} day rows (${label})`,
            value: round(history.rps),
            unit: "req/s",
            reference: { name: "empty ledger, in turns", value: round(alongside.rps), unit: "req/s" },
            minRatio: 0.9,
            budget: "≥ 90% of empty ledger",
            note: `${run.rounds} rounds each, taking turns with a server on an empty ledger; p99 ${history.p99} ms (empty ${alongside.p99} ms)${describeErrors(history)}`,
          },
          run.quick,
        ),
      );
    }
  } finally {
    clearInterval(bareTimer);
    await bareServer.stop();
  }

  // 2. Leaderboard by group size, and the dashboard's stats, on a month of data.
  for (const dialect of ["sqlite", "postgres"] as const) {
    const label = dialect === "sqlite" ? "SQLite" : "PostgreSQL";
    const largest = run.groupSizes.at(-1) ?? 0;
    if (dialect === "postgres" && postgres.url === null) {
      const why = postgres.why;
      for (const what of ["leaderboard", "challenge leaderboard"]) {
        figures.push(
          notMeasured(
            `${what} p99, ${rows(largest)} members, 1 connection (${label})`,
            "ms",
            "≤ 100 ms",
            why,
          ),
        );
      }
      figures.push(notMeasured(`dashboard stats p99, 1 connection (${label})`, "ms", "≤ 5 ms", why));
      continue;
    }
    const plan: SeedPlan = {
      walkers: largest,
      sessions: Math.min(100, run.groupSizes[0] ?? 100),
      historyRows: 0,
      monthDays: 31,
      groups: run.groupSizes,
    };
    await withApp(context.root, dialect, postgres.url, plan, async (server) => {
      // A group's leaderboard (this month), and a public challenge's (its days so far), by size.
      for (const board of [
        { what: "leaderboard", path: (size: number) => `/api/groups/${server.groups[size]}/leaderboard` },
        {
          what: "challenge leaderboard",
          path: (size: number) => `/api/challenges/${server.challenges[size]}/leaderboard`,
        },
      ]) {
        figures.push(...(await leaderboardBySize(server, board, label, run)));
      }
      const stats = await load(
        server,
        `dashboard ${label}`,
        run,
        (random) => ({
          method: "GET",
          path: "/api/dashboard/stats",
          headers: { cookie: pick(server.cookies, random) },
        }),
        READ_CONNECTIONS,
      );
      log(
        `dashboard stats (${label}): ${stats.rps.toFixed(0)} req/s, p99 ${stats.p99} ms${describeErrors(stats)}`,
      );
      figures.push(
        bounded(
          {
            name: `dashboard stats p99, 1 connection (${label})`,
            value: stats.p99,
            unit: "ms",
            limit: 5,
            ...note(stats),
          },
          run.quick,
        ),
      );
    });
    // What sharing saves: the same leaderboards with every request reading what is shared (a
    // challenge's standings, a group's marks of steps waiting for a check). A reference, not a
    // budget; the full run only.
    if (!run.quick) {
      const unshared: SeedPlan = { ...plan, groups: [largest], speed: { sharedStandings: false } };
      await withApp(context.root, dialect, postgres.url, unshared, async (server) => {
        const boards = [
          { what: "leaderboard", path: `/api/groups/${server.groups[largest]}/leaderboard` },
          {
            what: "challenge leaderboard",
            path: `/api/challenges/${server.challenges[largest]}/leaderboard`,
          },
        ];
        const results = await alternating(
          boards.map(({ what, path }) => ({
            server,
            title: `${what} read in full each time ${label}`,
            next: (random: () => number): Request => ({
              method: "GET",
              path,
              headers: { cookie: pick(server.cookies, random) },
            }),
            connections: READ_CONNECTIONS,
          })),
          run,
        );
        for (const [index, { what }] of boards.entries()) {
          const result = results[index];
          if (!result) continue;
          log(`${what} ${largest}, nothing shared (${label}): p99 ${result.p99} ms`);
          figures.push({
            name: `${what} p99, ${rows(largest)} members, nothing shared (${label})`,
            value: result.p99,
            unit: "ms",
            budget: "(reference: what sharing saves)",
            pass: null,
            ...note(result),
          });
        }
      });
    }
  }

  // 3. Resident memory of the API process under the sync load (SQLite).
  await withApp(context.root, "sqlite", null, syncPlan(run, 0), async (server) => {
    const samples: { at: number; rss: number }[] = [];
    const sample = () => {
      const rss = residentMegabytes(server.pid);
      if (rss !== null) samples.push({ at: Date.now(), rss });
    };
    sample();
    const timer = setInterval(sample, 500);
    let result: LoadResult;
    let warmedAt: number;
    try {
      await load(
        server,
        "memory warm-up",
        { ...run, warmup: 0, seconds: run.warmup },
        syncRequests(server.cookies),
      );
      warmedAt = Date.now();
      result = await load(
        server,
        "memory",
        { ...run, warmup: 0, seconds: run.memorySeconds },
        syncRequests(server.cookies),
      );
      sample();
    } finally {
      clearInterval(timer);
    }
    const end = Date.now();
    // A full collection changes how V8 sizes the heap after it, so the heap is only looked at once the
    // resident-memory figures are in: after the run, then after half as long again under the same load.
    const heapAfterRun = await server.heap();
    await load(
      server,
      "memory, heap",
      { ...run, warmup: 0, seconds: Math.max(1, Math.round(run.memorySeconds / 2)) },
      syncRequests(server.cookies),
    );
    const heapAtEnd = await server.heap();
    const window = Math.round(Math.min(10_000, (run.memorySeconds * 1000) / 3));
    const first = average(
      samples.filter((s) => s.at >= warmedAt && s.at < warmedAt + window).map((s) => s.rss),
    );
    const last = average(samples.filter((s) => s.at > end - window).map((s) => s.rss));
    const peak = Math.max(...samples.map((s) => s.rss));
    log(
      `memory: peak ${peak.toFixed(0)} MB, first ${first.toFixed(0)} MB, last ${last.toFixed(0)} MB over ${run.memorySeconds} s (${result.rps.toFixed(0)} req/s); heap after a full GC ${heapAfterRun.toFixed(1)} MB, ${Math.round(run.memorySeconds / 2)} s later ${heapAtEnd.toFixed(1)} MB`,
    );
    figures.push(
      bounded(
        {
          name: "API resident memory under sync load, peak (SQLite)",
          value: round(peak),
          unit: "MB",
          limit: 200,
          note: `${run.memorySeconds} s at ${CONNECTIONS} connections, sampled every 500 ms; bare Fastify in the same Node settings peaks at ${bareRss.toFixed(0)} MB`,
        },
        run.quick,
      ),
    );
    figures.push(
      relative(
        {
          name: `API resident memory, last vs first ${(window / 1000).toFixed(1)} s (SQLite)`,
          value: round(last),
          unit: "MB",
          reference: {
            name: `first ${(window / 1000).toFixed(1)} s after warm-up`,
            value: round(first),
            unit: "MB",
          },
          maxRatio: 1.1,
          budget: "flat: ≤ +10%",
        },
        run.quick,
      ),
    );
    // Resident memory also holds garbage V8 has not collected yet; the heap after a full collection
    // is what a leak would grow.
    figures.push(
      relative(
        {
          name: `API heap after a full GC, ${Math.round(run.memorySeconds / 2)} s more load (SQLite)`,
          value: round(heapAtEnd),
          unit: "MB",
          reference: { name: `after the ${run.memorySeconds} s run`, value: round(heapAfterRun), unit: "MB" },
          maxRatio: 1.1,
          budget: "flat: ≤ +10%",
        },
        run.quick,
      ),
    );
  });

  await postgres.close();
  return figures;
};

function syncPlan(run: Settings, historyRows: number): SeedPlan {
  return { walkers: run.walkers, sessions: run.walkers, historyRows, monthDays: 0, groups: [] };
}

const round = (value: number) => Math.round(value * 10) / 10;
const average = (values: number[]) =>
  values.reduce((sum, value) => sum + value, 0) / Math.max(1, values.length);
const rows = (count: number) =>
  count >= 1_000_000 ? `${count / 1_000_000}M` : count >= 1000 ? `${count / 1000}k` : String(count);

function note(result: LoadResult): { note?: string } {
  const errors = describeErrors(result).trim();
  return errors ? { note: errors.slice(1, -1) } : {};
}

/**
 * A leaderboard's p99 at each size, the sizes taking turns so that the growth compares sizes
 * measured under the same conditions: the largest bounded at 100 ms, and its growth over the middle
 * size at no worse than linear.
 */
async function leaderboardBySize(
  server: RunningServer,
  board: { what: string; path: (size: number) => string },
  label: string,
  run: Settings,
): Promise<Figure[]> {
  const figures: Figure[] = [];
  const sizes = run.groupSizes;
  const largest = sizes.at(-1) ?? 0;
  const results = await alternating(
    sizes.map((size) => ({
      server,
      title: `${board.what} ${size} ${label}`,
      next: (random: () => number): Request => ({
        method: "GET",
        path: board.path(size),
        headers: { cookie: pick(server.cookies, random) },
      }),
      connections: READ_CONNECTIONS,
    })),
    run,
  );
  const p99s: number[] = [];
  for (const [index, size] of sizes.entries()) {
    const result = results[index];
    if (!result) continue;
    process.stdout.write(
      `  ${board.what} ${size} (${label}): ${result.rps.toFixed(0)} req/s, p99 ${result.p99} ms${describeErrors(result)}\n`,
    );
    p99s.push(result.p99);
    const name = `${board.what} p99, ${rows(size)} members, 1 connection (${label})`;
    figures.push(
      size === largest
        ? bounded({ name, value: result.p99, unit: "ms", limit: 100, ...note(result) }, run.quick)
        : { name, value: result.p99, unit: "ms", budget: "(growth, below)", pass: null, ...note(result) },
    );
  }
  const [, middle, top] = p99s;
  if (middle !== undefined && top !== undefined) {
    figures.push(
      relative(
        {
          name: `${board.what} growth ${rows(sizes[2] ?? 0)}/${rows(sizes[1] ?? 0)} members (${label})`,
          value: top,
          unit: "ms",
          reference: { name: `p99 at ${rows(sizes[1] ?? 0)}`, value: Math.max(middle, 1), unit: "ms" },
          maxRatio: 10,
          budget: "≤ 10× (no worse than linear)",
          note: `p99 ${p99s.join(" / ")} ms at ${sizes.map(rows).join(" / ")} members`,
        },
        run.quick,
      ),
    );
  }
  return figures;
}
