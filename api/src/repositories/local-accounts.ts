import { randomUUID } from "node:crypto";
import type { Kysely, Selectable } from "kysely";
import { isUniqueViolation } from "../db/database.js";
import type { DatabaseSchema } from "../db/schema/index.js";
import type { LocalAccountsTable } from "../db/schema/local-accounts.js";
import { ConflictError } from "../errors.js";

export type LocalAccount = Selectable<LocalAccountsTable>;

export interface NewLocalAccount {
  email: string;
  passwordHash: string;
  firstName: string;
  lastName: string;
}

export const EMAIL_TAKEN_MESSAGE = "An account with this email already exists. Sign in instead.";

export class LocalAccountsRepository {
  constructor(private readonly db: Kysely<DatabaseSchema>) {}

  async create(account: NewLocalAccount, now = Date.now()): Promise<LocalAccount> {
    try {
      return await this.db
        .insertInto("local_accounts")
        .values({
          id: randomUUID(),
          email: account.email.toLowerCase(),
          password_hash: account.passwordHash,
          first_name: account.firstName,
          last_name: account.lastName,
          created_at: now,
        })
        .returningAll()
        .executeTakeFirstOrThrow();
    } catch (error) {
      if (isUniqueViolation(error)) throw new ConflictError(EMAIL_TAKEN_MESSAGE);
      throw error;
    }
  }

  async findByEmail(email: string): Promise<LocalAccount | undefined> {
    return this.db
      .selectFrom("local_accounts")
      .selectAll()
      .where("email", "=", email.toLowerCase())
      .executeTakeFirst();
  }

  async findById(id: string): Promise<LocalAccount | undefined> {
    return this.db.selectFrom("local_accounts").selectAll().where("id", "=", id).executeTakeFirst();
  }

  async setPasswordHash(id: string, passwordHash: string): Promise<void> {
    await this.db
      .updateTable("local_accounts")
      .set({ password_hash: passwordHash })
      .where("id", "=", id)
      .execute();
  }

  /** Confirms the account's email, when it is still `email` (a link to an old address confirms nothing). */
  async markEmailVerified(id: string, email: string, now = Date.now()): Promise<boolean> {
    const result = await this.db
      .updateTable("local_accounts")
      .set({ email_verified_at: now })
      .where("id", "=", id)
      .where("email", "=", email.toLowerCase())
      .executeTakeFirst();
    return Number(result.numUpdatedRows) > 0;
  }

  /** Moves the account to a confirmed new email; ConflictError when another account has it. */
  async changeEmail(id: string, email: string, now = Date.now()): Promise<void> {
    try {
      await this.db
        .updateTable("local_accounts")
        .set({ email: email.toLowerCase(), email_verified_at: now })
        .where("id", "=", id)
        .execute();
    } catch (error) {
      if (isUniqueViolation(error)) throw new ConflictError(EMAIL_TAKEN_MESSAGE);
      throw error;
    }
  }
}
