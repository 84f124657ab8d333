import { randomUUID } from "node:crypto";
import { groupBy } from "@charity-steps/shared-types";
import { type Kysely, sql } from "kysely";
import type { Database } from "../db/database.js";
import type { DatabaseSchema } from "../db/schema/index.js";
import type { MailOutboxRepository } from "./mail-outbox.js";
import type { NotificationsRepository } from "./notifications.js";

/** Rows one export query reads at a time, so a long history never sits in memory whole. */
export const EXPORT_PAGE_ROWS = 200;

/** What `users.subject` of an erased account starts with; the rest is random, so no sign-in reaches it. */
export const ERASED_SUBJECT_PREFIX = "erased:";

export interface ExportProfile {
  firstName: string | null;
  lastName: string | null;
  email: string | null;
  createdAt: number;
  charityName: string | null;
  /** When the email was confirmed (a mailed link, or the provider's word), or null. */
  emailVerifiedAt: number | null;
  theme: string;
  onboardedAt: number | null;
  /** Each daily goal the walker set, from the day it began. */
  dailyGoals: { from: string; goal: number; setAt: number }[];
  badges: { id: string; earnedAt: number }[];
  weeklyEmail: boolean;
}

export interface ExportCounter {
  counterId: string;
  kind: string;
  source: string;
  steps: number;
  updatedAt: number;
}

export interface ExportDay {
  day: string;
  motionSteps: number;
  healthSteps: number;
  manualSteps: number;
  totalSteps: number;
  updatedAt: number;
  counters: ExportCounter[];
}

export interface ExportMonth {
  month: string;
  totalSteps: number;
  updatedAt: number;
}

export interface ExportManualEntry {
  id: string;
  day: string;
  steps: number;
  note: string;
  createdAt: number;
  photoId: string;
  photoContentType: string;
  photoWidth: number;
  photoHeight: number;
  /** Whether it counts for prizes: approved, pending (with why) or rejected (with the operator's reason). */
  status: string;
  reasons: string[];
  decisionReason: string | null;
  decidedAt: number | null;
}

export interface ExportGroup {
  id: number;
  name: string;
  description: string;
  joinCode: string;
  createdAt: number;
  joinedAt: number;
  isAdmin: boolean;
  /** Every member (the walker too) as the leaderboard shows them: names only, never emails. */
  members: { firstName: string | null; lastName: string | null; joinedAt: number; isYou: boolean }[];
}

export interface ExportSession {
  userAgent: string | null;
  idHash: string;
  createdAt: number;
  lastSeenAt: number;
  expiresAt: number;
}

export interface ExportHealthKey {
  name: string;
  createdAt: number;
  lastUsedAt: number | null;
}

export interface ErasedAccount {
  /** Groups the walker ran that passed to another member, and those deleted for want of one. */
  groupsHandedOver: number;
  groupsDeleted: number;
}

/**
 * What the service holds about one walker: read for their data export, erased when they leave.
 * Erasure keeps step numbers (days, months, manual entries' steps) as anonymous figures under the
 * walker's id, so that a challenge's team total does not change when someone leaves. A charity's
 * and a group's totals count their supporters and members of now, which the walker stops being.
 */
export class AccountDataRepository {
  constructor(
    private readonly database: Database,
    private readonly mailOutbox: MailOutboxRepository,
    private readonly notifications: NotificationsRepository,
  ) {}

  private get db() {
    return this.database.db;
  }

  async profile(userId: string): Promise<ExportProfile | undefined> {
    const row = await this.db
      .selectFrom("users")
      .select([
        "first_name",
        "last_name",
        "email",
        "created_at",
        "charity_name",
        "email_verified_at",
        "theme",
        "onboarded_at",
        "weekly_email_off_at",
      ])
      .where("id", "=", userId)
      .executeTakeFirst();
    const goals = await this.db
      .selectFrom("daily_goals")
      .select(["from_day", "goal", "set_at"])
      .where("user_id", "=", userId)
      .orderBy("from_day")
      .execute();
    const badges = await this.db
      .selectFrom("user_badges")
      .select(["badge_id", "earned_at"])
      .where("user_id", "=", userId)
      .orderBy("earned_at")
      .orderBy("badge_id")
      .execute();
    return (
      row && {
        firstName: row.first_name,
        lastName: row.last_name,
        email: row.email,
        createdAt: Number(row.created_at),
        charityName: row.charity_name,
        emailVerifiedAt: row.email_verified_at === null ? null : Number(row.email_verified_at),
        theme: row.theme,
        onboardedAt: row.onboarded_at === null ? null : Number(row.onboarded_at),
        dailyGoals: goals.map((goal) => ({
          from: goal.from_day,
          goal: goal.goal,
          setAt: Number(goal.set_at),
        })),
        badges: badges.map((badge) => ({ id: badge.badge_id, earnedAt: Number(badge.earned_at) })),
        weeklyEmail: row.weekly_email_off_at === null,
      }
    );
  }

  /** The walker's days in date order, each with its counters, a page at a time. */
  async *days(userId: string): AsyncGenerator<ExportDay[]> {
    let after = "";
    for (;;) {
      const rows = await this.db
        .selectFrom("step_days")
        .select(["day", "motion_steps", "health_steps", "manual_steps", "total_steps", "updated_at"])
        .where("user_id", "=", userId)
        .where("day", ">", after)
        .orderBy("day")
        .limit(EXPORT_PAGE_ROWS)
        .execute();
      if (rows.length === 0) return;
      const first = rows[0]?.day ?? "";
      const last = rows[rows.length - 1]?.day ?? "";
      const counters = await this.db
        .selectFrom("step_counters")
        .select(["day", "counter_id", "kind", "source", "steps", "updated_at"])
        .where("user_id", "=", userId)
        .where("day", ">=", first)
        .where("day", "<=", last)
        .orderBy("day")
        .orderBy("counter_id")
        .execute();
      const byDay = groupBy(
        counters,
        (counter) => counter.day,
        (counter): ExportCounter => ({
          counterId: counter.counter_id,
          kind: counter.kind,
          source: counter.source,
          steps: Number(counter.steps),
          updatedAt: Number(counter.updated_at),
        }),
      );
      yield rows.map((row) => ({
        day: row.day,
        motionSteps: Number(row.motion_steps),
        healthSteps: Number(row.health_steps),
        manualSteps: Number(row.manual_steps),
        totalSteps: Number(row.total_steps),
        updatedAt: Number(row.updated_at),
        counters: byDay.get(row.day) ?? [],
      }));
      after = last;
      if (rows.length < EXPORT_PAGE_ROWS) return;
    }
  }

  async *months(userId: string): AsyncGenerator<ExportMonth[]> {
    let after = "";
    for (;;) {
      const rows = await this.db
        .selectFrom("step_months")
        .select(["month", "total_steps", "updated_at"])
        .where("user_id", "=", userId)
        .where("month", ">", after)
        .orderBy("month")
        .limit(EXPORT_PAGE_ROWS)
        .execute();
      if (rows.length === 0) return;
      yield rows.map((row) => ({
        month: row.month,
        totalSteps: Number(row.total_steps),
        updatedAt: Number(row.updated_at),
      }));
      after = rows[rows.length - 1]?.month ?? after;
      if (rows.length < EXPORT_PAGE_ROWS) return;
    }
  }

  /** The walker's manual entries (without the photos' bytes), in the order they were made. */
  async *manualEntries(userId: string): AsyncGenerator<ExportManualEntry[]> {
    let after: { createdAt: number; id: string } | undefined;
    for (;;) {
      let query = this.db
        .selectFrom("manual_step_entries as e")
        .innerJoin("step_photos as p", "p.id", "e.photo_id")
        .select([
          "e.id",
          "e.day",
          "e.steps",
          "e.note",
          "e.created_at",
          "e.photo_id",
          "p.content_type",
          "p.width",
          "p.height",
          "e.status",
          "e.reasons",
          "e.decision_reason",
          "e.decided_at",
        ])
        .where("e.user_id", "=", userId);
      if (after) {
        const { createdAt, id } = after;
        query = query.where((eb) =>
          eb.or([
            eb("e.created_at", ">", createdAt),
            eb.and([eb("e.created_at", "=", createdAt), eb("e.id", ">", id)]),
          ]),
        );
      }
      const rows = await query.orderBy("e.created_at").orderBy("e.id").limit(EXPORT_PAGE_ROWS).execute();
      if (rows.length === 0) return;
      yield rows.map((row) => ({
        id: row.id,
        day: row.day,
        steps: Number(row.steps),
        note: row.note,
        createdAt: Number(row.created_at),
        photoId: row.photo_id,
        photoContentType: row.content_type,
        photoWidth: Number(row.width),
        photoHeight: Number(row.height),
        status: row.status,
        reasons: JSON.parse(row.reasons) as string[],
        decisionReason: row.decision_reason,
        decidedAt: row.decided_at === null ? null : Number(row.decided_at),
      }));
      const last = rows[rows.length - 1];
      if (!last || rows.length < EXPORT_PAGE_ROWS) return;
      after = { createdAt: Number(last.created_at), id: last.id };
    }
  }

  /** One of the walker's photos, read alone: a walker's photos together can be many megabytes. */
  async photo(userId: string, photoId: string): Promise<Uint8Array | undefined> {
    const row = await this.db
      .selectFrom("step_photos")
      .select("data")
      .where("id", "=", photoId)
      .where("user_id", "=", userId)
      .executeTakeFirst();
    return row?.data;
  }

  async groups(userId: string): Promise<ExportGroup[]> {
    const groups = await this.db
      .selectFrom("group_members as mine")
      .innerJoin("groups as g", "g.id", "mine.group_id")
      .select(["g.id", "g.name", "g.description", "g.join_code", "g.created_at", "g.admin_user_id"])
      .select("mine.joined_at")
      .where("mine.user_id", "=", userId)
      .orderBy("mine.joined_at")
      .orderBy("g.id")
      .execute();
    const result: ExportGroup[] = [];
    for (const group of groups) {
      const members = await this.db
        .selectFrom("group_members as m")
        .innerJoin("users as u", "u.id", "m.user_id")
        .select(["m.user_id", "m.joined_at", "u.first_name", "u.last_name"])
        .where("m.group_id", "=", group.id)
        .orderBy("m.joined_at")
        .orderBy("m.user_id")
        .execute();
      result.push({
        id: group.id,
        name: group.name,
        description: group.description,
        joinCode: group.join_code,
        createdAt: Number(group.created_at),
        joinedAt: Number(group.joined_at),
        isAdmin: group.admin_user_id === userId,
        members: members.map((member) => ({
          firstName: member.first_name,
          lastName: member.last_name,
          joinedAt: Number(member.joined_at),
          isYou: member.user_id === userId,
        })),
      });
    }
    return result;
  }

  /** The walker's unexpired sessions. The hash is for telling the current one; it is never exported. */
  async sessions(userId: string, now = Date.now()): Promise<ExportSession[]> {
    const rows = await this.db
      .selectFrom("sessions")
      .select(["id_hash", "user_agent", "created_at", "last_seen_at", "renewed_at", "expires_at"])
      .where("user_id", "=", userId)
      .where("expires_at", ">", now)
      .orderBy("created_at")
      .execute();
    return rows.map((row) => ({
      idHash: row.id_hash,
      userAgent: row.user_agent,
      createdAt: Number(row.created_at),
      lastSeenAt: Number(row.last_seen_at ?? row.renewed_at),
      expiresAt: Number(row.expires_at),
    }));
  }

  async healthKeys(userId: string): Promise<ExportHealthKey[]> {
    const rows = await this.db
      .selectFrom("step_import_keys")
      .select(["name", "created_at", "last_used_at"])
      .where("user_id", "=", userId)
      .orderBy("created_at")
      .execute();
    return rows.map((row) => ({
      name: row.name,
      createdAt: Number(row.created_at),
      lastUsedAt: row.last_used_at === null ? null : Number(row.last_used_at),
    }));
  }

  /**
   * Erases the walker in one transaction: their name, email, picture and charity; their manual
   * entries' notes and photos (the entries' steps stay); sessions, step-import keys, replay records,
   * built-in credentials and the identity provider's records of them; their memberships (a group
   * they ran passes to its longest-standing member, or goes when no one is left). The row stays
   * under a random subject, so signing in again (or signing up with the same email) starts a new,
   * empty account, and their steps stay counted as anonymous figures.
   *
   * `builtInIssuer` is the issuer of the built-in identity provider, whose accounts live in this
   * database: when the walker signed in through it, their local account goes too. Undefined when
   * the walker was unknown.
   */
  async erase(
    userId: string,
    builtInIssuer: string | null,
    now = Date.now(),
  ): Promise<ErasedAccount | undefined> {
    return this.database.transaction(async (trx) => {
      // Written first: on SQLite the transaction then holds the write lock for all it reads after.
      const before = await trx
        .updateTable("users")
        .set({ updated_at: now })
        .where("id", "=", userId)
        .where("subject", "not like", `${ERASED_SUBJECT_PREFIX}%`)
        .returning(["issuer", "subject", "email"])
        .executeTakeFirst();
      if (!before) return undefined;
      await trx
        .updateTable("users")
        .set({
          subject: `${ERASED_SUBJECT_PREFIX}${randomUUID()}`,
          email: null,
          first_name: null,
          last_name: null,
          profile_image_url: null,
          email_verified_at: null,
          // A charity's month counts the walkers supporting it now (one who changes charity takes
          // their months along), so the choice goes with the rest of the profile, and their steps
          // stop counting for it.
          charity_name: null,
        })
        .where("id", "=", userId)
        .execute();

      await trx.updateTable("manual_step_entries").set({ note: "" }).where("user_id", "=", userId).execute();
      // An entry keeps its photo row (the entry refers to it), emptied of the picture itself.
      await trx
        .updateTable("step_photos")
        .set({ data: Buffer.alloc(0), byte_size: 0, width: 0, height: 0 })
        .where("user_id", "=", userId)
        .execute();
      await trx.deleteFrom("idempotency_records").where("user_id", "=", userId).execute();
      await trx.deleteFrom("sessions").where("user_id", "=", userId).execute();
      await trx.deleteFrom("sign_in_devices").where("user_id", "=", userId).execute();
      // What they set themselves and what they earned says what they did, day by day.
      await trx.deleteFrom("daily_goals").where("user_id", "=", userId).execute();
      await trx.deleteFrom("user_badges").where("user_id", "=", userId).execute();
      // Their calls are counted under each key, and go with it (also by cascade).
      const keys = trx.selectFrom("step_import_keys").select("id").where("user_id", "=", userId);
      await trx.deleteFrom("step_import_calls").where("key_id", "in", keys).execute();
      await trx.deleteFrom("step_import_keys").where("user_id", "=", userId).execute();

      // A prize keeps its place in the published winners (the draw must still verify), but not
      // the name, county and address its winner gave.
      await trx
        .updateTable("draw_prizes")
        .set({ public_name: null, county: null, delivery_address: null })
        .where("user_id", "=", userId)
        .execute();
      // Their place in a challenge keeps counting for its team, but the fundraising page they gave
      // (an address that often names them) goes.
      await trx
        .updateTable("challenge_members")
        .set({ fundraising_url: null })
        .where("user_id", "=", userId)
        .execute();
      const groups = await this.handOverGroups(trx, userId);
      await trx.deleteFrom("group_members").where("user_id", "=", userId).execute();

      // What the app told them, what they chose, and the browsers their pushes went to.
      await this.notifications.deleteForUser(userId, trx);
      // Mail queued for them (sent or not) holds their address and what it said.
      await this.mailOutbox.deleteForUser(userId, trx);
      if (before.email) {
        const email = before.email.toLowerCase();
        await trx
          .deleteFrom("mail_outbox")
          .where(sql`lower(${sql.ref("to")})`, "=", email)
          .execute();
        const walkerHere = `email+ip:${email}|`;
        await trx
          .deleteFrom("sign_in_failures")
          .where((eb) =>
            eb.or([
              // Sign-ins counted by email, and resets asked for it (see the throttles' keys).
              eb("key", "in", [`email:${email}`, `reset-email:${email}`]),
              eb(sql`substr(key, 1, ${walkerHere.length})`, "=", walkerHere),
            ]),
          )
          .execute();
      }
      if (builtInIssuer !== null && before.issuer === builtInIssuer) {
        // The built-in provider names its account by the walker's subject.
        const accountId = before.subject;
        const position = sql.raw(this.database.dialect === "postgres" ? "strpos" : "instr");
        // The provider's sessions, grants and interactions name the account inside their payload.
        await trx
          .deleteFrom("oidc_payloads")
          .where(sql`${position}(payload, ${`"accountId":${JSON.stringify(accountId)}`})`, ">", 0)
          .execute();
        // Its mailed links (reset, confirmation, change of email) go with it (also by cascade).
        await trx.deleteFrom("account_tokens").where("account_id", "=", accountId).execute();
        await trx.deleteFrom("local_accounts").where("id", "=", accountId).execute();
      }
      return groups;
    });
  }

  /** Passes each group the walker runs to its longest-standing other member, or deletes it. */
  private async handOverGroups(trx: Kysely<DatabaseSchema>, userId: string): Promise<ErasedAccount> {
    const run = await trx.selectFrom("groups").select("id").where("admin_user_id", "=", userId).execute();
    let groupsHandedOver = 0;
    let groupsDeleted = 0;
    for (const { id } of run) {
      const heir = await trx
        .selectFrom("group_members")
        .select("user_id")
        .where("group_id", "=", id)
        .where("user_id", "<>", userId)
        .orderBy("joined_at")
        .orderBy("user_id")
        .limit(1)
        .executeTakeFirst();
      if (heir) {
        await trx.updateTable("groups").set({ admin_user_id: heir.user_id }).where("id", "=", id).execute();
        groupsHandedOver++;
      } else {
        await trx.deleteFrom("groups").where("id", "=", id).execute();
        groupsDeleted++;
      }
    }
    return { groupsHandedOver, groupsDeleted };
  }
}
