import { randomUUID } from "node:crypto";
import type { AuthUser, Theme } from "@charity-steps/shared-types";
import { type Kysely, type Selectable, sql } from "kysely";
import type { DatabaseSchema } from "../db/schema/index.js";
import type { UsersTable } from "../db/schema/users.js";

export type UserRow = Selectable<UsersTable>;

export interface VerifiedIdentity {
  issuer: string;
  subject: string;
  email: string | null;
  firstName: string | null;
  lastName: string | null;
  pictureUrl: string | null;
  /** The provider's `email_verified` claim; undefined leaves what is stored as it is. */
  emailVerified?: boolean;
}

export class UsersRepository {
  constructor(private readonly db: Kysely<DatabaseSchema>) {}

  /** Creates the walker on first sign-in, refreshes their profile on every later one. */
  async upsertFromIdentity(identity: VerifiedIdentity, now = Date.now()): Promise<UserRow> {
    const profile = {
      email: identity.email,
      first_name: identity.firstName,
      last_name: identity.lastName,
      profile_image_url: identity.pictureUrl,
      updated_at: now,
    };
    // A confirmed email keeps the time it was first confirmed; one the provider no longer vouches
    // for (an email changed there, say) is not confirmed any more.
    const verified =
      identity.emailVerified === undefined
        ? {}
        : {
            email_verified_at: identity.emailVerified
              ? sql<number | null>`coalesce(users.email_verified_at, ${now})`
              : null,
          };
    return this.db
      .insertInto("users")
      .values({
        id: randomUUID(),
        issuer: identity.issuer,
        subject: identity.subject,
        created_at: now,
        ...profile,
        email_verified_at: identity.emailVerified ? now : null,
      })
      .onConflict((conflict) =>
        conflict.columns(["issuer", "subject"]).doUpdateSet({ ...profile, ...verified }),
      )
      .returningAll()
      .executeTakeFirstOrThrow();
  }

  /** Records the walker's charity; `name` is one of CHARITY_NAMES (the route's schema checks). */
  async setCharity(id: string, name: string, now = Date.now()): Promise<void> {
    await this.db
      .updateTable("users")
      .set({ charity_name: name, updated_at: now })
      .where("id", "=", id)
      .execute();
  }

  async findById(id: string): Promise<UserRow | undefined> {
    return this.db.selectFrom("users").selectAll().where("id", "=", id).executeTakeFirst();
  }

  /** The walkers of `ids` that exist, by id, in one query. */
  async findByIds(ids: readonly string[]): Promise<Map<string, UserRow>> {
    if (ids.length === 0) return new Map();
    const rows = await this.db.selectFrom("users").selectAll().where("id", "in", ids).execute();
    return new Map(rows.map((row) => [row.id, row]));
  }

  /** The walker signed in as `subject` of `issuer`, once they have signed in. */
  async findByIdentity(issuer: string, subject: string): Promise<UserRow | undefined> {
    return this.db
      .selectFrom("users")
      .selectAll()
      .where("issuer", "=", issuer)
      .where("subject", "=", subject)
      .executeTakeFirst();
  }

  /**
   * The walker's email as the built-in account now has it (changed and confirmed, or just
   * confirmed), without waiting for their next sign-in to bring it in the ID token.
   */
  async setConfirmedEmail(issuer: string, subject: string, email: string, now = Date.now()): Promise<void> {
    await this.db
      .updateTable("users")
      .set({ email, email_verified_at: now, updated_at: now })
      .where("issuer", "=", issuer)
      .where("subject", "=", subject)
      .execute();
  }

  /** The walker moved their built-in account to `email`, confirmed by the link mailed to it. */
  async setChangedEmail(issuer: string, subject: string, email: string, now = Date.now()): Promise<void> {
    await this.db
      .updateTable("users")
      .set({ email, email_verified_at: now, email_changed_at: now, updated_at: now })
      .where("issuer", "=", issuer)
      .where("subject", "=", subject)
      .execute();
  }
}

/** `builtInIssuer`: the built-in provider's issuer when the app runs it, else null. */
export function toAuthUser(row: UserRow, builtInIssuer: string | null = null): Omit<AuthUser, "isOperator"> {
  return {
    id: row.id,
    firstName: row.first_name,
    lastName: row.last_name,
    email: row.email,
    profileImageUrl: row.profile_image_url,
    createdAt: new Date(row.created_at).toISOString(),
    emailVerified: row.email_verified_at !== null,
    accountKind: row.issuer === builtInIssuer ? "built-in" : "external",
    theme: row.theme as Theme,
    onboardedAt: row.onboarded_at === null ? null : new Date(row.onboarded_at).toISOString(),
  };
}
