import { setTimeout as sleep } from "node:timers/promises";
import SqliteDatabase from "better-sqlite3";
import { sql } from "kysely";
import { afterEach, describe, expect, it } from "vitest";
import { Database } from "../../src/db/database.js";
import { createTestDatabase, type TestDatabase } from "../helper.js";

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
