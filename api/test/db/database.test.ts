import { setTimeout as sleep } from "node:timers/promises";
import SqliteDatabase from "better-sqlite3";
import { type Kysely, sql } from "kysely";
import pg from "pg";
import { afterEach, describe, expect, it } from "vitest";
import {
  Database,
  POSTGRES_STATEMENTS_PER_CONNECTION,
  POSTGRES_STATEMENTS_PER_SHAPE,
  type SpeedOptions,
} from "../../src/db/database.js";
import type { DatabaseSchema } from "../../src/db/schema/index.js";
import { createTestDatabase, dialects, type TestDatabase } from "../helper.js";

/** SQLite's write transactions: the step ledger writer's, in one go, and the others'. */
describe("SQLite write transactions", () => {
  let testDb: TestDatabase;
  let database: Database;
  let other: SqliteDatabase.Database | undefined;
  afterEach(async () => {
    other?.close();
    other = undefined;
    await database.close();
    await testDb.drop();
  });

  const open = async () => {
    testDb = await createTestDatabase("sqlite");
    database = Database.connect(testDb.url);
    await sql`create table notes (id integer primary key, body text not null)`.execute(database.db);
  };
  const notes = async () =>
    (await sql<{ body: string }>`select body from notes order by id`.execute(database.db)).rows.map(
      (row) => row.body,
    );

  /** Another process (or the checkpoint thread) holding the write lock, with a row of its own. */
  const lockElsewhere = () => {
    other = new SqliteDatabase(testDb.url);
    other.exec("begin immediate");
    other.prepare("insert into notes (body) values (?)").run("theirs");
    return other;
  };

  it("sqliteTransaction writes everything its work does, or nothing when the work throws", async () => {
    await open();
    const written = await database.sqliteTransaction((connection) => {
      const insert = connection.prepare("insert into notes (body) values (?)");
      insert.run("one");
      insert.run("two");
      return "done";
    });
    expect(written).toBe("done");
    await expect(
      database.sqliteTransaction((connection) => {
        connection.prepare("insert into notes (body) values (?)").run("three");
        throw new Error("the work changed its mind");
      }),
    ).rejects.toThrow("the work changed its mind");
    expect(await notes()).toEqual(["one", "two"]);
  });

  it("sqliteTransaction waits for a write lock held elsewhere without holding up this process's reads", async () => {
    await open();
    const holder = lockElsewhere();

    let done = false;
    const ours = database
      .sqliteTransaction((connection) =>
        connection.prepare("insert into notes (body) values (?)").run("ours"),
      )
      .then(() => {
        done = true;
      });
    await sleep(50);
    expect(done).toBe(false);
    // Meanwhile a read of this process is answered (the other's rows not yet committed): the
    // connection is not held while the transaction waits, or this read would wait for it.
    expect(await notes()).toEqual([]);
    expect(done).toBe(false);

    holder.exec("commit");
    await ours;
    expect(await notes()).toEqual(["theirs", "ours"]);
  });

  it("writeTransaction waits for a write lock held elsewhere without blocking the event loop", async () => {
    await open();
    // Once, so that its statements are prepared (and kept) before the lock is taken.
    await database.writeTransaction((trx) => sql`insert into notes (body) values ('first')`.execute(trx));
    const holder = lockElsewhere();
    const ours = database.writeTransaction((trx) =>
      sql`insert into notes (body) values ('ours')`.execute(trx),
    );
    // A timer still fires while it waits (a busy timeout would hold the thread until the lock went).
    await sleep(30);
    holder.exec("commit");
    await ours;
    expect(await notes()).toEqual(["first", "theirs", "ours"]);
  });
});

/** PostgreSQL's statements, each prepared once on its connection (the statement cache). */
describe.each(dialects.filter((dialect) => dialect === "postgres"))("prepared statements on %s", () => {
  let testDb: TestDatabase;
  let database: Database;
  afterEach(async () => {
    await database.close();
    await testDb.drop();
  });

  /** One connection, so that every query below runs on the connection whose statements are read. */
  const open = async (speed: SpeedOptions = {}) => {
    testDb = await createTestDatabase("postgres");
    database = Database.connect(testDb.url, { poolSize: 1, speed });
    await sql`create table notes (id integer primary key, body text not null)`.execute(database.db);
    await sql`insert into notes values (1, 'one'), (2, 'two')`.execute(database.db);
  };
  const bodyOf = async (id: number) =>
    (await sql<{ body: string }>`select body from notes where id = ${id}`.execute(database.db)).rows[0]?.body;
  /** The connection's prepared statements, each with the times it was planned. */
  const prepared = async () =>
    (
      await sql<{ statement: string; plans: number }>`
        select statement, generic_plans + custom_plans as plans from pg_prepared_statements
        where statement like '%notes%' order by statement collate "C"`.execute(database.db)
    ).rows;

  it("prepares a statement with parameters once and runs it again by name", async () => {
    await open();
    expect([await bodyOf(1), await bodyOf(2), await bodyOf(1)]).toEqual(["one", "two", "one"]);
    expect(await prepared()).toEqual([{ statement: "select body from notes where id = $1", plans: 3 }]);
  });

  it("plans each run of a read that asks for it: its statements go unnamed, the caller's around it stay prepared", async () => {
    await open();
    const bodyOn = async (db: Kysely<DatabaseSchema>, id: number) =>
      (await sql<{ body: string }>`select body from notes where id = ${id}`.execute(db)).rows[0]?.body;
    // Past five runs a prepared statement may keep one plan for every run; these are planned each time.
    for (let run = 0; run < 6; run++) {
      expect(await database.planEachRun((db) => bodyOn(db, (run % 2) + 1))).toBe(run % 2 ? "two" : "one");
    }
    expect(await prepared()).toEqual([]);
    const inside = await database.db.transaction().execute(async (trx) => {
      const read = await database.planEachRun((db) => bodyOn(db, 2), trx);
      return [read, await bodyOn(trx, 1)];
    });
    expect(inside).toEqual(["two", "one"]);
    // Only the caller's statement after the read was kept.
    expect(await prepared()).toEqual([{ statement: "select body from notes where id = $1", plans: 1 }]);

    // A statement sent meanwhile by other work is kept prepared, whether it waits for the one
    // connection behind the read or shares the read's transaction.
    expect(await Promise.all([database.planEachRun((db) => bodyOn(db, 2)), bodyOf(1)])).toEqual([
      "two",
      "one",
    ]);
    const together = await database.db
      .transaction()
      .execute((trx) => Promise.all([database.planEachRun((db) => bodyOn(db, 2), trx), bodyOn(trx, 1)]));
    expect(together).toEqual(["two", "one"]);
    expect(await prepared()).toEqual([{ statement: "select body from notes where id = $1", plans: 3 }]);
  });

  it("prepares nothing with the statement cache switched off", async () => {
    await open({ statementCache: false });
    expect([await bodyOf(1), await bodyOf(2)]).toEqual(["one", "two"]);
    expect(await prepared()).toEqual([]);
  });

  it("runs a text without parameters as sent, several statements in one", async () => {
    await open();
    await sql
      .raw("insert into notes values (3, 'three'); insert into notes values (4, 'four')")
      .execute(database.db);
    expect([await bodyOf(3), await bodyOf(4)]).toEqual(["three", "four"]);
    expect((await prepared()).map((row) => row.statement)).toEqual(["select body from notes where id = $1"]);
  });

  it(`keeps at most ${POSTGRES_STATEMENTS_PER_CONNECTION} statements a connection and runs the rest unnamed`, async () => {
    await open();
    const texts = POSTGRES_STATEMENTS_PER_CONNECTION + 20;
    for (let n = 0; n < texts; n++) {
      const { rows } = await sql<{
        body: string;
      }>`select body from notes where id = ${1} and ${sql.lit(n)} >= 0`.execute(database.db);
      expect(rows).toEqual([{ body: "one" }]);
    }
    expect(await prepared()).toHaveLength(POSTGRES_STATEMENTS_PER_CONNECTION);
  });

  it(`names a list of parameters at its first ${POSTGRES_STATEMENTS_PER_SHAPE} lengths, and runs the others unnamed`, async () => {
    await open();
    await sql`insert into notes values (${3}, ${"three"}), (${4}, ${"four"}), (${5}, ${"five"}), (${6}, ${"six"})`.execute(
      database.db,
    );
    const bodies = async (ids: number[]) =>
      (
        await sql<{
          body: string;
        }>`select body from notes where id in (${sql.join(ids)}) order by id`.execute(database.db)
      ).rows.map((row) => row.body);
    for (const length of [1, 2, 3, 4, 5, 6, 2, 6]) {
      const ids = Array.from({ length }, (_, index) => index + 1);
      expect(await bodies(ids)).toEqual(["one", "two", "three", "four", "five", "six"].slice(0, length));
    }
    expect((await prepared()).map((row) => row.statement)).toEqual([
      "insert into notes values ($1, $2), ($3, $4), ($5, $6), ($7, $8)",
      "select body from notes where id in ($1) order by id",
      "select body from notes where id in ($1, $2) order by id",
      "select body from notes where id in ($1, $2, $3) order by id",
      "select body from notes where id in ($1, $2, $3, $4) order by id",
    ]);
  });

  it("keeps a statement prepared inside a transaction that was rolled back", async () => {
    await open();
    await expect(
      database.db.transaction().execute(async (trx) => {
        await sql`insert into notes values (${3}, ${"three"})`.execute(trx);
        throw new Error("the work changed its mind");
      }),
    ).rejects.toThrow("the work changed its mind");
    await sql`insert into notes values (${3}, ${"three, again"})`.execute(database.db);
    expect(await bodyOf(3)).toBe("three, again");
    // Prepared once, in the rolled-back transaction, and run again by the same name.
    const { rows } = await sql<{ name: string; plans: number }>`
      select name, generic_plans + custom_plans as plans from pg_prepared_statements
      where statement = 'insert into notes values ($1, $2)'`.execute(database.db);
    expect(rows).toEqual([{ name: expect.stringMatching(/^cs0_/), plans: 2 }]);
  });

  /** Another process's migration adding a column to the notes. */
  const addMood = async () => {
    const other = new pg.Client({ connectionString: testDb.url });
    await other.connect();
    await other.query("alter table notes add column mood text default 'glad'");
    await other.end();
  };
  const note = async (db = database.db) =>
    (await sql<Record<string, unknown>>`select * from notes where id = ${1}`.execute(db)).rows[0];

  it("prepares a statement again, and runs it, when a schema change has altered its columns", async () => {
    await open();
    expect(await note()).toEqual({ id: 1, body: "one" });
    expect(await bodyOf(1)).toBe("one");
    await addMood();
    expect(await note()).toEqual({ id: 1, body: "one", mood: "glad" });
    // The statements prepared before are named afresh too, and answer as before; the old ones stay
    // on the server until the connection closes.
    expect(await bodyOf(1)).toBe("one");
    expect(await prepared()).toEqual([
      { statement: "select * from notes where id = $1", plans: 1 },
      { statement: "select * from notes where id = $1", plans: 1 },
      { statement: "select body from notes where id = $1", plans: 1 },
      { statement: "select body from notes where id = $1", plans: 1 },
    ]);
  });

  it("fails the transaction whose statement met a schema change, and runs it in the next", async () => {
    await open();
    expect(await note()).toEqual({ id: 1, body: "one" });
    await addMood();
    await expect(database.db.transaction().execute((trx) => note(trx))).rejects.toThrow(
      "cached plan must not change result type",
    );
    expect(await database.db.transaction().execute((trx) => note(trx))).toEqual({
      id: 1,
      body: "one",
      mood: "glad",
    });
  });

  it("prepares a statement again when PostgreSQL has lost it", async () => {
    await open();
    expect(await bodyOf(1)).toBe("one");
    await sql`deallocate all`.execute(database.db);
    expect(await bodyOf(2)).toBe("two");
    expect(await prepared()).toEqual([{ statement: "select body from notes where id = $1", plans: 1 }]);
  });

  it("fails the transaction whose statement PostgreSQL has lost, and runs it in the next", async () => {
    await open();
    expect(await bodyOf(1)).toBe("one");
    await sql`deallocate all`.execute(database.db);
    const inTransaction = () =>
      database.db
        .transaction()
        .execute(
          async (trx) =>
            (await sql<{ body: string }>`select body from notes where id = ${2}`.execute(trx)).rows,
        );
    await expect(inTransaction()).rejects.toThrow(/prepared statement "cs0_0" does not exist/);
    expect(await inTransaction()).toEqual([{ body: "two" }]);
    expect(await prepared()).toEqual([{ statement: "select body from notes where id = $1", plans: 1 }]);
  });

  it("keeps its names when a statement fails for a reason of its own", async () => {
    await open();
    expect(await bodyOf(1)).toBe("one");
    const insert = () => sql`insert into notes values (${1}, ${"one, again"})`.execute(database.db);
    await expect(insert()).rejects.toThrow(/duplicate key value violates unique constraint/);
    await expect(insert()).rejects.toThrow(/duplicate key value violates unique constraint/);
    expect(await bodyOf(1)).toBe("one");
    // One name each, both of the connection's first generation: nothing was named afresh.
    const { rows } = await sql<{ name: string; statement: string }>`
      select name, statement from pg_prepared_statements
      where statement like '%notes%' order by statement collate "C"`.execute(database.db);
    expect(rows).toEqual([
      { name: "cs0_1", statement: "insert into notes values ($1, $2)" },
      { name: "cs0_0", statement: "select body from notes where id = $1" },
    ]);
  });
});
