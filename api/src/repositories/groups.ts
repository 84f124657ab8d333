import { randomInt } from "node:crypto";
import {
  type DayString,
  GROUPS_PER_WALKER_MAX,
  type Group,
  type GroupLeaderboardEntry,
  type GroupMember,
  JOIN_CODE_ALPHABET,
  JOIN_CODE_LENGTH,
  type MyGroup,
  monthOfDay,
  type PublicUser,
} from "@charity-steps/shared-types";
import { type ExpressionBuilder, type Kysely, sql } from "kysely";
import { type Database, holdWalker, isUniqueViolation } from "../db/database.js";
import type { DatabaseSchema } from "../db/schema/index.js";

/** Fresh join codes a new group tries before giving up; with 31^8 (8.5 × 10^11) codes, clashes are rare. */
const JOIN_CODE_ATTEMPTS = 5;

export interface NewGroup {
  adminUserId: string;
  name: string;
  description: string;
}

/**
 * A new membership, or the one the walker already had (never a duplicate); or no group has the code;
 * or the walker is in GROUPS_PER_WALKER_MAX groups already.
 */
export type JoinOutcome =
  | { kind: "joined" | "already-member"; group: Group }
  | { kind: "unknown-code" }
  | { kind: "too-many" };

/** A join code of JOIN_CODE_LENGTH characters from JOIN_CODE_ALPHABET, from a cryptographic source. */
export function randomJoinCode(): string {
  return Array.from(
    { length: JOIN_CODE_LENGTH },
    () => JOIN_CODE_ALPHABET[randomInt(JOIN_CODE_ALPHABET.length)],
  ).join("");
}

/**
 * Walking groups, their members and the monthly leaderboard. Who may do what is the
 * routes' business; this answers questions and makes the changes.
 */
export class GroupsRepository {
  constructor(
    private readonly database: Database,
    private readonly makeJoinCode: () => string = randomJoinCode,
  ) {}

  private get db() {
    return this.database.db;
  }

  /** Whether the walker is in GROUPS_PER_WALKER_MAX groups already; their row is held until commit. */
  private async groupsFull(trx: Kysely<DatabaseSchema>, userId: string): Promise<boolean> {
    await holdWalker(trx, this.database.dialect, userId);
    const { held } = await trx
      .selectFrom("group_members")
      .select((eb) => eb.fn.countAll<number>().as("held"))
      .where("user_id", "=", userId)
      .executeTakeFirstOrThrow();
    return Number(held) >= GROUPS_PER_WALKER_MAX;
  }

  /**
   * Creates the group with its creator as admin and first member; a join code clash picks another.
   * Undefined when the walker is in GROUPS_PER_WALKER_MAX groups already.
   */
  async create(input: NewGroup, now = Date.now()): Promise<Group | undefined> {
    for (let attempt = 1; ; attempt++) {
      try {
        const id = await this.database.writeTransaction(async (trx) => {
          if (await this.groupsFull(trx, input.adminUserId)) return undefined;
          const { id } = await trx
            .insertInto("groups")
            .values({
              name: input.name,
              description: input.description,
              join_code: this.makeJoinCode(),
              admin_user_id: input.adminUserId,
              created_at: now,
            })
            .returning("id")
            .executeTakeFirstOrThrow();
          await trx
            .insertInto("group_members")
            .values({ group_id: id, user_id: input.adminUserId, joined_at: now })
            .execute();
          return id;
        });
        if (id === undefined) return undefined;
        const group = await this.findById(id);
        if (!group) throw new Error(`Group ${id} vanished right after it was created`);
        return group;
      } catch (error) {
        if (!isUniqueViolation(error) || attempt >= JOIN_CODE_ATTEMPTS) throw error;
      }
    }
  }

  /** The group with its member count, as every read of one group starts. */
  private groupWithCount(id: number) {
    return this.db.selectFrom("groups as g").selectAll("g").select(memberCount).where("g.id", "=", id);
  }

  async findById(id: number): Promise<Group | undefined> {
    const row = await this.groupWithCount(id).executeTakeFirst();
    return row && toGroup(row);
  }

  /**
   * The group and whether the walker is one of its members, read in one statement: a group deleted
   * meanwhile is gone with its memberships, never found without them.
   */
  async findForWalker(id: number, userId: string): Promise<{ group: Group; member: boolean } | undefined> {
    const row = await this.groupWithCount(id)
      .select((eb) =>
        eb
          .exists(
            eb
              .selectFrom("group_members as mine")
              .select("mine.user_id")
              .whereRef("mine.group_id", "=", "g.id")
              .where("mine.user_id", "=", userId),
          )
          .as("member"),
      )
      .executeTakeFirst();
    return row && { group: toGroup(row), member: Boolean(row.member) };
  }

  /** The group whose join code this is (already normalised), if any. */
  async findByJoinCode(joinCode: string): Promise<Group | undefined> {
    const found = await this.db
      .selectFrom("groups")
      .select("id")
      .where("join_code", "=", joinCode)
      .executeTakeFirst();
    return found && this.findById(found.id);
  }

  /** When the walker joined the group, or undefined when they are not a member. */
  async joinedAt(groupId: number, userId: string): Promise<number | undefined> {
    const row = await this.db
      .selectFrom("group_members")
      .select("joined_at")
      .where("group_id", "=", groupId)
      .where("user_id", "=", userId)
      .executeTakeFirst();
    return row?.joined_at;
  }

  /** The walker's groups, newest membership first. */
  async listForUser(userId: string): Promise<MyGroup[]> {
    const rows = await this.db
      .selectFrom("group_members as mine")
      .innerJoin("groups as g", "g.id", "mine.group_id")
      .selectAll("g")
      .select(["mine.joined_at", memberCount])
      .where("mine.user_id", "=", userId)
      .orderBy("mine.joined_at", "desc")
      .orderBy("g.id", "desc")
      .execute();
    return rows.map((row) => ({
      ...toGroup(row),
      isAdmin: row.admin_user_id === userId,
      joinedAt: new Date(row.joined_at).toISOString(),
    }));
  }

  /** Adds the walker to the group whose code this is (already normalised); never twice. */
  async join(joinCode: string, userId: string, now = Date.now()): Promise<JoinOutcome> {
    const found = await this.db
      .selectFrom("groups")
      .select("id")
      .where("join_code", "=", joinCode)
      .executeTakeFirst();
    if (!found) return { kind: "unknown-code" };
    const joined = await this.database.writeTransaction(async (trx) => {
      // The walker's row is held first, so that two joins of one group at once see each other.
      const full = await this.groupsFull(trx, userId);
      const member = await trx
        .selectFrom("group_members")
        .select("user_id")
        .where("group_id", "=", found.id)
        .where("user_id", "=", userId)
        .executeTakeFirst();
      // A walker already in the group is answered as before, however many groups they are in.
      if (member) return false;
      if (full) return "too-many" as const;
      // Inserted only while the group still exists, so a join racing its deletion finds no group.
      const inserted = await trx
        .insertInto("group_members")
        .columns(["group_id", "user_id", "joined_at"])
        .expression((eb) =>
          eb
            .selectFrom("groups")
            .select((inner) => ["groups.id", inner.val(userId).as("user_id"), inner.val(now).as("joined_at")])
            .where("groups.id", "=", found.id),
        )
        .onConflict((conflict) => conflict.columns(["group_id", "user_id"]).doNothing())
        .executeTakeFirst();
      return Number(inserted.numInsertedOrUpdatedRows ?? 0n) > 0;
    });
    if (joined === "too-many") return { kind: "too-many" };
    const group = await this.findById(found.id);
    if (!group) return { kind: "unknown-code" };
    return { kind: joined ? "joined" : "already-member", group };
  }

  /** Removes the walker's membership; true when there was one. Their steps are untouched. */
  async leave(groupId: number, userId: string): Promise<boolean> {
    const result = await this.db
      .deleteFrom("group_members")
      .where("group_id", "=", groupId)
      .where("user_id", "=", userId)
      .executeTakeFirst();
    return Number(result.numDeletedRows) > 0;
  }

  /** Deletes the group and (by cascade) its memberships; every walker's steps stay. */
  async delete(groupId: number): Promise<boolean> {
    const result = await this.db.deleteFrom("groups").where("id", "=", groupId).executeTakeFirst();
    return Number(result.numDeletedRows) > 0;
  }

  /** The group's members in the order they joined (the admin first), without their emails. */
  async members(groupId: number): Promise<GroupMember[]> {
    const rows = await this.db
      .selectFrom("group_members as m")
      .innerJoin("users as u", "u.id", "m.user_id")
      .select(["m.user_id", "m.joined_at", ...publicUserColumns])
      .where("m.group_id", "=", groupId)
      .orderBy("m.joined_at")
      .orderBy("m.user_id")
      .execute();
    return rows.map((row) => ({
      userId: row.user_id,
      joinedAt: new Date(row.joined_at).toISOString(),
      user: toPublicUser(row),
    }));
  }

  /**
   * Every member with their steps on London day `today` and in its month, ranked by the month's
   * (ties share a rank; among them, by name, then id). One row per member: the month and today
   * both from the walker's month row, which keeps its latest day.
   */
  async leaderboard(groupId: number, today: DayString): Promise<GroupLeaderboardEntry[]> {
    const members = this.db
      .selectFrom("group_members as m")
      .innerJoin("users as u", "u.id", "m.user_id")
      .leftJoin("step_months as sm", (join) =>
        join.onRef("sm.user_id", "=", "m.user_id").on("sm.month", "=", monthOfDay(today)),
      )
      .where("m.group_id", "=", groupId)
      .select((eb) => [
        ...publicUserColumns,
        "sm.total_steps",
        eb
          .case()
          .when("sm.last_day", "=", today)
          .then(eb.ref("sm.last_day_steps"))
          .else(0)
          .end()
          .as("today_steps"),
      ]);
    const read = async (db: Kysely<DatabaseSchema>): Promise<GroupLeaderboardEntry[]> => {
      if (this.database.dialect === "sqlite") {
        // SQLite hands the members over as one JSON text: made into an object each, thousands of
        // rows cost the API several times what parsing one text of them does. On PostgreSQL the
        // text costs the database about what it saves the API.
        const { rows } = await sql<{ board: string }>`
          select json_group_array(json_array(b.id, b.first_name, b.last_name, b.profile_image_url,
            b.total_steps, b.today_steps)) as board
          from (${members}) b`.execute(db);
        return (JSON.parse(rows[0]?.board ?? "[]") as BoardRow[]).map((row) => boardEntry(...row));
      }
      const { rows } = await db.executeQuery(members);
      return rows.map((row) =>
        boardEntry(
          row.id,
          row.first_name,
          row.last_name,
          row.profile_image_url,
          row.total_steps,
          row.today_steps,
        ),
      );
    };
    // Planned for its group at each run: a few members are looked up by key, thousands are joined
    // to every walker's month at once, and one plan kept for all groups suits only one of them.
    const entries = await this.database.planEachRun(read);
    // Ordered here, the same on both databases (their collations order names differently), and
    // ranked in the same pass: equal months share a rank, and the next rank skips (1, 1, 3).
    entries.sort(
      (a, b) =>
        b.monthlySteps - a.monthlySteps ||
        names.compare(a.user.firstName ?? "", b.user.firstName ?? "") ||
        names.compare(a.user.lastName ?? "", b.user.lastName ?? "") ||
        (a.user.id < b.user.id ? -1 : a.user.id > b.user.id ? 1 : 0),
    );
    let previous: GroupLeaderboardEntry | undefined;
    entries.forEach((entry, index) => {
      entry.rank = previous?.monthlySteps === entry.monthlySteps ? previous.rank : index + 1;
      previous = entry;
    });
    return entries;
  }
}

/** A member's row of a leaderboard: id, first and last name, picture, the month's steps, today's. */
type BoardRow = [
  id: string,
  firstName: string | null,
  lastName: string | null,
  profileImageUrl: string | null,
  monthlySteps: number | string | null,
  todaySteps: number | null,
];

/** A member's entry, unranked, from their row of the board. */
function boardEntry(
  ...[id, firstName, lastName, profileImageUrl, monthlySteps, todaySteps]: BoardRow
): GroupLeaderboardEntry {
  return {
    rank: 0,
    user: { id, firstName, lastName, profileImageUrl },
    todaySteps: Number(todaySteps ?? 0),
    monthlySteps: Number(monthlySteps ?? 0),
  };
}

/** Names in the order a reader expects: case and accents only break ties ("émile" next to "Emile"). */
const names = new Intl.Collator("en-GB");

const publicUserColumns = ["u.id", "u.first_name", "u.last_name", "u.profile_image_url"] as const;

function memberCount(eb: ExpressionBuilder<DatabaseSchema & { g: DatabaseSchema["groups"] }, "g">) {
  return eb
    .selectFrom("group_members as counted")
    .select((inner) => inner.fn.countAll<number>().as("n"))
    .whereRef("counted.group_id", "=", "g.id")
    .as("member_count");
}

interface GroupRow {
  id: number;
  name: string;
  description: string;
  join_code: string;
  admin_user_id: string;
  created_at: number;
  member_count: number | null;
}

function toGroup(row: GroupRow): Group {
  return {
    id: row.id,
    name: row.name,
    description: row.description,
    joinCode: row.join_code,
    adminUserId: row.admin_user_id,
    createdAt: new Date(row.created_at).toISOString(),
    memberCount: Number(row.member_count ?? 0),
  };
}

function toPublicUser(row: {
  id: string;
  first_name: string | null;
  last_name: string | null;
  profile_image_url: string | null;
}): PublicUser {
  return {
    id: row.id,
    firstName: row.first_name,
    lastName: row.last_name,
    profileImageUrl: row.profile_image_url,
  };
}
