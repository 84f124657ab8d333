import { type ChildProcess, spawn } from "node:child_process";
import { randomBytes } from "node:crypto";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import {
  type Mailbox,
  type MailServer,
  mailboxOf,
  type ReceivedMail,
  startMailServer,
} from "./mail-server.js";
import { freePort } from "./ports.js";

const repoRoot = fileURLToPath(new URL("../..", import.meta.url));

/**
 * Set by the e2e run's global setup (see app-server-pool.ts): the address of the pool that starts
 * the run's app servers. Without it (the bench, a script) each server is started here.
 */
export const APP_SERVER_POOL_ENV = "E2E_APP_SERVER_POOL";

/** The prize draw's postal address every test server gives (POSTAL_ENTRY_ADDRESS). */
export const POSTAL_ENTRY_ADDRESS = "Charity Steps Prize Draw\nPO Box 2026\nLittle Walking\nWK1 2AB";

export interface AppServer {
  origin: string;
  dataDir: string;
  /**
   * The server's one operator, as a walker would type it: OPERATOR_EMAILS lists it in capitals (any
   * case counts). Nobody has signed up with it yet.
   */
  operatorEmail: string;
  /** The mail the server has sent, through SMTP to a mail server the test's run holds. */
  mail: Mailbox;
  /** What the server has printed so far. */
  output: () => Promise<string>;
  stop(): Promise<void>;
}

export interface AppServerOptions {
  /** What a test adds to the server's environment, e.g. DRAW_AUTO_RUN=false. */
  env?: Record<string, string>;
}

/** A server started in this process, with its mail server. */
export interface LocalAppServer extends AppServer {
  received(): ReceivedMail[];
}

/**
 * An app server of its own for the caller, on a free port with a fresh data folder: the same SQLite
 * file, built-in sign-in and built PWA a new walker gets, with its mail sent to a mail server of its
 * own, one operator listed and a postal address for the prize draw. In the e2e run it comes from
 * the run's pool, which has it ready or starts it; elsewhere it is started here with the README's
 * start command (`pnpm start`, i.e. scripts/start.mjs).
 */
export async function startAppServer(options: AppServerOptions = {}): Promise<AppServer> {
  const pool = process.env[APP_SERVER_POOL_ENV];
  return pool ? serverFromPool(pool, options) : spawnAppServer("start", options);
}

async function serverFromPool(pool: string, options: AppServerOptions): Promise<AppServer> {
  const response = await fetch(`${pool}/servers`, {
    method: "POST",
    headers: { "Content-Type": "application/json" },
    body: JSON.stringify({ env: options.env ?? {} }),
  });
  if (!response.ok) throw new Error(await response.text());
  const { id, origin, dataDir, operatorEmail } = (await response.json()) as {
    id: string;
    origin: string;
    dataDir: string;
    operatorEmail: string;
  };
  return {
    origin,
    dataDir,
    operatorEmail,
    mail: mailboxOf(
      async () => (await fetch(`${pool}/servers/${id}/mail`)).json() as Promise<ReceivedMail[]>,
    ),
    output: async () => (await fetch(`${pool}/servers/${id}/output`)).text(),
    async stop() {
      const stopped = await fetch(`${pool}/servers/${id}`, { method: "DELETE" });
      if (!stopped.ok) throw new Error(await stopped.text());
    },
  };
}

/**
 * Starts a server: `start` runs scripts/start.mjs, which builds whatever is stale and then runs the
 * API; `api` runs the API straight away, as start.mjs would once the build is fresh.
 */
export async function spawnAppServer(
  how: "start" | "api",
  options: AppServerOptions = {},
): Promise<LocalAppServer> {
  // A free port can still be taken between the check and the server's own listen; the server then
  // exits at once, and another port is tried.
  for (let attempt = 1; ; attempt++) {
    try {
      return await launchAppServer(how, options);
    } catch (error) {
      if (!(error instanceof PortTaken) || attempt === 3) throw error;
    }
  }
}

class PortTaken extends Error {}

async function launchAppServer(how: "start" | "api", options: AppServerOptions): Promise<LocalAppServer> {
  const mailServer: MailServer = await startMailServer();
  const operatorEmail = `olive.operator.${randomBytes(4).toString("hex")}@example.org`;
  const port = await freePort();
  const origin = `http://localhost:${port}`;
  const dataDir = mkdtempSync(join(tmpdir(), "charity-steps-e2e-"));
  let output = "";
  const args =
    how === "start"
      ? [join(repoRoot, "scripts/start.mjs")]
      : [...apiNodeFlags(), join(repoRoot, "api/dist/server.js")];
  const child: ChildProcess = spawn(process.execPath, args, {
    cwd: repoRoot,
    env: {
      ...process.env,
      PORT: String(port),
      PUBLIC_URL: origin,
      DATA_DIR: dataDir,
      LOG_LEVEL: "warn",
      SMTP_URL: mailServer.url,
      OPERATOR_EMAILS: operatorEmail.toUpperCase(),
      POSTAL_ENTRY_ADDRESS,
      // scrypt at 2^10 instead of production's 2^15: every test signs walkers up, and at full cost
      // their hashing was a good part of the servers' work. The API's own tests time sign-ins at
      // production's cost.
      PASSWORD_HASH_COST: "10",
      ...options.env,
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
  const stop = async () => {
    if (child.exitCode === null && child.signalCode === null) child.kill("SIGTERM");
    await exited;
    await mailServer.close();
    rmSync(dataDir, { recursive: true, force: true });
  };

  const deadline = Date.now() + 240_000;
  for (;;) {
    if (child.exitCode !== null) {
      await stop();
      const message = `The app server exited with ${child.exitCode}:\n${output}`;
      throw output.includes("EADDRINUSE") ? new PortTaken(message) : new Error(message);
    }
    try {
      // Bounded: whatever else holds the port may take the connection and never answer.
      const response = await fetch(`${origin}/api/health`, { signal: AbortSignal.timeout(2_000) });
      if (response.ok) break;
    } catch {
      // Not listening yet.
    }
    if (Date.now() > deadline) {
      await stop();
      throw new Error(`The app server did not answer in time:\n${output}`);
    }
    await new Promise((resolve) => setTimeout(resolve, 100));
  }

  return {
    origin,
    dataDir,
    operatorEmail,
    mail: mailServer,
    received: () => mailServer.received(),
    output: async () => output,
    stop,
  };
}

/** The Node flags `pnpm start` runs the API with. */
function apiNodeFlags(): string[] {
  const file = join(repoRoot, "scripts/api-node-flags.json");
  return (JSON.parse(readFileSync(file, "utf8")) as { flags: string[] }).flags;
}
