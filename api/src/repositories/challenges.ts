import { type DayString, groupBy } from "@charity-steps/shared-types";
import type { Kysely } from "kysely";
import { type Database, holdWalker, isForeignKeyViolation } from "../db/database.js";
import type { ChallengeMembersTable, ChallengesTable } from "../db/schema/challenges.js";
import type { DatabaseSchema } from "../db/schema/index.js";
import type { AuditEntry, AuditLogRepository } from "./audit-log.js";

export type ChallengeRow = ChallengesTable;
export type ChallengeMemberRow = ChallengeMembersTable;

/** A challenge as a walker sees it in their list: the row, and their membership if they joined. */
export interface VisibleChallenge {
  challenge: ChallengeRow;
  member: ChallengeMemberRow | null;
}

/** One member's part of a challenge over its days so far. */
export interface MemberProgress {
  userId: string;
  firstName: string | null;
  lastName: string | null;
  /** Counted steps over the period. */
  steps: number;
  /** Days whose counted steps reached the challenge's daily target (0 without one). */
  daysOnTarget: number;
  fundraisingUrl: string | null;
}

/**
 * Challenges, the walkers in them, and their progress, read from the walkers' days over each
 * challenge's period (`step_days`: every counted step, pending ones included, as the leaderboards
 * count them).
 */
export class ChallengesRepository {
  constructor(
    private readonly database: Database,
    private readonly auditLog: AuditLogRepository,
  ) {}

  private get db(): Kysely<DatabaseSchema> {
    return this.database.db;
  }

  /** Stores a new challenge; an operator's change is logged with it (`audit`), or not at all. */
  async create(row: ChallengeRow, audit: AuditEntry | null): Promise<void> {
    await this.database.transaction(async (trx) => {
      await trx.insertInto("challenges").values(row).execute();
      if (audit) await this.auditLog.append(trx, audit);
    });
  }

  /**
   * Stores a group's new challenge unless the group has `max` not ended on `today` already: "full",
   * or "gone" when the group was deleted meanwhile. The group's row is held until commit, so that
   * admins' creates at once are counted one after another.
   */
  async createInGroup(
    row: ChallengeRow & { group_id: number },
    today: DayString,
    max: number,
  ): Promise<"created" | "full" | "gone"> {
    try {
      return await this.database.writeTransaction(async (trx) => {
        let held = trx.selectFrom("groups").select("id").where("id", "=", row.group_id);
        if (this.database.dialect === "postgres") held = held.forUpdate();
        if (!(await held.executeTakeFirst())) return "gone";
        const { count } = await trx
          .selectFrom("challenges")
          .select((eb) => eb.fn.countAll<number>().as("count"))
          .where("group_id", "=", row.group_id)
          .where("ends_on", ">=", today)
          .executeTakeFirstOrThrow();
        if (Number(count) >= max) return "full";
        await trx.insertInto("challenges").values(row).execute();
        return "created";
      });
    } catch (error) {
      if (isForeignKeyViolation(error)) return "gone";
      throw error;
    }
  }

  async update(
    id: string,
    changes: Partial<Omit<ChallengeRow, "id" | "scope" | "group_id">>,
    audit: AuditEntry | null,
  ): Promise<void> {
    await this.database.transaction(async (trx) => {
      await trx.updateTable("challenges").set(changes).where("id", "=", id).execute();
      if (audit) await this.auditLog.append(trx, audit);
    });
  }

  /** Removes a challenge and its members. */
  async delete(id: string, audit: AuditEntry | null): Promise<void> {
    await this.database.transaction(async (trx) => {
      await trx.deleteFrom("challenges").where("id", "=", id).execute();
      if (audit) await this.auditLog.append(trx, audit);
    });
  }

  async find(id: string): Promise<ChallengeRow | undefined> {
    const row = await this.db.selectFrom("challenges").selectAll().where("id", "=", id).executeTakeFirst();
    return row ? challengeNumbers(row) : undefined;
  }

  async member(challengeId: string, userId: string): Promise<ChallengeMemberRow | undefined> {
    const row = await this.db
      .selectFrom("challenge_members")
      .selectAll()
      .where("challenge_id", "=", challengeId)
      .where("user_id", "=", userId)
      .executeTakeFirst();
    return row ? memberNumbers(row) : undefined;
  }

  /**
   * The public challenges and those of the walker's groups that end on or after `endedSince`, with
   * the walker's membership; soonest end first.
   */
  async visibleTo(userId: string, endedSince: DayString): Promise<VisibleChallenge[]> {
    const rows = await this.db
      .selectFrom("challenges as c")
      .leftJoin("challenge_members as m", (join) =>
        join.onRef("m.challenge_id", "=", "c.id").on("m.user_id", "=", userId),
      )
      .where("c.ends_on", ">=", endedSince)
      .where((eb) =>
        eb.or([
          eb("c.scope", "=", "public"),
          eb(
            "c.group_id",
            "in",
            eb
              .selectFrom("group_members")
              .select("group_members.group_id")
              .where("group_members.user_id", "=", userId),
          ),
        ]),
      )
      .selectAll("c")
      .select(MEMBERSHIP_COLUMNS)
      .orderBy("c.ends_on")
      .orderBy("c.starts_on")
      .orderBy("c.id")
      .execute();
    return rows.map((row) => withMembership(row, userId));
  }

  /**
   * Adds the walker: "member" when they had joined already, "full" when `limit` is given and they
   * are in `limit.max` challenges not ended on `limit.today`, "gone" when the challenge was deleted
   * meanwhile. The walker's row is held until commit, so that their joins at once (on any process)
   * are counted one after another.
   */
  async join(
    challengeId: string,
    userId: string,
    now: number,
    limit?: { today: DayString; max: number },
  ): Promise<"joined" | "member" | "full" | "gone"> {
    try {
      return await this.database.writeTransaction(async (trx) => {
        await holdWalker(trx, this.database.dialect, userId);
        const member = await trx
          .selectFrom("challenge_members")
          .select("user_id")
          .where("challenge_id", "=", challengeId)
          .where("user_id", "=", userId)
          .executeTakeFirst();
        if (member) return "member";
        if (limit) {
          const { count } = await trx
            .selectFrom("challenge_members as m")
            .innerJoin("challenges as c", "c.id", "m.challenge_id")
            .select((eb) => eb.fn.countAll<number>().as("count"))
            .where("m.user_id", "=", userId)
            .where("c.ends_on", ">=", limit.today)
            .executeTakeFirstOrThrow();
          if (Number(count) >= limit.max) return "full";
        }
        await trx
          .insertInto("challenge_members")
          .values({
            challenge_id: challengeId,
            user_id: userId,
            joined_at: now,
            completed_at: null,
            fundraising_url: null,
          })
          .execute();
        return "joined";
      });
    } catch (error) {
      if (isForeignKeyViolation(error)) return "gone";
      throw error;
    }
  }

  async leave(challengeId: string, userId: string): Promise<void> {
    await this.db
      .deleteFrom("challenge_members")
      .where("challenge_id", "=", challengeId)
      .where("user_id", "=", userId)
      .execute();
  }

  /** Sets (or with null removes) the member's fundraising page; false when they have not joined. */
  async setFundraising(challengeId: string, userId: string, url: string | null): Promise<boolean> {
    const result = await this.db
      .updateTable("challenge_members")
      .set({ fundraising_url: url })
      .where("challenge_id", "=", challengeId)
      .where("user_id", "=", userId)
      .executeTakeFirst();
    return Number(result.numUpdatedRows) > 0;
  }

  /**
   * Members' steps and days on target from the start to `countsTo`: all members, or only `userId`.
   * The days are summed per walker first and joined to the members after: grouping the members'
   * rows with their names costs about twice as much on PostgreSQL at 10,000 members. Every member's
   * is planned for its dates at each run (`planEachRun`).
   */
  async progress(challenge: ChallengeRow, countsTo: DayString, userId?: string): Promise<MemberProgress[]> {
    // Without a daily target no day counts: a threshold no day's steps reach.
    const daily = challenge.daily_target ?? 2_147_483_647;
    let sums = this.db
      .selectFrom("step_days as d")
      .innerJoin("challenge_members as j", (join) =>
        join.onRef("j.user_id", "=", "d.user_id").on("j.challenge_id", "=", challenge.id),
      )
      .where("d.day", ">=", challenge.starts_on)
      .where("d.day", "<=", countsTo)
      .groupBy("d.user_id")
      .select((eb) => [
        "d.user_id",
        eb.fn.sum<number>("d.total_steps").as("steps"),
        eb.fn.sum<number>(eb.case().when("d.total_steps", ">=", daily).then(1).else(0).end()).as("days"),
      ]);
    if (userId !== undefined) sums = sums.where("d.user_id", "=", userId);
    let query = this.db
      .selectFrom("challenge_members as m")
      .innerJoin("users as u", "u.id", "m.user_id")
      .leftJoin(sums.as("a"), "a.user_id", "m.user_id")
      .where("m.challenge_id", "=", challenge.id)
      .select(["m.user_id", "u.first_name", "u.last_name", "m.fundraising_url", "a.steps", "a.days"]);
    if (userId !== undefined) query = query.where("m.user_id", "=", userId);
    const { rows } =
      userId === undefined
        ? await this.database.planEachRun((db) => db.executeQuery(query))
        : await this.db.executeQuery(query);
    return rows.map((row) => ({
      userId: row.user_id,
      firstName: row.first_name,
      lastName: row.last_name,
      steps: Number(row.steps ?? 0),
      daysOnTarget: Number(row.days ?? 0),
      fundraisingUrl: row.fundraising_url,
    }));
  }

  /**
   * Marks members completed at `now`: `userIds`, or every member (a team's target), those not
   * completed before; answers who was marked, each once however many processes try.
   */
  async complete(challengeId: string, userIds: readonly string[] | null, now: number): Promise<string[]> {
    if (userIds !== null && userIds.length === 0) return [];
    let query = this.db
      .updateTable("challenge_members")
      .set({ completed_at: now })
      .where("challenge_id", "=", challengeId)
      .where("completed_at", "is", null);
    if (userIds !== null) query = query.where("user_id", "in", userIds);
    const rows = await query.returning("user_id").execute();
    return rows.map((row) => row.user_id);
  }

  /**
   * The challenges the walker is in, with their membership, by start: every one (their data export),
   * or those that end on or after `notEndedOn`.
   */
  async membershipsOf(userId: string, notEndedOn?: DayString): Promise<VisibleChallenge[]> {
    return (await this.membershipsOfAll([userId], notEndedOn)).get(userId) ?? [];
  }

  /** `membershipsOf` for each of `userIds` (a walker with none is absent), in one query. */
  async membershipsOfAll(
    userIds: readonly string[],
    notEndedOn?: DayString,
  ): Promise<Map<string, VisibleChallenge[]>> {
    if (userIds.length === 0) return new Map();
    let query = this.db
      .selectFrom("challenge_members as m")
      .innerJoin("challenges as c", "c.id", "m.challenge_id")
      .where("m.user_id", "in", userIds)
      .selectAll("c")
      .select(["m.user_id as m_user_id", ...MEMBERSHIP_COLUMNS])
      .orderBy("c.starts_on")
      .orderBy("c.id");
    if (notEndedOn !== undefined) query = query.where("c.ends_on", ">=", notEndedOn);
    return groupBy(
      await query.execute(),
      (row) => row.m_user_id,
      ({ m_user_id, ...row }) => withMembership(row, m_user_id),
    );
  }

  /** The names of challenges, by id: for the badges they give. */
  async names(ids: readonly string[]): Promise<Map<string, string>> {
    if (ids.length === 0) return new Map();
    const rows = await this.db
      .selectFrom("challenges")
      .select(["id", "name"])
      .where("id", "in", ids)
      .execute();
    return new Map(rows.map((row) => [row.id, row.name]));
  }
}

/** A walker's membership read beside its challenge's columns (null columns: not joined). */
const MEMBERSHIP_COLUMNS = [
  "m.joined_at as m_joined_at",
  "m.completed_at as m_completed_at",
  "m.fundraising_url as m_fundraising_url",
] as const;

function withMembership(
  row: ChallengeRow & {
    m_joined_at: number | null;
    m_completed_at: number | null;
    m_fundraising_url: string | null;
  },
  userId: string,
): VisibleChallenge {
  const { m_joined_at, m_completed_at, m_fundraising_url, ...challenge } = row;
  return {
    challenge: challengeNumbers(challenge),
    member:
      m_joined_at === null
        ? null
        : {
            challenge_id: challenge.id,
            user_id: userId,
            joined_at: Number(m_joined_at),
            completed_at: m_completed_at === null ? null : Number(m_completed_at),
            fundraising_url: m_fundraising_url,
          },
  };
}

function challengeNumbers<T extends ChallengeRow>(row: T): ChallengeRow {
  return {
    id: row.id,
    name: row.name,
    description: row.description,
    charity_name: row.charity_name,
    kind: row.kind,
    target: Number(row.target),
    daily_target: row.daily_target === null ? null : Number(row.daily_target),
    starts_on: row.starts_on,
    ends_on: row.ends_on,
    scope: row.scope,
    group_id: row.group_id === null ? null : Number(row.group_id),
    created_by: row.created_by,
    created_at: Number(row.created_at),
    updated_at: Number(row.updated_at),
  };
}

function memberNumbers(row: ChallengeMemberRow): ChallengeMemberRow {
  return {
    ...row,
    joined_at: Number(row.joined_at),
    completed_at: row.completed_at === null ? null : Number(row.completed_at),
  };
}
