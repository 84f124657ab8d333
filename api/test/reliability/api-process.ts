import { type ChildProcess, spawn } from "node:child_process";
import { randomBytes } from "node:crypto";
import { tmpdir } from "node:os";
import { fileURLToPath } from "node:url";
import { inject } from "vitest";
import { SESSION_TTL_MS } from "../../src/auth/sessions.js";
import type { Database } from "../../src/db/database.js";
import { SessionsRepository } from "../../src/repositories/sessions.js";
import { UsersRepository } from "../../src/repositories/users.js";
import { TEST_PASSWORD_HASH_COST } from "../helper.js";
import { dateShift } from "../support/shifted-date.js";

const apiRoot = fileURLToPath(new URL("../..", import.meta.url));

export interface ApiProcess {
  origin: string;
  pid: number;
  /** Everything the process wrote, for a failure message. */
  output(): string;
  kill(signal: NodeJS.Signals): Promise<void>;
}

/**
 * The API as its own operating-system process (src/server.ts, bundled for the run), listening on `port`:
 * what a test needs to kill it mid-request or to run two of them on one database. Its clock is the
 * test's (useTestClock), so that both have the same today.
 */
export async function startApiProcess(options: {
  databaseUrl: string;
  port: number;
  publicUrl?: string;
  sessionSecret: string;
  /** Where the process keeps its files (mail written as .eml when there is no SMTP server). */
  dataDir?: string;
}): Promise<ApiProcess> {
  const origin = `http://127.0.0.1:${options.port}`;
  let output = "";
  const child: ChildProcess = spawn(process.execPath, serverProcessArgs(), {
    cwd: apiRoot,
    env: {
      ...process.env,
      DATABASE_URL: options.databaseUrl,
      PORT: String(options.port),
      HOST: "127.0.0.1",
      PUBLIC_URL: options.publicUrl ?? origin,
      DATA_DIR: options.dataDir ?? tmpdir(),
      WEB_DIST_DIR: "none",
      LOG_LEVEL: "warn",
      SESSION_SECRET: options.sessionSecret,
      PASSWORD_HASH_COST: TEST_PASSWORD_HASH_COST,
      TEST_CLOCK_OFFSET_MS: String(dateShift()),
    },
    stdio: ["ignore", "pipe", "pipe"],
  });
  child.stdout?.on("data", (chunk) => {
    output += chunk;
  });
  child.stderr?.on("data", (chunk) => {
    output += chunk;
  });
  const exited = new Promise<void>((resolve) => child.once("exit", () => resolve()));
  const deadline = Date.now() + 60_000;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`the API exited with ${child.exitCode}:\n${output}`);
    try {
      if ((await fetch(`${origin}/api/health`)).ok) break;
    } catch {
      // Not listening yet.
    }
    if (Date.now() > deadline) throw new Error(`the API did not start in time:\n${output}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  return {
    origin,
    pid: child.pid ?? 0,
    output: () => output,
    async kill(signal) {
      if (child.exitCode === null && child.signalCode === null) child.kill(signal);
      await exited;
    },
  };
}

/** Node's arguments for an API process of this run: the bundled server, with the test's clock. */
export function serverProcessArgs(): string[] {
  const bundle = inject("serverBundle");
  if (!bundle) throw new Error("This run bundled no server for API processes (API_TEST_PROCESSES=none)");
  return ["--enable-source-maps", "--import", bundle.clock, bundle.server];
}

export const newSessionSecret = () => randomBytes(32).toString("hex");

/**
 * `count` walkers (subjects `${prefix}-0`, `${prefix}-1`, …) with an open session each, written
 * straight into the database that the API processes share; their cookies, in order.
 */
export async function openSessions(database: Database, count: number, prefix: string): Promise<string[]> {
  const users = new UsersRepository(database.db);
  const sessions = new SessionsRepository(database.db, database.dialect);
  const cookies: string[] = [];
  for (let walker = 0; walker < count; walker++) {
    const user = await users.upsertFromIdentity({
      issuer: "https://issuer.test",
      subject: `${prefix}-${walker}`,
      email: `${prefix}-${walker}@example.org`,
      firstName: `Walker ${walker}`,
      lastName: prefix,
      pictureUrl: null,
    });
    cookies.push(`cs_session=${(await sessions.open(user.id, SESSION_TTL_MS)).token}`);
  }
  return cookies;
}
