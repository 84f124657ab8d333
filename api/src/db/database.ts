import { AsyncLocalStorage } from "node:async_hooks";
import { mkdirSync } from "node:fs";
import { dirname } from "node:path";
import SqliteDatabase from "better-sqlite3";
import { Kysely, Migrator, PostgresDialect, SqliteDialect, sql } from "kysely";
import pg from "pg";
import { migrationProvider } from "./migrations/index.js";
import type { DatabaseSchema } from "./schema/index.js";
import { WalCheckpointer } from "./wal-checkpointer.js";

export type DialectName = "sqlite" | "postgres";

/** How long an SQLite statement waits for another connection's lock before it fails as busy. */
const SQLITE_BUSY_TIMEOUT_MS = 5000;

/**
 * The speed machinery, each piece on unless switched off. Only the benchmark switches any off, to
 * measure what each one buys (bench/README.md).
 */
export interface SpeedOptions {
  /** Step syncs that arrive together are written in one transaction (`GroupCommit`). */
  groupCommit?: boolean;
  /**
   * Each distinct statement prepared once: by SQLite (`cachePreparedStatements`), and by
   * PostgreSQL once per connection (`keepStatementsPrepared`).
   */
  statementCache?: boolean;
  /** SQLite's log checkpointed on a thread of its own (`WalCheckpointer`). */
  walCheckpointer?: boolean;
  /** Session look-ups that arrive together answered by one query. */
  sessionBatches?: boolean;
  /**
   * A challenge's standings (`ChallengeStandings`) and a group's marks of steps waiting for a check
   * (`GroupLeaderboards`), each shared by its readers for a few seconds.
   */
  sharedStandings?: boolean;
}

// PostgreSQL returns BIGINT (timestamps, COUNT, SUM) as strings; every such value here fits in a double.
pg.types.setTypeParser(pg.types.builtins.INT8, (value) => Number.parseInt(value, 10));

/**
 * The one handle on the database: Kysely over better-sqlite3 (default) or pg (`postgres://…`),
 * with the same migrations on both.
 */
export class Database {
  private constructor(
    readonly db: Kysely<DatabaseSchema>,
    readonly dialect: DialectName,
    readonly speed: Required<SpeedOptions>,
    private readonly sqlite?: SqliteDatabase.Database,
    private readonly checkpointer?: WalCheckpointer,
  ) {}

  static connect(url: string, options: { poolSize?: number; speed?: SpeedOptions } = {}): Database {
    const speed: Required<SpeedOptions> = {
      groupCommit: true,
      statementCache: true,
      walCheckpointer: true,
      sessionBatches: true,
      sharedStandings: true,
      ...options.speed,
    };
    if (/^postgres(ql)?:\/\//.test(url)) {
      const pool = new pg.Pool({
        connectionString: url,
        max: options.poolSize ?? 10,
        // The app runs short queries only, for which PostgreSQL's JIT compiles longer than it saves.
        // Its tables are read from memory, where a read by key costs about what a scan's read does:
        // at the default cost of a random read (4, for spinning disks) PostgreSQL scans every walker
        // to rank a group of a hundred.
        options: "-c jit=off -c random_page_cost=1.1",
      });
      // An idle client losing its connection must not crash the process.
      pool.on("error", () => {});
      if (speed.statementCache) pool.on("connect", keepStatementsPrepared);
      return new Database(
        new Kysely<DatabaseSchema>({
          dialect: new PostgresDialect({ pool }),
        }),
        "postgres",
        speed,
      );
    }
    mkdirSync(dirname(url), { recursive: true });
    const sqlite = new SqliteDatabase(url);
    sqlite.pragma("journal_mode = WAL");
    sqlite.pragma("synchronous = NORMAL");
    sqlite.pragma("foreign_keys = ON");
    sqlite.pragma(`busy_timeout = ${SQLITE_BUSY_TIMEOUT_MS}`);
    // 16 MB of page cache (SQLite's default is 2 MB): enough for the pages that active walkers'
    // recent days sit on however long their history, so a sync costs the same with a million
    // stored days as with none.
    sqlite.pragma("cache_size = -16000");
    if (speed.statementCache) cachePreparedStatements(sqlite);
    return new Database(
      new Kysely<DatabaseSchema>({ dialect: new SqliteDialect({ database: sqlite }) }),
      "sqlite",
      speed,
      sqlite,
      speed.walCheckpointer ? WalCheckpointer.start(sqlite) : undefined,
    );
  }

  /**
   * Brings the schema up to date. PostgreSQL serialises concurrent runs with Kysely's advisory
   * lock; on SQLite, Kysely assumes one process, so the run holds the write lock (BEGIN IMMEDIATE)
   * and is atomic: a second process waits, then finds nothing left to do.
   */
  async migrateToLatest(): Promise<void> {
    if (this.dialect === "postgres") return migrate(this.db);
    await this.writeTransaction(migrate);
  }

  async ping(): Promise<void> {
    await sql`select 1`.execute(this.db);
  }

  /**
   * Runs `work` in a transaction. SQLite answers SQLITE_BUSY when another process holds the write
   * lock past the busy timeout; such a transaction is retried a few times before giving up.
   */
  async transaction<T>(work: (trx: Kysely<DatabaseSchema>) => Promise<T>): Promise<T> {
    for (let attempt = 1; ; attempt++) {
      try {
        return await this.db.transaction().execute(work);
      } catch (error) {
        if (this.dialect !== "sqlite" || !isSqliteBusy(error) || attempt >= 5) throw error;
        await new Promise((resolve) => setTimeout(resolve, 20 * attempt));
      }
    }
  }

  /**
   * As `transaction`, for work that reads and then writes by what it read (a count that bounds the
   * write). On SQLite it takes the write lock first (BEGIN IMMEDIATE), so no other writer comes
   * between the read and the write, and waits for the lock without blocking the event loop, so
   * that another connection of this process holding it can finish. PostgreSQL's is a plain
   * transaction: the work takes the row locks it needs.
   */
  async writeTransaction<T>(work: (trx: Kysely<DatabaseSchema>) => Promise<T>): Promise<T> {
    if (this.dialect === "postgres") return this.db.transaction().execute(work);
    return this.db.connection().execute(async (connection) => {
      await beginImmediate(connection);
      try {
        const result = await work(connection);
        await sql`commit`.execute(connection);
        return result;
      } catch (error) {
        await sql`rollback`.execute(connection);
        throw error;
      }
    });
  }

  /**
   * Runs a read whose best plan depends on how much it reads (a board of ten members or of ten
   * thousand, every walker's month) with PostgreSQL planning its statements for the values of each
   * run. The plan PostgreSQL may keep for a prepared statement (the statement cache) is made without
   * them: it guesses a period's share of all days, and reads a month of everyone's days the slow
   * way. So the statements `work` sends, on `db` or the caller's transaction, go unnamed, which
   * PostgreSQL plans afresh at each run; the caller's statements around it are kept prepared. What
   * `work` starts (a timer, a read other callers share) sends its statements unnamed too, so `work`
   * should send only its own reads.
   */
  async planEachRun<T>(
    work: (db: Kysely<DatabaseSchema>) => Promise<T>,
    db: Kysely<DatabaseSchema> = this.db,
  ): Promise<T> {
    if (this.dialect !== "postgres" || !this.speed.statementCache) return work(db);
    return plannedEachRun.run(true, () => work(db));
  }

  /**
   * SQLite's one connection, for code that prepares its statements once and runs them itself (the
   * step ledger's writer). Such code runs them only inside `sqliteTransaction`, or inside a
   * transaction of `db`, which then holds the connection.
   */
  get sqliteConnection(): SqliteDatabase.Database {
    if (!this.sqlite) throw new Error("not an SQLite database");
    return this.sqlite;
  }

  /**
   * SQLite: runs `work` on the connection in one write transaction (BEGIN IMMEDIATE), in one go: no
   * other statement of this process runs between its statements, and each statement is a call into
   * SQLite and nothing more. It waits for the connection as any query of `db` does, and for the
   * write lock (held by another process, or by another connection of this one) without blocking the
   * event loop, as long as a statement would wait for it. `work` must not wait for anything; it
   * commits when it returns and rolls back when it throws.
   */
  async sqliteTransaction<T>(work: (connection: SqliteDatabase.Database) => T): Promise<T> {
    const connection = this.sqliteConnection;
    const statements = sqliteTransactionStatements(connection);
    const deadline = Date.now() + SQLITE_BUSY_TIMEOUT_MS;
    for (let attempt = 1; ; attempt++) {
      const outcome = await this.db.connection().execute(async () => {
        // Through pragma(), prepared afresh each time: run again, a statement prepared once with
        // this pragma left the timeout as it was (and a commit waited out the whole 5 s).
        connection.pragma("busy_timeout = 0");
        try {
          statements.begin.run();
        } catch (error) {
          if (isSqliteBusy(error) && Date.now() < deadline) return BUSY;
          throw error;
        } finally {
          connection.pragma(`busy_timeout = ${SQLITE_BUSY_TIMEOUT_MS}`);
        }
        try {
          const result = work(connection);
          statements.commit.run();
          return { result };
        } catch (error) {
          if (connection.inTransaction) statements.rollback.run();
          throw error;
        }
      });
      if (outcome !== BUSY) return outcome.result;
      // The lock's holder is another process, or the checkpoint thread restarting the log (a few
      // milliseconds): asked again soon, then less often. Other queries run meanwhile.
      await new Promise((resolve) => setTimeout(resolve, Math.min(attempt, 25)));
    }
  }

  async close(): Promise<void> {
    try {
      await this.db.destroy();
    } finally {
      await this.checkpointer?.stop();
    }
  }
}

/**
 * Kysely asks better-sqlite3 to prepare every query afresh, a large share of a sync's CPU; the
 * app runs a few dozen distinct statements, so each is prepared once and reused (better-sqlite3
 * runs one statement at a time, and Kysely never iterates one while running another).
 */
function cachePreparedStatements(sqlite: SqliteDatabase.Database): void {
  const prepare = sqlite.prepare.bind(sqlite);
  const statements = new Map<string, SqliteDatabase.Statement>();
  sqlite.prepare = ((source: string) => {
    let statement = statements.get(source);
    if (!statement) {
      // Queries are built from a fixed set of shapes; a runaway set (generated SQL) starts afresh.
      if (statements.size >= 1_000) statements.clear();
      statement = prepare(source);
      statements.set(source, statement);
    }
    return statement;
  }) as typeof sqlite.prepare;
}

/** Set while `Database.planEachRun`'s work runs: the statements it sends are not kept prepared. */
const plannedEachRun = new AsyncLocalStorage<true>();

/** Distinct statements a PostgreSQL connection keeps prepared; past them, statements run unnamed. */
export const POSTGRES_STATEMENTS_PER_CONNECTION = 200;

/**
 * Texts of one shape a connection names at most. A list of parameters (`in ($1, $2, …)`, or several
 * rows of values) is a text of its own at each of its lengths: a list whose length varies names its
 * first few lengths, not every one, so the connection's names go to statements that run again.
 */
export const POSTGRES_STATEMENTS_PER_SHAPE = 4;

/** A text's shape: its parameters unnumbered, and each list of them (or rows of them) as one. */
function shapeOf(text: string): string {
  return text.replace(/\$\d+/g, "$").replace(/\(\$(?:, \$)*\)(?:, \(\$(?:, \$)*\))*/g, "(…)");
}

/**
 * Kysely sends each query unnamed, which PostgreSQL parses and plans afresh every time, and for the
 * app's short statements planning costs more than running. Each distinct text with parameters is
 * named on its connection instead, so PostgreSQL parses it once per connection and, after five
 * runs, may keep one plan for every run (as for any prepared statement). A text without parameters
 * runs as sent, by the simple protocol (a migration's may hold several statements), and so does a
 * text past its shape's few names (`POSTGRES_STATEMENTS_PER_SHAPE`). A statement of `planEachRun`'s
 * work goes unnamed, as Kysely sent it: one round trip, planned for its values.
 *
 * A prepared statement whose result columns a schema change has altered is refused ("cached plan
 * must not change result type"), and so is one PostgreSQL has lost. The connection then names its
 * statements afresh (the old ones stay on the server until the connection closes), and a statement
 * that ran outside a transaction, which did nothing, runs again at once; inside one, the
 * transaction has failed, and only its caller can run it again.
 */
function keepStatementsPrepared(client: pg.PoolClient): void {
  const query = client.query;
  let names = new Map<string, string>();
  let shapes = new Map<string, number>();
  let generation = 0;
  const nameOf = (text: string): string | undefined => {
    const name = names.get(text);
    if (name !== undefined || names.size >= POSTGRES_STATEMENTS_PER_CONNECTION) return name;
    const shape = shapeOf(text);
    const named = shapes.get(shape) ?? 0;
    if (named >= POSTGRES_STATEMENTS_PER_SHAPE) return undefined;
    shapes.set(shape, named + 1);
    const fresh = `cs${generation}_${names.size}`;
    names.set(text, fresh);
    return fresh;
  };
  client.query = function (this: pg.PoolClient, ...args: unknown[]) {
    const [text, values] = args;
    if (
      args.length !== 2 ||
      typeof text !== "string" ||
      !Array.isArray(values) ||
      values.length === 0 ||
      plannedEachRun.getStore()
    ) {
      return Reflect.apply(query, this, args);
    }
    const named = nameOf(text);
    if (named === undefined) return Reflect.apply(query, this, args);
    const run = (name: string): Promise<pg.QueryResult> =>
      Reflect.apply(query, this, [{ name, text, values }]);
    // "I" (idle) after the refusal only when the statement ran in a transaction of its own, which
    // the refusal (at Bind, before anything ran) rolled back; inside a block the status is "E".
    return run(named).catch((error: unknown) => {
      if (!isRefusedStatement(error)) throw error;
      names = new Map();
      shapes = new Map();
      generation++;
      if (this.getTransactionStatus() !== "I") throw error;
      const again = nameOf(text);
      return again === undefined ? Reflect.apply(query, this, args) : run(again);
    });
  } as typeof client.query;
}

/**
 * PostgreSQL refusing a prepared statement: its result columns changed since it was prepared
 * (`RevalidateCachedQuery`'s feature-not-supported, whatever the server's language), or no statement
 * of its name exists.
 */
function isRefusedStatement(error: unknown): boolean {
  if (!(error instanceof Error) || !("code" in error)) return false;
  const routine = "routine" in error ? error.routine : undefined;
  return (error.code === "0A000" && routine === "RevalidateCachedQuery") || error.code === "26000";
}

/** `sqliteTransaction`'s answer when the write lock is held elsewhere: wait, and try again. */
const BUSY = Symbol("busy");

const transactionStatements = new WeakMap<
  SqliteDatabase.Database,
  Record<"begin" | "commit" | "rollback", SqliteDatabase.Statement>
>();

/** The statements around `sqliteTransaction`'s work, prepared once per connection. */
function sqliteTransactionStatements(connection: SqliteDatabase.Database) {
  let statements = transactionStatements.get(connection);
  if (!statements) {
    statements = {
      begin: connection.prepare("begin immediate"),
      commit: connection.prepare("commit"),
      rollback: connection.prepare("rollback"),
    };
    transactionStatements.set(connection, statements);
  }
  return statements;
}

async function migrate(db: Kysely<DatabaseSchema>): Promise<void> {
  const { error, results } = await new Migrator({ db, provider: migrationProvider }).migrateToLatest();
  const failed = results?.find((result) => result.status === "Error");
  if (error || failed) {
    throw new Error(`Database migration ${failed?.migrationName ?? ""} failed`, { cause: error });
  }
}

/**
 * Takes SQLite's write lock, waiting without blocking the event loop (better-sqlite3's busy
 * timeout would block it, and with it another connection of this process that holds the lock).
 */
async function beginImmediate(connection: Kysely<DatabaseSchema>): Promise<void> {
  await sql`pragma busy_timeout = 0`.execute(connection);
  try {
    for (let attempt = 1; ; attempt++) {
      try {
        await sql`begin immediate`.execute(connection);
        return;
      } catch (error) {
        if (!isSqliteBusy(error) || attempt >= 1200) throw error;
        await new Promise((resolve) => setTimeout(resolve, 25));
      }
    }
  } finally {
    await sql.raw(`pragma busy_timeout = ${SQLITE_BUSY_TIMEOUT_MS}`).execute(connection);
  }
}

function isSqliteBusy(error: unknown): boolean {
  return error instanceof Error && "code" in error && String(error.code).startsWith("SQLITE_BUSY");
}

/**
 * Holds the walker's row until the transaction ends, so that two changes counted against one of the
 * walker's limits (keys, groups) run one after the other and cannot both pass the count. PostgreSQL
 * needs the lock; SQLite has one writer at a time already.
 */
export async function holdWalker(
  trx: Kysely<DatabaseSchema>,
  dialect: DialectName,
  userId: string,
): Promise<void> {
  if (dialect === "postgres") await sql`select id from users where id = ${userId} for update`.execute(trx);
}

/**
 * True when `error` is a foreign-key violation on either dialect: the row written refers to one
 * deleted meanwhile (a group, a challenge, a key), which is the caller's 404, not a fault.
 */
export function isForeignKeyViolation(error: unknown): boolean {
  if (!(error instanceof Error) || !("code" in error)) return false;
  return error.code === "23503" || error.code === "SQLITE_CONSTRAINT_FOREIGNKEY";
}

/** True when `error` is a unique-constraint violation on either dialect. */
export function isUniqueViolation(error: unknown): boolean {
  if (!(error instanceof Error) || !("code" in error)) return false;
  return (
    error.code === "23505" ||
    error.code === "SQLITE_CONSTRAINT_UNIQUE" ||
    error.code === "SQLITE_CONSTRAINT_PRIMARYKEY"
  );
}
