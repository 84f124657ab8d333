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
/** The most the log may reach with the checkpointer running: its restart point and some slack. */
const LOG_BOUND_BYTES = RESTART_LOG_FRAMES * FRAME_BYTES * 1.5;

async function until(check: () => boolean, what: string, timeoutMs = 5000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!check()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting until ${what}`);
    await sleep(10);
  }
}

/** Reads the database file alone (a copy, without its log): what checkpoints have put there. */
function rowsInDatabaseFile(path: string): number {
  const copy = `${path}.copy`;
  copyFileSync(path, copy);
  try {
    const reader = new SqliteDatabase(copy, { readonly: true });
    try {
      return (reader.prepare("select count(*) as n from notes").get() as { n: number }).n;
    } finally {
      reader.close();
    }
  } catch {
    // A copy taken while a checkpoint was writing the file may be torn; the next look is not.
    return -1;
  }
}

/** A connection as the API opens one (WAL), with its table, checkpointing nothing itself. */
function walConnection(path: string): SqliteDatabase.Database {
  const connection = new SqliteDatabase(path);
  connection.pragma("journal_mode = WAL");
  connection.pragma("busy_timeout = 5000");
  connection.exec("create table if not exists notes (id integer primary key, body blob not null)");
  connection.pragma("wal_autocheckpoint = 0");
  return connection;
}

/**
 * `commits` commits of about ten pages each, pausing a millisecond every ten as a server's writer
 * does between groups; returns the largest the log file grew and the slowest commit.
 */
async function writeSteadily(connection: SqliteDatabase.Database, commits: number) {
  const write = connection.prepare("insert or replace into notes (id, body) values (?, zeroblob(40000))");
  const wal = `${connection.name}-wal`;
  let largestLog = 0;
  let slowestCommitMs = 0;
  for (let commit = 0; commit < commits; commit++) {
    const started = performance.now();
    write.run(commit % 50);
    slowestCommitMs = Math.max(slowestCommitMs, performance.now() - started);
    if (existsSync(wal)) largestLog = Math.max(largestLog, statSync(wal).size);
    if (commit % 10 === 0) await sleep(1);
  }
  return { largestLog, slowestCommitMs };
}

describe("the SQLite checkpointer thread", () => {
  let testDb: TestDatabase;
  const cleanups: (() => unknown)[] = [];
  afterEach(async () => {
    for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
    await testDb.drop();
  });
  /** The checkpointer's messages (it emits them as process warnings) until the test ends. */
  const collectWarnings = () => {
    const warnings: string[] = [];
    const onWarning = (warning: Error) => {
      if (warning.name === "SqliteCheckpointWarning") warnings.push(warning.message);
    };
    process.on("warning", onWarning);
    cleanups.push(() => void process.off("warning", onWarning));
    return warnings;
  };

  it("copies what the API commits into the database file, though its connection never checkpoints", async () => {
    testDb = await createTestDatabase("sqlite");
    const database = Database.connect(testDb.url);
    cleanups.push(() => database.close());
    const { rows } = await sql<{ wal_autocheckpoint: number }>`pragma wal_autocheckpoint`.execute(
      database.db,
    );
    expect(rows[0]?.wal_autocheckpoint).toBe(0);
    await sql`create table notes (id integer primary key, body blob not null)`.execute(database.db);

    // Far fewer than SQLite's 1,000 pages: by default these would stay in the log until closing.
    for (let id = 1; id <= 20; id++) {
      await sql`insert into notes (id, body) values (${id}, zeroblob(100))`.execute(database.db);
    }
    await until(() => rowsInDatabaseFile(testDb.url) === 20, "the file holds all 20 rows");
  });

  it("keeps the log within bounds under a steady stream of commits, which grows it without end otherwise", async () => {
    testDb = await createTestDatabase("sqlite");
    const checkpointed = walConnection(testDb.url);
    const checkpointer = WalCheckpointer.start(checkpointed);
    cleanups.push(() => checkpointed.close());
    cleanups.push(() => checkpointer.stop());
    const unattended = walConnection(`${testDb.url}.unattended`);
    cleanups.push(() => unattended.close());

    // 3,000 commits of ~10 pages: 30,000 frames, nearly four times the restart point.
    const withThread = await writeSteadily(checkpointed, 3000);
    const withoutThread = await writeSteadily(unattended, 3000);
    console.log(
      `largest log: ${(withThread.largestLog / 1e6).toFixed(1)} MB with the thread, ${(withoutThread.largestLog / 1e6).toFixed(1)} MB without`,
    );
    expect(withThread.largestLog).toBeGreaterThan(0);
    expect(withThread.largestLog).toBeLessThan(LOG_BOUND_BYTES);
    expect(withoutThread.largestLog).toBeGreaterThan(LOG_BOUND_BYTES);
  });

  it("neither stalls writers nor spins while a reader holds the log, and says the log is stuck", async () => {
    testDb = await createTestDatabase("sqlite");
    const writer = walConnection(testDb.url);
    const warnings = collectWarnings();
    const checkpointer = WalCheckpointer.start(writer);
    cleanups.push(() => writer.close());
    cleanups.push(() => checkpointer.stop());
    // A reader (a backup, another process) keeps its snapshot: nothing after it can be copied.
    const reader = new SqliteDatabase(testDb.url);
    cleanups.push(() => reader.close());
    reader.exec("begin");
    reader.prepare("select count(*) from notes").get();

    // Frames it cannot copy yet: with nothing moving, the thread rests instead of retrying in a loop.
    await writeSteadily(writer, 300);
    // Counted in passes, not in time (which a busy machine stretches): resting, the thread makes a
    // handful in a second, its rests doubling from 20 ms; retrying with no rest (a timer of 0 ms
    // after each pass), hundreds.
    await sleep(100);
    const before = checkpointer.passes();
    await sleep(1000);
    expect(checkpointer.passes() - before).toBeLessThanOrEqual(8);

    // Past the restart point: the thread tries restarts, which would have to wait for the reader.
    const { largestLog, slowestCommitMs } = await writeSteadily(writer, 700);
    expect(largestLog).toBeGreaterThan(RESTART_LOG_FRAMES * FRAME_BYTES);
    expect(slowestCommitMs).toBeLessThan(1000);
    await until(() => warnings.some((warning) => /cannot be restarted yet/.test(warning)), "a warning");

    // Once the reader lets go, the log is copied and starts afresh.
    reader.exec("commit");
    await until(() => rowsInDatabaseFile(testDb.url) === 50, "the file holds the rows");
  });

  it("closes its connection with the database's, leaving no log behind", async () => {
    testDb = await createTestDatabase("sqlite");
    const database = Database.connect(testDb.url);
    await sql`create table notes (id integer primary key, body blob not null)`.execute(database.db);
    await sql`insert into notes (id, body) values (1, zeroblob(100))`.execute(database.db);
    expect(existsSync(`${testDb.url}-wal`)).toBe(true);
    await database.close();
    expect(existsSync(`${testDb.url}-wal`)).toBe(false);
    expect(rowsInDatabaseFile(testDb.url)).toBe(1);
  });

  it("says when a checkpoint fails, and after ten failures in a row hands checkpoints back to the commits", async () => {
    testDb = await createTestDatabase("sqlite");
    const connection = walConnection(testDb.url);
    cleanups.push(() => connection.close());
    const warnings = collectWarnings();

    // The real thread, on a disk that refuses every checkpoint: its driver's checkpoints throw.
    const failingDisk = new URL("./fixtures/failing-disk-thread.js", import.meta.url);
    const checkpointer = WalCheckpointer.start(connection, failingDisk);
    cleanups.push(() => checkpointer.stop());
    await until(() => warnings.length > 0, "the first failure is told");
    expect(warnings[0]).toBe("a checkpoint failed: disk I/O error");
    // Resting longer after each failure, ten of them take about five seconds.
    await until(() => connection.pragma("wal_autocheckpoint", { simple: true }) === 1000, "fallback", 15_000);
    expect(warnings).toEqual([
      "a checkpoint failed: disk I/O error",
      "10 checkpoints failed in a row (disk I/O error): commits checkpoint again",
    ]);
    // The commits checkpoint again: a thousand pages of log go into the file.
    await writeSteadily(connection, 150);
    await until(() => rowsInDatabaseFile(testDb.url) > 0, "the file holds rows");
  }, 20_000);

  it("hands checkpoints back to the connection's commits if its thread fails", async () => {
    testDb = await createTestDatabase("sqlite");
    const connection = walConnection(testDb.url);
    cleanups.push(() => connection.close());
    const warnings = collectWarnings();

    const noDisk = new URL("./fixtures/no-disk-thread.js", import.meta.url);
    const checkpointer = WalCheckpointer.start(connection, noDisk);
    expect(connection.pragma("wal_autocheckpoint", { simple: true })).toBe(0);
    await until(() => connection.pragma("wal_autocheckpoint", { simple: true }) === 1000, "fallback");
    await checkpointer.stop();
    await until(() => warnings.length > 0, "a warning");
    expect(warnings[0]).toMatch(/the checkpoint thread failed: no disk/);
  });
});
