/**
 * A child process of `pnpm bench`: the API (`BENCH_SERVER=app`) on a prepared database, or
 * the bare-Fastify reference (`BENCH_SERVER=bare`), listening on 127.0.0.1:`PORT` so that its memory
 * is its own and the load comes from the bench process. Tells the parent over IPC when it listens,
 * with the session cookies and group ids it made.
 */
import { createHash, randomBytes, randomUUID } from "node:crypto";
import { createRequire } from "node:module";
import { join } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { buildApp, loadConfig } from "@charity-steps/api";
import { addDays, londonDay } from "@charity-steps/shared-types";
import type { SeedPlan, ServerMessage } from "./protocol.js";

// The parent runs this bundled from bench/.cache, so it says where the repository is.
const root = process.env.BENCH_ROOT ?? fileURLToPath(new URL("../../..", import.meta.url));
// Fastify and Kysely are the API's dependencies, not the bench's: load the very copies the API uses.
const requireFromApi = createRequire(join(root, "api", "package.json"));

interface Listening {
  listen(options: { port: number; host: string }): Promise<unknown>;
  close(): Promise<unknown>;
}

const port = Number(process.env.PORT);
const send = (message: ServerMessage) => process.send?.(message);

async function bare(): Promise<Listening> {
  const { default: Fastify } = (await import(pathToFileURL(requireFromApi.resolve("fastify")).href)) as {
    default: (options: object) => Listening & {
      post(path: string, handler: () => Promise<object>): void;
    };
  };
  // The app's settings: a pino logger at LOG_LEVEL (silent), no proxy trust. It gets the sync
  // route's requests (Fastify parses their JSON body) and answers a small JSON.
  const app = Fastify({ logger: { level: process.env.LOG_LEVEL ?? "silent" }, trustProxy: false });
  app.post("/api/steps/sync", async () => ({ ok: true, hello: "world" }));
  return app;
}

interface RawSql {
  execute(db: unknown): Promise<{ rows: Record<string, unknown>[] }>;
}
type SqlTag = { raw(text: string): RawSql };

async function app(plan: SeedPlan) {
  const config = loadConfig({
    ...process.env,
    PORT: String(port),
    HOST: "127.0.0.1",
    PUBLIC_URL: `http://127.0.0.1:${port}`,
    WEB_DIST_DIR: "none",
    LOG_LEVEL: process.env.LOG_LEVEL ?? "silent",
  });
  const server = await buildApp(config, { speed: plan.speed });
  await server.ready();
  const { sql } = (await import(pathToFileURL(requireFromApi.resolve("kysely")).href)) as { sql: SqlTag };
  const seeded = await seed(server.database.db, server.database.dialect, sql, plan);
  if (plan.withoutLedger) {
    // Nothing stored, so nothing rose: no look at the walker's badges follows, as after a replay.
    server.repositories.ledger.recordCount = async (reading) => ({
      daySteps: reading.steps,
      todaySteps: reading.steps,
      monthlySteps: reading.steps,
      raised: false,
    });
  }
  return { server, seeded };
}

/** Walkers, sessions, history and groups, written straight into the database (set-based where it can). */
async function seed(db: unknown, dialect: "sqlite" | "postgres", sql: SqlTag, plan: SeedPlan) {
  const run = async (text: string) => (await sql.raw(text).execute(db)).rows;
  const now = Date.now();
  const postgres = dialect === "postgres";
  // SQLite: batches inside one transaction on its one connection. PostgreSQL: Kysely's pool may hand
  // each statement another connection, so every statement is its own transaction.
  const begin = async () => (postgres ? undefined : run("begin immediate"));
  const commit = async () => (postgres ? undefined : run("commit"));

  // Walkers w000001…: one statement per batch, inside one transaction.
  await begin();
  for (let start = 0; start < plan.walkers; start += 1000) {
    const rows: string[] = [];
    for (let index = start; index < Math.min(plan.walkers, start + 1000); index++) {
      const id = walkerId(index);
      rows.push(
        `('${id}', 'https://issuer.bench', '${id}', '${id}@example.org', 'Walker', '${index}', null, 'Charity A', ${now}, ${now})`,
      );
    }
    await run(
      `insert into users (id, issuer, subject, email, first_name, last_name, profile_image_url, charity_name, created_at, updated_at) values ${rows.join(",")}`,
    );
  }
  await commit();

  // Sessions for the first `sessions` walkers; the parent gets their cookies.
  const cookies: string[] = [];
  await begin();
  for (let start = 0; start < plan.sessions; start += 1000) {
    const rows: string[] = [];
    for (let index = start; index < Math.min(plan.sessions, start + 1000); index++) {
      const token = randomBytes(32).toString("base64url");
      const hash = createHash("sha256").update(token).digest("base64url");
      cookies.push(`cs_session=${token}`);
      rows.push(`('${hash}', '${walkerId(index)}', ${now}, ${now + 30 * 86_400_000}, ${now})`);
    }
    await run(
      `insert into sessions (id_hash, user_id, created_at, expires_at, renewed_at) values ${rows.join(",")}`,
    );
  }
  await commit();

  // Day rows for every walker: `days` days, ending `endOffset` days before today (London).
  const today = londonDay(now);
  const dayRows = async (fromOffset: number, toOffset: number) => {
    // Walker by walker in slices, so that each transaction stays a reasonable size.
    const slice = Math.max(1, Math.floor(200_000 / (toOffset - fromOffset + 1)));
    for (let start = 0; start < plan.walkers; start += slice) {
      const users = `select id from users where id >= '${walkerId(start)}' and id < '${walkerId(start + slice)}'`;
      // Steps vary with walker and day, deterministically.
      const walker = postgres ? "substr(u.id, 2)::int" : "cast(substr(u.id, 2) as integer)";
      const steps = `((n.i * 7919 + ${walker} * 104729) % 20000)`;
      const select = postgres
        ? `select u.id, to_char(date '${today}' - n.i, 'YYYY-MM-DD'), to_char(date '${today}' - n.i, 'YYYY-MM'), ${steps}, 0, 0, ${steps}, ${now}
           from (${users}) u cross join generate_series(${fromOffset}, ${toOffset}) n(i)`
        : `select u.id, date('${today}', '-' || n.i || ' days'), substr(date('${today}', '-' || n.i || ' days'), 1, 7), ${steps}, 0, 0, ${steps}, ${now}
           from (${users}) u cross join n`;
      const prefix = postgres
        ? ""
        : `with recursive n(i) as (select ${fromOffset} union all select i + 1 from n where i < ${toOffset}) `;
      await begin();
      await run(
        `insert into step_days (user_id, day, month, motion_steps, health_steps, manual_steps, total_steps, updated_at) ${prefix}${select}`,
      );
      await commit();
    }
  };
  if (plan.monthDays > 0) await dayRows(0, plan.monthDays - 1);
  if (plan.historyRows > 0) {
    // History before the 30-day window that syncs write to, so syncs still add fresh rows.
    const perWalker = Math.ceil(plan.historyRows / plan.walkers);
    await dayRows(40, 40 + perWalker - 1);
  }
  // Each walker's month totals, as the ledger keeps them beside the day rows.
  await begin();
  await run(
    `insert into step_months (user_id, month, total_steps, last_day, last_day_steps, updated_at)
     select m.user_id, m.month, m.total_steps, m.last_day, d.total_steps, m.updated_at
     from (select user_id, month, sum(total_steps) as total_steps, max(day) as last_day, max(updated_at) as updated_at
           from step_days where total_steps > 0 group by user_id, month) m
     join step_days d on d.user_id = m.user_id and d.day = m.last_day`,
  );
  await commit();

  // Groups of the first N walkers each (walker 0, who has a session, is every group's admin).
  const groups: Record<number, number> = {};
  for (const size of plan.groups) {
    const code = randomBytes(4).toString("hex").toUpperCase();
    const [row] = await run(
      `insert into groups (name, description, join_code, admin_user_id, created_at) values ('Group of ${size}', '', '${code}', '${walkerId(0)}', ${now}) returning id`,
    );
    const id = Number(row?.id);
    await run(
      `insert into group_members (group_id, user_id, joined_at) select ${id}, id, ${now} from users where id < '${walkerId(size)}'`,
    );
    groups[size] = id;
  }
  // A public challenge of the same first N walkers, running through today: its leaderboard reads
  // each member's days since its start (the month's days seeded above).
  const challenges: Record<number, string> = {};
  for (const size of plan.groups) {
    const id = randomUUID();
    await run(
      `insert into challenges (id, name, description, charity_name, kind, target, daily_target, starts_on, ends_on, scope, group_id, created_by, created_at, updated_at)
       values ('${id}', 'Challenge of ${size}', '', null, 'total_steps', 10000000, null, '${addDays(today, -29)}', '${addDays(today, 1)}', 'public', null, null, ${now}, ${now})`,
    );
    await run(
      `insert into challenge_members (challenge_id, user_id, joined_at, completed_at, fundraising_url) select '${id}', id, ${now}, null, null from users where id < '${walkerId(size)}'`,
    );
    challenges[size] = id;
  }
  // The bulk load's deferred work is done now, not during the measurement: VACUUM (or autovacuum
  // visits the million fresh rows), and a checkpoint (or their pages are written out mid-run).
  if (postgres) {
    await run("vacuum analyze");
    await run("checkpoint").catch(() => undefined); // needs a superuser or pg_checkpoint; else skipped
  } else {
    await run("pragma wal_checkpoint(truncate)");
  }
  return { cookies, groups, challenges };
}

const walkerId = (index: number) => `w${String(index).padStart(7, "0")}`;

const kind = process.env.BENCH_SERVER;
let server: Listening;
let message: ServerMessage;
// The work requests leave for later: none on bare Fastify.
let settle = async () => {};
if (kind === "bare") {
  server = await bare();
  message = { kind: "listening", port, cookies: [], groups: {}, challenges: {} };
} else {
  const plan = JSON.parse(process.env.BENCH_SEED ?? "{}") as SeedPlan;
  const built = await app(plan);
  server = built.server;
  settle = () => built.server.services.badges.flush();
  message = { kind: "listening", port, ...built.seeded };
}
await server.listen({ port, host: "127.0.0.1" });
send(message);
process.on("message", (request: { kind?: string }) => {
  if (request.kind === "stop") void server.close().then(() => process.exit(0));
  if (request.kind === "settle") void settle().then(() => send({ kind: "settled" }));
  // With --expose-gc: the heap after a full collection, which tells a leak from garbage not yet collected.
  if (request.kind === "heap" && typeof globalThis.gc === "function") {
    globalThis.gc();
    send({ kind: "heap", heapUsedMb: process.memoryUsage().heapUsed / 1_048_576 });
  }
});
process.on("disconnect", () => void server.close().then(() => process.exit(0)));
