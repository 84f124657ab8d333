import type { Group } from "@charity-steps/shared-types";
import { sql } from "kysely";
import { describe, expect, it } from "vitest";
import { Database } from "../../src/db/database.js";
import { GroupsRepository } from "../../src/repositories/groups.js";
import { createTestDatabase, dialects } from "../helper.js";

const WALKERS = 10_000;
/** A walking club: every hundredth walker. */
const MEMBERS = 100;
const CLUBS = 500;

/** A group the test made: its walkers are in none yet, so it is always made. */
async function created(group: Promise<Group | undefined>): Promise<Group> {
  const made = await group;
  if (!made) throw new Error("the group was not made");
  return made;
}

describe.each(dialects.filter((dialect) => dialect === "postgres"))("a group's leaderboard on %s", () => {
  it("looks a club's hundred members up by key among ten thousand walkers, and reads everyone's group whole", async () => {
    const testDb = await createTestDatabase("postgres", { migrated: true });
    // One connection to a database nothing else uses: the tables' statistics (PostgreSQL 15's,
    // flushed on asking) count this test's reads alone.
    const database = Database.connect(testDb.url, { poolSize: 1 });
    try {
      const { db } = database;
      await sql`
        insert into users (id, issuer, subject, first_name, last_name, created_at, updated_at)
        select 'w' || n, 'https://id.test', 'w' || n, 'Walker', 'No. ' || n, 1, 1
        from generate_series(1, ${WALKERS}) n`.execute(db);
      await sql`
        insert into step_months (user_id, month, total_steps, last_day, last_day_steps, updated_at)
        select 'w' || n, '2026-11', n * 100, '2026-11-21', n, 1 from generate_series(1, ${WALKERS}) n`.execute(
        db,
      );
      const groups = new GroupsRepository(database);
      const club = await created(groups.create({ adminUserId: "w100", name: "Club", description: "" }, 1));
      await sql`
        insert into group_members (group_id, user_id, joined_at)
        select ${club.id}, 'w' || (n * 100), 2 from generate_series(2, ${MEMBERS}) n`.execute(db);
      // Five hundred more clubs like it, as a service has many small groups,
      await sql`
        insert into groups (name, description, join_code, admin_user_id, created_at)
        select 'Club ' || c, '', 'CLUB' || c, 'w' || c, 1 from generate_series(1, ${CLUBS}) c`.execute(db);
      await sql`
        insert into group_members (group_id, user_id, joined_at)
        select g.id, 'w' || ((n * 100 + c) % ${WALKERS} + 1), 2
        from generate_series(1, ${CLUBS}) c
        join groups g on g.join_code = 'CLUB' || c
        cross join generate_series(1, ${MEMBERS}) n`.execute(db);
      // and everyone's group, whose board is read fastest by joining every walker at once.
      const everyone = await created(
        groups.create({ adminUserId: "w1", name: "Everyone", description: "" }, 1),
      );
      await sql`
        insert into group_members (group_id, user_id, joined_at)
        select ${everyone.id}, 'w' || n, 2 from generate_series(2, ${WALKERS}) n`.execute(db);
      await sql`analyze`.execute(db);
      /** How many times each table was read whole by this connection, all told. */
      const wholeReads = async () => {
        // The connection's counts reach the statistics views as the next statement ends.
        await sql`select pg_stat_force_next_flush()`.execute(db);
        const { rows } = await sql<{ relname: string; seq_scan: string }>`
          select relname, seq_scan from pg_stat_user_tables
          where relname in ('users', 'step_months') order by relname`.execute(db);
        return rows.map((row) => [row.relname, Number(row.seq_scan)]);
      };

      // Past five runs, a statement kept prepared may keep one plan for every run: the club's seven
      // runs are each read by key, and the board of everyone after them is still planned for its size.
      for (let run = 0; run < 7; run++) {
        const before = await wholeReads();
        const board = await groups.leaderboard(club.id, "2026-11-21");
        expect(await wholeReads()).toEqual(before);
        expect(board).toHaveLength(MEMBERS);
        expect(
          board
            .slice(0, 2)
            .map(({ rank, user, todaySteps, monthlySteps }) => [rank, user.id, todaySteps, monthlySteps]),
        ).toEqual([
          [1, "w10000", 10_000, 1_000_000],
          [2, "w9900", 9_900, 990_000],
        ]);
      }
      const before = await wholeReads();
      expect(await groups.leaderboard(everyone.id, "2026-11-21")).toHaveLength(WALKERS);
      expect(await wholeReads()).toEqual(before.map(([table, reads]) => [table, Number(reads) + 1]));
    } finally {
      await database.close();
      await testDb.drop();
    }
  });
});
