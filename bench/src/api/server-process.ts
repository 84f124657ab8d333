/**
 * The bench's API servers: each a child process running `server.ts` (the API on a prepared
 * database, or the bare-Fastify reference) as production runs the API, started and stopped here.
 */
import { type ChildProcess, fork, spawnSync } from "node:child_process";
import { randomBytes } from "node:crypto";
import { readFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { freePort } from "@charity-steps/e2e/support/ports";
import { bundleApiInCache } from "../../../api/scripts/bundle.mjs";
import { type Dialect, postgresDatabase, sqliteDatabase } from "./databases.js";
import type { SeedPlan, ServerMessage } from "./protocol.js";

export interface RunningServer {
  pid: number;
  port: number;
  cookies: string[];
  groups: Record<number, number>;
  challenges: Record<number, string>;
  /** The server's heap in MB right after a full garbage collection. */
  heap(): Promise<number>;
  /**
   * Resolves once the work the server's requests left for later is done: the looks at walkers'
   * badges that syncs ask for a few seconds on, made now.
   */
  settle(): Promise<void>;
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
      // BENCH_TRACE_GC=1: each server prints a line per garbage collection, with its pause.
      ...(process.env.BENCH_TRACE_GC ? ["--trace-gc"] : []),
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
    challenges: message.challenges,
    heap: async () => {
      const reply = await ask(child, "heap");
      return reply.kind === "heap" ? reply.heapUsedMb : 0;
    },
    settle: async () => {
      await ask(child, "settle");
    },
    stop: () => stopChild(child),
  };
}

/** Asks the child for `kind`, and waits for its answer (`heap` for "heap", `settled` for "settle"). */
function ask(child: ChildProcess, kind: "heap" | "settle"): Promise<ServerMessage> {
  const answerKind = kind === "heap" ? "heap" : "settled";
  return new Promise((resolve) => {
    const answer = (reply: ServerMessage) => {
      if (reply.kind !== answerKind) return;
      child.off("message", answer);
      resolve(reply);
    };
    child.on("message", answer);
    child.send({ kind });
  });
}

function apiNodeFlags(root: string): string[] {
  return (
    JSON.parse(readFileSync(join(root, "scripts", "api-node-flags.json"), "utf8")) as { flags: string[] }
  ).flags;
}

let compiled: Promise<string> | undefined;

/**
 * The servers run as production runs the API: plain Node on one bundled file (tsx's loader alone
 * would add tens of megabytes to the memory figures). So the API is built first, and the child's
 * own script is bundled with it and its packages as `pnpm build` bundles the API's server.
 */
async function compiledServer(root: string): Promise<string> {
  compiled ??= (async () => {
    const built = spawnSync("pnpm", ["--filter", "./shared-types", "--filter", "./api", "run", "build"], {
      cwd: root,
      encoding: "utf8",
    });
    if (built.status !== 0) throw new Error(`building the API failed:\n${built.stdout}${built.stderr}`);
    const outdir = await bundleApiInCache("charity-steps-bench-server", {
      workingDir: join(root, "bench"),
      entryPoints: { server: "./src/api/server.ts" },
    });
    return join(outdir, "server.js");
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
export async function withApp<T>(
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

export function residentMegabytes(pid: number): number | null {
  try {
    const match = /^VmRSS:\s+(\d+) kB/m.exec(readFileSync(`/proc/${pid}/status`, "utf8"));
    return match ? Number(match[1]) / 1024 : null;
  } catch {
    return null;
  }
}
