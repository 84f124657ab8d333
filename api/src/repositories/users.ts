import { randomUUID } from "node:crypto";
import type { AuthUser } from "@charity-steps/shared-types";
import type { Kysely, Selectable } from "kysely";
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
    return this.db
      .insertInto("users")
      .values({
        id: randomUUID(),
        issuer: identity.issuer,
        subject: identity.subject,
        created_at: now,
        ...profile,
      })
      .onConflict((conflict) => conflict.columns(["issuer", "subject"]).doUpdateSet(profile))
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
}

export function toAuthUser(row: UserRow): AuthUser {
  return {
    id: row.id,
    firstName: row.first_name,
    lastName: row.last_name,
    email: row.email,
    profileImageUrl: row.profile_image_url,
    createdAt: new Date(row.created_at).toISOString(),
  };
}
