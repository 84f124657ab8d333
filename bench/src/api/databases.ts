/**
 * Fresh databases for the bench's servers (a SQLite file in a temporary folder, or a PostgreSQL
 * database of its own), dropped after use, and the PostgreSQL server to make them on.
 */
import { randomBytes } from "node:crypto";
import { mkdtempSync, rmSync } from "node:fs";
import { createRequire } from "node:module";
import { tmpdir } from "node:os";
import { join } from "node:path";

export type Dialect = "sqlite" | "postgres";

const LOCAL_POSTGRES = "postgres://postgres:postgres@127.0.0.1:5432/postgres";

export interface BenchDatabase {
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

export async function postgresDatabase(root: string, adminUrl: string): Promise<BenchDatabase> {
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
export async function findPostgres(
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
