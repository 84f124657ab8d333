import { createHash, randomBytes } from "node:crypto";
import { type Kysely, type Selectable, sql } from "kysely";
import type { Database } from "../db/database.js";
import type { AccountTokenKind, AccountTokensTable } from "../db/schema/account-tokens.js";
import type { DatabaseSchema } from "../db/schema/index.js";

export type AccountToken = Selectable<AccountTokensTable>;

export function hashAccountToken(token: string): string {
  return createHash("sha256").update(token).digest("base64url");
}

/**
 * Single-use tokens of built-in accounts (mailed links, the sign-in ticket after a reset): 256
 * random bits handed out once, only their SHA-256 kept. A token is used in one statement that also
 * checks it is unused and unexpired, so two requests racing with one link cannot both use it.
 */
export class AccountTokensRepository {
  constructor(private readonly database: Database) {}

  private get db(): Kysely<DatabaseSchema> {
    return this.database.db;
  }

  private get dialect() {
    return this.database.dialect;
  }

  /** A new token for `accountId`; the caller mails or sets it, and it is never seen again. */
  async issue(
    kind: AccountTokenKind,
    accountId: string,
    email: string,
    ttlMs: number,
    now = Date.now(),
    db: Kysely<DatabaseSchema> = this.db,
  ): Promise<string> {
    const token = randomBytes(32).toString("base64url");
    await db
      .insertInto("account_tokens")
      .values({
        token_hash: hashAccountToken(token),
        kind,
        account_id: accountId,
        email,
        created_at: now,
        expires_at: now + ttlMs,
        used_at: null,
      })
      .execute();
    return token;
  }

  /** The token, when it is of one of `kinds`, unused and unexpired; it stays usable. */
  async peek<Kind extends AccountTokenKind>(
    kinds: Kind[],
    token: string,
    now = Date.now(),
  ): Promise<(AccountToken & { kind: Kind }) | undefined> {
    const row = await this.db
      .selectFrom("account_tokens")
      .selectAll()
      .where("token_hash", "=", hashAccountToken(token))
      .where("kind", "in", kinds)
      .where("used_at", "is", null)
      .where("expires_at", ">", now)
      .executeTakeFirst();
    return row && (normalise(row) as AccountToken & { kind: Kind });
  }

  /** Uses the token: it, when it was of one of `kinds`, unused and unexpired; never again after. */
  async use(kinds: AccountTokenKind[], token: string, now = Date.now()): Promise<AccountToken | undefined> {
    const row = await this.db
      .updateTable("account_tokens")
      .set({ used_at: now })
      .where("token_hash", "=", hashAccountToken(token))
      .where("kind", "in", kinds)
      .where("used_at", "is", null)
      .where("expires_at", ">", now)
      .returningAll()
      .executeTakeFirst();
    return row && normalise(row);
  }

  /**
   * A new token of `kind` for `accountId` in place of its unused ones, in one transaction that holds
   * the account's row: of two asked for at once (on any process), only the later one works, as a
   * mail that says "the older link stops working" promises.
   */
  async replace(
    kind: AccountTokenKind,
    accountId: string,
    email: string,
    ttlMs: number,
    now = Date.now(),
  ): Promise<string> {
    return this.database.transaction(async (trx) => {
      if (this.dialect === "postgres") {
        await trx.selectFrom("local_accounts").select("id").where("id", "=", accountId).forUpdate().execute();
      }
      await this.withdraw(accountId, [kind], now, trx);
      return this.issue(kind, accountId, email, ttlMs, now, trx);
    });
  }

  /** An account's unused tokens of `kind` stop working (a newer link, or a reset, replaces them). */
  async withdraw(
    accountId: string,
    kinds: AccountTokenKind[],
    now = Date.now(),
    db: Kysely<DatabaseSchema> = this.db,
  ): Promise<void> {
    await db
      .updateTable("account_tokens")
      .set({ used_at: now })
      .where("account_id", "=", accountId)
      .where("kind", "in", kinds)
      .where("used_at", "is", null)
      .execute();
  }

  /** Housekeeping: tokens past their expiry open nothing and are dropped. */
  async deleteExpired(now = Date.now()): Promise<number> {
    const result = await this.db
      .deleteFrom("account_tokens")
      .where("expires_at", "<=", now)
      .executeTakeFirst();
    return Number(result.numDeletedRows);
  }

  /**
   * Ends every session of a built-in account: the app's sessions of the walker the built-in issuer
   * knows by this account (all, or all but `keepSessionHash`), and everything the provider holds
   * for the account, so that no browser that was signed in, or was part-way through signing in, can
   * sign in again without the password.
   */
  async endSessions(
    issuer: string,
    accountId: string,
    keepSessionHash?: string,
  ): Promise<{ appSessions: number; providerRecords: number }> {
    let appQuery = this.db
      .deleteFrom("sessions")
      .where("user_id", "in", (eb) =>
        eb.selectFrom("users").select("id").where("issuer", "=", issuer).where("subject", "=", accountId),
      );
    if (keepSessionHash !== undefined) appQuery = appQuery.where("id_hash", "!=", keepSessionHash);
    const app = await appQuery.executeTakeFirst();
    return {
      appSessions: Number(app.numDeletedRows),
      providerRecords: await this.endProviderRecords(accountId),
    };
  }

  /**
   * Deletes what the provider holds for the account: its sessions, grants, codes and tokens (which
   * name it as `accountId`), and its interactions, whether a sign-in with the password waits to be
   * resumed (`result.login`) or the interaction began in a browser signed in as it (`session`). An
   * interaction lasts an hour: left alone, one paused after the password was accepted would sign in
   * whoever resumes it, however the password has changed since.
   */
  async endProviderRecords(accountId: string): Promise<number> {
    const field = (path: string[]) =>
      this.dialect === "postgres"
        ? sql<string>`(payload::jsonb #>> ${`{${path.join(",")}}`})`
        : sql<string>`json_extract(payload, ${`$.${path.join(".")}`})`;
    const result = await this.db
      .deleteFrom("oidc_payloads")
      .where((eb) =>
        eb.or([
          eb(field(["accountId"]), "=", accountId),
          eb.and([
            eb("model", "=", "Interaction"),
            eb.or([
              eb(field(["result", "login", "accountId"]), "=", accountId),
              eb(field(["session", "accountId"]), "=", accountId),
            ]),
          ]),
        ]),
      )
      .executeTakeFirst();
    return Number(result.numDeletedRows);
  }
}

/** PostgreSQL answers bigint columns as strings. */
function normalise(row: AccountToken): AccountToken {
  return {
    ...row,
    created_at: Number(row.created_at),
    expires_at: Number(row.expires_at),
    used_at: row.used_at === null ? null : Number(row.used_at),
  };
}
