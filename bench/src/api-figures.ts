/**
 * The API's figures: sync path (throughput beside a bare Fastify route, p99 latency, cost
 * with 1,000,000 day rows of history), leaderboard and dashboard latency, and resident memory under
 * load. Each server runs in a child process (`api/server.ts`); autocannon in this process is the load.
 */
import { type ChildProcess, fork, spawnSync } from "node:child_process";
import { randomBytes } from "node:crypto";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { createRequire } from "node:module";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { addDays, londonDay, MOTION_SOURCES } from "@charity-steps/shared-types";
import autocannon from "autocannon";
import * as esbuild from "esbuild";
import { freePort } from "../../e2e/support/app-server.js";
import type { SeedPlan, ServerMessage } from "./api/protocol.js";
import {
  type BenchContext,
  bounded,
  type Figure,
  type FigureGroup,
  notMeasured,
  relative,
} from "./figure.js";

const CONNECTIONS = 50;
/**
 * The leaderboard's and dashboard's budgets are the latency of one request: at 50 connections a
 * request would mostly wait behind 49 others (p99 ≈ 50 × service time), so they run one at a time.
 */
const READ_CONNECTIONS = 1;
const LOCAL_POSTGRES = "postgres://postgres:postgres@127.0.0.1:5432/postgres";

type Dialect = "sqlite" | "postgres";

interface Settings {
  quick: boolean;
  /** Seconds of measured load per run, and of warm-up before it. */
  seconds: number;
  warmup: number;
  walkers: number;
  historyRows: number;
  groupSizes: number[];
  memorySeconds: number;
}

function settings(quick: boolean): Settings {
  return quick
    ? {
        quick,
        seconds: 1,
        warmup: 1,
        walkers: 100,
        historyRows: 10_000,
        groupSizes: [10, 100, 1000],
        memorySeconds: 2,
      }
    : {
        quick,
        seconds: 10,
        warmup: 3,
        walkers: 1000,
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
      const turns = `${ROUNDS} rounds each, taking turns with bare Fastify and the route without the ledger`;
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
            note: `${ROUNDS} rounds each, taking turns with a server on an empty ledger; p99 ${history.p99} ms (empty ${alongside.p99} ms)${describeErrors(history)}`,
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
      figures.push(
        notMeasured(
          `leaderboard p99, ${rows(largest)} members, 1 connection (${label})`,
          "ms",
          "≤ 100 ms",
          why,
        ),
      );
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
      // The sizes take turns, so that the growth compares sizes measured under the same conditions.
      const results = await alternating(
        run.groupSizes.map((size) => ({
          server,
          title: `leaderboard ${size} ${label}`,
          next: (random: () => number): Request => ({
            method: "GET",
            path: `/api/groups/${server.groups[size]}/leaderboard`,
            headers: { cookie: pick(server.cookies, random) },
          }),
          connections: READ_CONNECTIONS,
        })),
        run,
      );
      const p99s: number[] = [];
      for (const [index, size] of run.groupSizes.entries()) {
        const result = results[index];
        if (!result) continue;
        log(
          `leaderboard ${size} (${label}): ${result.rps.toFixed(0)} req/s, p99 ${result.p99} ms${describeErrors(result)}`,
        );
        p99s.push(result.p99);
        const name = `leaderboard p99, ${rows(size)} members, 1 connection (${label})`;
        figures.push(
          size === largest
            ? bounded({ name, value: result.p99, unit: "ms", limit: 100, ...note(result) }, run.quick)
            : { name, value: result.p99, unit: "ms", budget: "(growth, below)", pass: null, ...note(result) },
        );
      }
      const [, middle, top] = p99s;
      if (middle !== undefined && top !== undefined) {
        const sizes = run.groupSizes;
        figures.push(
          relative(
            {
              name: `leaderboard growth ${rows(sizes[2] ?? 0)}/${rows(sizes[1] ?? 0)} members (${label})`,
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

// ---------------------------------------------------------------------------------------------
// Servers

export interface RunningServer {
  pid: number;
  port: number;
  cookies: string[];
  groups: Record<number, number>;
  /** The server's heap in MB right after a full garbage collection. */
  heap(): Promise<number>;
  stop(): Promise<void>;
}

export async function startServer(
  root: string,
  options: { kind: "bare" } | { kind: "app"; databaseUrl: string; plan: SeedPlan },
): Promise<RunningServer> {
  const port = await freePort();
  const env: Record<string, string> = {
    ...(process.env as Record<string, string>),
    BENCH_SERVER: options.kind,
    BENCH_ROOT: root,
    PORT: String(port),
    LOG_LEVEL: "silent",
    WEB_DIST_DIR: "none",
  };
  if (options.kind === "app") {
    env.DATABASE_URL = options.databaseUrl;
    env.DATA_DIR = tmpdir();
    env.BENCH_SEED = JSON.stringify(options.plan);
    env.SESSION_SECRET = randomBytes(32).toString("hex");
  }
  const child = fork(await compiledServer(root), [], {
    cwd: join(root, "bench"),
    env,
    execArgv: [
      // The API's production flags (pnpm start and the Dockerfile use them too).
      ...apiNodeFlags(root),
      // So that the bench can ask for the heap after a full collection (`heap()`).
      "--expose-gc",
      // BENCH_CPU_PROF=<dir>: each server writes a V8 CPU profile there (open it in Chrome DevTools).
      ...(process.env.BENCH_CPU_PROF ? ["--cpu-prof", `--cpu-prof-dir=${process.env.BENCH_CPU_PROF}`] : []),
    ],
    stdio: ["ignore", "inherit", "inherit", "ipc"],
  });
  const message = await new Promise<ServerMessage & { kind: "listening" }>((resolve, reject) => {
    child.once("message", (message) => resolve(message as ServerMessage & { kind: "listening" }));
    child.once("exit", (code) =>
      reject(new Error(`the ${options.kind} server exited (${code}) before listening`)),
    );
    child.once("error", reject);
  });
  return {
    pid: child.pid ?? 0,
    port: message.port,
    cookies: message.cookies,
    groups: message.groups,
    heap: () =>
      new Promise<number>((resolve) => {
        const answer = (reply: ServerMessage) => {
          if (reply.kind !== "heap") return;
          child.off("message", answer);
          resolve(reply.heapUsedMb);
        };
        child.on("message", answer);
        child.send({ kind: "heap" });
      }),
    stop: () => stopChild(child),
  };
}

function apiNodeFlags(root: string): string[] {
  return (
    JSON.parse(readFileSync(join(root, "scripts", "api-node-flags.json"), "utf8")) as { flags: string[] }
  ).flags;
}

let compiled: Promise<string> | undefined;

/**
 * The servers run as production runs the API: plain Node on the compiled `api/dist` (tsx's loader
 * alone would add tens of megabytes to the memory figures). So the API is built first, and the
 * child's own script is bundled to JavaScript, its packages left to Node to resolve.
 */
async function compiledServer(root: string): Promise<string> {
  compiled ??= (async () => {
    const built = spawnSync("pnpm", ["--filter", "./shared-types", "--filter", "./api", "run", "build"], {
      cwd: root,
      encoding: "utf8",
    });
    if (built.status !== 0) throw new Error(`building the API failed:\n${built.stdout}${built.stderr}`);
    const outfile = join(root, "bench", ".cache", "server.mjs");
    await esbuild.build({
      entryPoints: [join(root, "bench", "src", "api", "server.ts")],
      outfile,
      bundle: true,
      platform: "node",
      format: "esm",
      target: "node20",
      packages: "external",
      logLevel: "warning",
    });
    return outfile;
  })();
  return compiled;
}

async function stopChild(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  const exited = new Promise<void>((resolve) => child.once("exit", () => resolve()));
  child.send({ kind: "stop" });
  const timeout = setTimeout(() => child.kill("SIGKILL"), 10_000);
  await exited;
  clearTimeout(timeout);
}

/** Runs `work` against the API on a fresh database prepared by `plan`, then drops both. */
async function withApp<T>(
  root: string,
  dialect: Dialect,
  postgresUrl: string | null,
  plan: SeedPlan,
  work: (server: RunningServer) => Promise<T>,
): Promise<T> {
  const database = dialect === "sqlite" ? sqliteDatabase() : await postgresDatabase(root, postgresUrl ?? "");
  try {
    const server = await startServer(root, { kind: "app", databaseUrl: database.url, plan });
    try {
      return await work(server);
    } finally {
      await server.stop();
    }
  } finally {
    await database.drop();
  }
}

interface BenchDatabase {
  url: string;
  drop(): Promise<void>;
}

export function sqliteDatabase(): BenchDatabase {
  const dir = mkdtempSync(join(tmpdir(), "charity-steps-bench-"));
  return { url: join(dir, "bench.db"), drop: async () => rmSync(dir, { recursive: true, force: true }) };
}

interface PgClient {
  connect(): Promise<void>;
  query(text: string): Promise<unknown>;
  end(): Promise<void>;
}
type PgModule = {
  Client: new (options: { connectionString: string; connectionTimeoutMillis?: number }) => PgClient;
};

/** pg as the API loads it (it is the API's dependency, not the bench's). */
function loadPg(root: string): PgModule {
  return createRequire(join(root, "api", "package.json"))("pg") as PgModule;
}

async function adminQuery(root: string, adminUrl: string, text: string): Promise<void> {
  const client = new (loadPg(root).Client)({ connectionString: adminUrl, connectionTimeoutMillis: 3000 });
  await client.connect();
  try {
    await client.query(text);
  } finally {
    await client.end();
  }
}

async function postgresDatabase(root: string, adminUrl: string): Promise<BenchDatabase> {
  const name = `cs_bench_${randomBytes(6).toString("hex")}`;
  await adminQuery(root, adminUrl, `create database ${name}`);
  const url = new URL(adminUrl);
  url.pathname = `/${name}`;
  return {
    url: url.href,
    drop: () => adminQuery(root, adminUrl, `drop database if exists ${name} with (force)`),
  };
}

/** DATABASE_URL or TEST_DATABASE_URL when either names PostgreSQL, else the local cluster, if it answers. */
async function findPostgres(
  root: string,
): Promise<{ url: string | null; why: string; close(): Promise<void> }> {
  const candidates = [process.env.DATABASE_URL, process.env.TEST_DATABASE_URL, LOCAL_POSTGRES].filter(
    (url): url is string => url !== undefined && /^postgres(ql)?:\/\//.test(url),
  );
  const problems: string[] = [];
  for (const url of candidates) {
    try {
      await adminQuery(root, url, "select 1");
      return { url, why: "", close: async () => {} };
    } catch (error) {
      problems.push(`${new URL(url).host}: ${error instanceof Error ? error.message : String(error)}`);
    }
  }
  return { url: null, why: `no PostgreSQL reachable (${problems.join("; ")})`, close: async () => {} };
}

export function residentMegabytes(pid: number): number | null {
  try {
    const match = /^VmRSS:\s+(\d+) kB/m.exec(readFileSync(`/proc/${pid}/status`, "utf8"));
    return match ? Number(match[1]) / 1024 : null;
  } catch {
    return null;
  }
}

// ---------------------------------------------------------------------------------------------
// Load

interface LoadResult {
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
interface Side {
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
async function load(
  server: RunningServer,
  title: string,
  run: Pick<Settings, "seconds" | "warmup">,
  next: (random: () => number) => Request,
  connections = CONNECTIONS,
): Promise<LoadResult> {
  const side = { server, title, next, connections };
  if (run.warmup > 0) await loadOnce(side, run.warmup);
  return loadOnce(side, run.seconds);
}

/** The sync route's side of an `alternating` measurement, on `server`'s walkers. */
function syncSide(server: RunningServer, title: string): Side {
  return { server, title, next: syncRequests(server.cookies), connections: CONNECTIONS };
}

/** Rounds in which the sides of an `alternating` measurement take turns. */
const ROUNDS = 3;

/**
 * Loads the sides in turn: one warm-up each, then ROUNDS rounds of `seconds / ROUNDS` each, so
 * that a machine whose speed drifts during the run (this one does, by up to ±30%) slows each side
 * alike. Each side's rate is its requests over its seconds, and its p99 is exact, taken over every
 * one of its responses.
 */
async function alternating(sides: Side[], run: Pick<Settings, "seconds" | "warmup">): Promise<LoadResult[]> {
  if (run.warmup > 0) for (const side of sides) await loadOnce(side, run.warmup);
  const seconds = Math.max(1, Math.round(run.seconds / ROUNDS));
  const pooled = sides.map((side) => ({ side, latencies: [] as number[], total: 0, non2xx: 0, errors: 0 }));
  for (let round = 0; round < ROUNDS; round++) {
    for (const sum of pooled) {
      const result = await loadOnce(sum.side, seconds, sum.latencies);
      sum.total += result.total;
      sum.non2xx += result.non2xx;
      sum.errors += result.errors;
    }
  }
  return pooled.map((sum) => ({
    rps: sum.total / (seconds * ROUNDS),
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

/** Random walker, device, day of this month up to today (London) and steps; duplicates included. */
export function syncRequests(cookies: string[]) {
  const today = londonDay();
  const dayOfMonth = Number(today.slice(8, 10));
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
      date: addDays(today, -Math.floor(random() * dayOfMonth)),
      source: pick(MOTION_SOURCES, random),
    }),
  });
}

function syncPlan(run: Settings, historyRows: number): SeedPlan {
  return { walkers: run.walkers, sessions: run.walkers, historyRows, monthDays: 0, groups: [] };
}

// ---------------------------------------------------------------------------------------------
// Small things

export function pick<T>(items: readonly T[], random: () => number): T {
  const item = items[Math.floor(random() * items.length)];
  if (item === undefined) throw new Error("nothing to pick from");
  return item;
}

const round = (value: number) => Math.round(value * 10) / 10;
const average = (values: number[]) =>
  values.reduce((sum, value) => sum + value, 0) / Math.max(1, values.length);
const rows = (count: number) =>
  count >= 1_000_000 ? `${count / 1_000_000}M` : count >= 1000 ? `${count / 1000}k` : String(count);

function describeErrors(result: LoadResult): string {
  const parts: string[] = [];
  if (result.non2xx > 0) parts.push(`${result.non2xx} non-2xx`);
  if (result.errors > 0) parts.push(`${result.errors} errors`);
  return parts.length > 0 ? ` (${parts.join(", ")} of ${result.total})` : "";
}

function note(result: LoadResult): { note?: string } {
  const errors = describeErrors(result).trim();
  return errors ? { note: errors.slice(1, -1) } : {};
}
