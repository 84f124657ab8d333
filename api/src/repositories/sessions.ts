import { createHash, randomBytes } from "node:crypto";
import type { Kysely } from "kysely";
import { type Param, prepareQuery } from "../db/prepared-query.js";
import type { DatabaseSchema } from "../db/schema/index.js";
import type { UserRow } from "./users.js";

export interface OpenedSession {
  /** The cookie value: 256 random bits. Only its hash is stored. */
  token: string;
  expiresAt: number;
}

export interface ValidSession {
  idHash: string;
  expiresAt: number;
  renewedAt: number;
  user: UserRow;
}

export function hashSessionToken(token: string): string {
  return createHash("sha256").update(token).digest("base64url");
}

export class SessionsRepository {
  /** Every signed-in request runs this: built and compiled once. */
  private readonly findValidQuery;

  constructor(private readonly db: Kysely<DatabaseSchema>) {
    this.findValidQuery = prepareQuery(db, (db, param: Param<{ idHash: string; now: number }>) =>
      db
        .selectFrom("sessions")
        .innerJoin("users", "users.id", "sessions.user_id")
        .selectAll("users")
        .select(["sessions.id_hash", "sessions.expires_at as session_expires_at", "sessions.renewed_at"])
        .where("sessions.id_hash", "=", param("idHash"))
        .where("sessions.expires_at", ">", param("now")),
    );
  }

  async open(userId: string, ttlMs: number, now = Date.now()): Promise<OpenedSession> {
    const token = randomBytes(32).toString("base64url");
    const expiresAt = now + ttlMs;
    await this.db
      .insertInto("sessions")
      .values({
        id_hash: hashSessionToken(token),
        user_id: userId,
        created_at: now,
        expires_at: expiresAt,
        renewed_at: now,
      })
      .execute();
    return { token, expiresAt };
  }

  /** The session and its walker, or undefined when the token is unknown or expired. */
  async findValid(token: string, now = Date.now()): Promise<ValidSession | undefined> {
    const row = await this.findValidQuery.executeTakeFirst(this.db, { idHash: hashSessionToken(token), now });
    if (!row) return undefined;
    const { id_hash, session_expires_at, renewed_at, ...user } = row;
    return { idHash: id_hash, expiresAt: session_expires_at, renewedAt: renewed_at, user };
  }

  async renew(idHash: string, expiresAt: number, now = Date.now()): Promise<void> {
    await this.db
      .updateTable("sessions")
      .set({ expires_at: expiresAt, renewed_at: now })
      .where("id_hash", "=", idHash)
      .execute();
  }

  async close(token: string): Promise<void> {
    await this.db.deleteFrom("sessions").where("id_hash", "=", hashSessionToken(token)).execute();
  }

  /** Deletes expired sessions: everyone's, or one walker's. */
  async deleteExpired(now = Date.now(), userId?: string): Promise<number> {
    let query = this.db.deleteFrom("sessions").where("expires_at", "<=", now);
    if (userId !== undefined) query = query.where("user_id", "=", userId);
    const result = await query.executeTakeFirst();
    return Number(result.numDeletedRows);
  }
}
