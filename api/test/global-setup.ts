import { randomBytes } from "node:crypto";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import pg from "pg";
import type { TestProject } from "vitest/node";
import { loadSigningKey } from "../src/auth/provider/keys.js";
import { Database } from "../src/db/database.js";
import { AppSecretsRepository } from "../src/repositories/app-secrets.js";
import { bundleServer, type ServerBundle } from "./support/server-bundle.js";

declare module "vitest" {
  export interface ProvidedContext {
    /** A SQLite file migrated to the latest schema, copied for each test database that starts migrated. */
    sqliteTemplate: string;
    /** A PostgreSQL database migrated to the latest schema, the template of each test database that starts migrated ("" without TEST_DATABASE_URL). */
    postgresTemplate: string;
    /** The server bundled for the API processes tests start (support/server-bundle.ts); absent with API_TEST_PROCESSES=none. */
    serverBundle?: ServerBundle;
  }
}

/**
 * Migrates once per run, not once per test database: a test database that needs only the latest
 * schema is a copy of these (a file copy; CREATE DATABASE … TEMPLATE on PostgreSQL). The templates
 * also hold the built-in provider's signing key, as a database that has served once does: making
 * a 2048-bit RSA key takes a good part of a second, and the suite builds some hundred and fifty apps.
 * Tests of how the key is made start from a database without one. Bundles the server once for the
 * API processes tests start.
 */
export default async function setup(project: TestProject): Promise<() => Promise<void>> {
  const dir = mkdtempSync(join(tmpdir(), "charity-steps-template-"));
  const sqliteTemplate = join(dir, "template.db");
  await fillTemplate(sqliteTemplate);
  const adminUrl = process.env.TEST_DATABASE_URL;
  const postgresTemplate = adminUrl ? `cs_template_${randomBytes(6).toString("hex")}` : "";
  if (adminUrl) {
    await asAdmin(adminUrl, `CREATE DATABASE ${postgresTemplate}`);
    const url = new URL(adminUrl);
    url.pathname = `/${postgresTemplate}`;
    await fillTemplate(url.href);
  }
  // `pnpm test:calendar` runs only files that start no API process, nine times over.
  if (process.env.API_TEST_PROCESSES !== "none") project.provide("serverBundle", await bundleServer());
  project.provide("sqliteTemplate", sqliteTemplate);
  project.provide("postgresTemplate", postgresTemplate);
  return async () => {
    rmSync(dir, { recursive: true, force: true });
    if (adminUrl) await asAdmin(adminUrl, `DROP DATABASE IF EXISTS ${postgresTemplate} WITH (FORCE)`);
  };
}

/** Migrates the database at `url` to the latest schema and stores the provider's signing key in it. */
async function fillTemplate(url: string): Promise<void> {
  // No checkpointer thread: closing the one connection leaves the whole SQLite file to copy.
  const database = Database.connect(url, { speed: { walCheckpointer: false } });
  try {
    await database.migrateToLatest();
    await loadSigningKey(new AppSecretsRepository(database.db));
  } finally {
    await database.close();
  }
}

async function asAdmin(adminUrl: string, statement: string): Promise<void> {
  const admin = new pg.Client({ connectionString: adminUrl });
  await admin.connect();
  try {
    await admin.query(statement);
  } finally {
    await admin.end();
  }
}
