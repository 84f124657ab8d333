import { sql } from "kysely";
import { afterEach, describe, expect, it } from "vitest";
import { Database } from "../../src/db/database.js";
import { namedQuery, type Param } from "../../src/db/named-query.js";
import { createTestDatabase, dialects, type TestDatabase } from "../helper.js";

describe.each(dialects)("a named query (%s)", (dialect) => {
  let testDb: TestDatabase;
  let database: Database;
  afterEach(async () => {
    await database.close();
    await testDb.drop();
  });

  const signUp = (id: string, firstName: string) =>
    database.db
      .insertInto("users")
      .values({
        id,
        issuer: "https://issuer.test",
        subject: id,
        email: `${id}@example.org`,
        first_name: firstName,
        last_name: "Walker",
        profile_image_url: null,
        charity_name: null,
        created_at: 1,
        updated_at: 1,
      })
      .execute();

  it("binds each run's values where its builder put them, around the builder's own constants", async () => {
    testDb = await createTestDatabase(dialect, { migrated: true });
    database = Database.connect(testDb.url);
    await database.migrateToLatest();
    await signUp("ann", "Ann");
    await signUp("bob", "Bob");
    await signUp("cat", "Cat");

    const named = namedQuery(database.db, (db, param: Param<{ from: string; to: string }>) =>
      db
        .selectFrom("users")
        .select("first_name")
        .where("last_name", "=", "Walker")
        .where("id", ">=", param("from"))
        .where("id", "<=", param("to"))
        .orderBy("id"),
    );

    const names = async (from: string, to: string) =>
      (await named.execute(database.db, { from, to })).map((row) => row.first_name);
    expect(await names("ann", "bob")).toEqual(["Ann", "Bob"]);
    expect(await names("bob", "cat")).toEqual(["Bob", "Cat"]);
    expect(await names("cat", "cat")).toEqual(["Cat"]);
    // Many runs at once, across the pool's connections.
    const counts = await Promise.all(
      Array.from({ length: 40 }, (_, index) => names(index % 2 === 0 ? "ann" : "bob", "cat")),
    );
    expect(counts.map((rows) => rows.length)).toEqual(
      Array.from({ length: 40 }, (_, i) => (i % 2 === 0 ? 3 : 2)),
    );
  });

  it("runs inside a transaction and sees the transaction's own writes", async () => {
    testDb = await createTestDatabase(dialect, { migrated: true });
    database = Database.connect(testDb.url);
    await database.migrateToLatest();
    const count = namedQuery(database.db, (db, param: Param<{ name: string }>) =>
      db
        .selectFrom("users")
        .select((eb) => eb.fn.countAll<number>().as("n"))
        .where("first_name", "=", param("name")),
    );
    const seen = await database.transaction(async (trx) => {
      await sql`insert into users (id, issuer, subject, email, first_name, last_name, profile_image_url, charity_name, created_at, updated_at)
        values ('dee', 'https://issuer.test', 'dee', 'dee@example.org', 'Dee', 'Walker', null, null, 1, 1)`.execute(
        trx,
      );
      return Number((await count.executeTakeFirst(trx, { name: "Dee" }))?.n);
    });
    expect(seen).toBe(1);
  });
});
