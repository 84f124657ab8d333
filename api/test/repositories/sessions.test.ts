import { sql } from "kysely";
import { describe, expect, it } from "vitest";
import { Database } from "../../src/db/database.js";
import { rowsParam } from "../../src/db/json-rows.js";
import { sessionLookup } from "../../src/repositories/sessions.js";
import { createTestDatabase, dialects } from "../helper.js";
import { keptPlan } from "../support/plans.js";

const WALKERS = 500;

describe.each(dialects)("session lookup (%s)", (dialect) => {
  it("finds each valid session by its key, with the plan a connection keeps, however many there are", async () => {
    const testDb = await createTestDatabase(dialect, { migrated: true });
    const database = Database.connect(testDb.url);
    try {
      await database.migrateToLatest();
      const { db } = database;
      const now = Date.now();
      const ids = Array.from({ length: WALKERS }, (_, index) => `w${index}`);
      await db
        .insertInto("users")
        .values(
          ids.map((id) => ({ id, issuer: "https://id.test", subject: id, created_at: 1, updated_at: 1 })),
        )
        .execute();
      // Every walker signed in; the last one's session has expired.
      await db
        .insertInto("sessions")
        .values(
          ids.map((id, index) => ({
            id_hash: `hash-${id}`,
            user_id: id,
            created_at: 1,
            expires_at: index === WALKERS - 1 ? now - 1 : now + 86_400_000,
            renewed_at: 1,
          })),
        )
        .execute();
      await sql`analyze`.execute(db);

      const asked = rowsParam(
        ["hash-w1", "hash-w7", `hash-w${WALKERS - 1}`, "hash-nobody"].map((id_hash) => ({ id_hash })),
      );
      const lookup = sessionLookup(dialect, asked, now);
      const { rows: found } = await lookup.execute(db);
      expect(found.map((row) => [row.id_hash, row.id]).sort()).toEqual([
        ["hash-w1", "w1"],
        ["hash-w7", "w7"],
      ]);

      const plan = await keptPlan(db, dialect, lookup);
      if (dialect === "sqlite") {
        expect(plan).toMatch(/SEARCH s USING INDEX sqlite_autoindex_sessions_1 \(id_hash=\?\)/);
        expect(plan).not.toMatch(/SCAN s\b/);
      } else {
        // The plan is the kept, generic one: it compares with the parameter, not with a value.
        expect(plan).toMatch(/expires_at > \$2/);
        expect(plan).toMatch(/Index Scan using sessions_pkey on sessions s/);
        expect(plan).not.toMatch(/sessions_expires_at_idx|Seq Scan on sessions/);
      }
    } finally {
      await database.close();
      await testDb.drop();
    }
  });
});
