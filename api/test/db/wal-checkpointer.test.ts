import { copyFileSync, existsSync, statSync } from "node:fs";
import { setTimeout as sleep } from "node:timers/promises";
import SqliteDatabase from "better-sqlite3";
import { sql } from "kysely";
import { afterEach, describe, expect, it } from "vitest";
import { Database } from "../../src/db/database.js";
import { RESTART_LOG_FRAMES, WalCheckpointer } from "../../src/db/wal-checkpointer.js";
import { createTestDatabase, type TestDatabase } from "../helper.js";

/** A WAL frame: a 24-byte header and one 4 KB page. */
const FRAME_BYTES = 24 + 4096;

async function until(check: () => boolean, what: string, timeoutMs = 5000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!check()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting until ${what}`);
    await sleep(10);
  }
}

/** Reads the database file alone (a copy, without its log): what a checkpoint has put there. */
function rowsInDatabaseFile(path: string, table: string): number {
  const copy = `${path}.copy`;
  copyFileSync(path, copy);
  try {
    const reader = new SqliteDatabase(copy, { readonly: true });
    try {
      return (reader.prepare(`select count(*) as n from ${table}`).get() as { n: number }).n;
    } finally {
      reader.close();
    }
  } catch {
    // A copy taken while a checkpoint was writing the file may be torn; the next look is not.
    return -1;
  }
}

describe("the SQLite checkpointer thread", () => {
  let testDb: TestDatabase;
  let database: Database | undefined;
  afterEach(async () => {
    await database?.close();
    database = undefined;
    await testDb.drop();
  });

  async function open(): Promise<Database> {
    testDb = await createTestDatabase("sqlite");
    database = Database.connect(testDb.url);
    await sql`create table notes (id integer primary key, body blob not null)`.execute(database.db);
    return database;
  }

  it("copies committed rows into the database file while the request thread never checkpoints", async () => {
    const db = await open();
    const { rows } = await sql<{ wal_autocheckpoint: number }>`pragma wal_autocheckpoint`.execute(db.db);
    expect(rows[0]?.wal_autocheckpoint).toBe(0);

    // Far fewer than SQLite's 1,000 pages: by default these would stay in the log until closing.
    for (let id = 1; id <= 20; id++) {
      await sql`insert into notes (id, body) values (${id}, zeroblob(100))`.execute(db.db);
    }
    await until(() => rowsInDatabaseFile(testDb.url, "notes") === 20, "the file holds all 20 rows");
  });

  it("keeps the log within bounds while a writer keeps writing", async () => {
    const db = await open();
    const wal = `${testDb.url}-wal`;
    let largest = 0;
    // 3,000 commits of ~10 pages each: 30,000 frames, nearly four times the restart threshold.
    for (let commit = 0; commit < 3000; commit++) {
      await sql`insert or replace into notes (id, body) values (${commit % 50}, zeroblob(40000))`.execute(
        db.db,
      );
      if (existsSync(wal)) largest = Math.max(largest, statSync(wal).size);
      // A server's writer pauses between groups for the requests' own work.
      if (commit % 10 === 0) await sleep(1);
    }
    console.log(`largest log: ${(largest / 1e6).toFixed(1)} MB over 3,000 commits`);
    expect(largest).toBeGreaterThan(0);
    expect(largest).toBeLessThan(RESTART_LOG_FRAMES * FRAME_BYTES * 1.5);
  });

  it("leaves no log behind once the database is closed", async () => {
    const db = await open();
    await sql`insert into notes (id, body) values (1, zeroblob(100))`.execute(db.db);
    expect(existsSync(`${testDb.url}-wal`)).toBe(true);
    await db.close();
    database = undefined;
    expect(existsSync(`${testDb.url}-wal`)).toBe(false);
    expect(rowsInDatabaseFile(testDb.url, "notes")).toBe(1);
  });

  it("hands checkpoints back to the connection's commits if its thread fails", async () => {
    testDb = await createTestDatabase("sqlite");
    const connection = new SqliteDatabase(testDb.url);
    connection.pragma("journal_mode = WAL");
    const warnings: string[] = [];
    const onWarning = (warning: Error) => warnings.push(warning.message);
    process.on("warning", onWarning);
    try {
      const checkpointer = WalCheckpointer.start(connection, "throw new Error('no disk')");
      expect(connection.pragma("wal_autocheckpoint", { simple: true })).toBe(0);
      await until(() => connection.pragma("wal_autocheckpoint", { simple: true }) === 1000, "fallback");
      await checkpointer.stop();
      await until(() => warnings.length > 0, "a warning");
      expect(warnings[0]).toMatch(/the checkpoint thread failed: no disk/);
    } finally {
      process.off("warning", onWarning);
      connection.close();
    }
  });
});
