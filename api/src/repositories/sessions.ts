import { createHash, randomBytes, randomUUID } from "node:crypto";
import { SESSION_USER_AGENT_MAX_CHARS } from "@charity-steps/shared-types";
import DataLoader from "dataloader";
import { type Kysely, type RawBuilder, sql } from "kysely";
import type { DialectName, SpeedOptions } from "../db/database.js";
import { jsonRows, rowsParam } from "../db/json-rows.js";
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
  lastSeenAt: number;
  user: UserRow;
}

/** One of a walker's signed-in browsers, as their device list shows it. */
export interface SessionDevice {
  publicId: string;
  idHash: string;
  userAgent: string | null;
  createdAt: number;
  lastSeenAt: number;
  expiresAt: number;
}

export function hashSessionToken(token: string): string {
  return createHash("sha256").update(token).digest("base64url");
}

type FoundSession = UserRow & {
  id_hash: string;
  session_expires_at: number;
  renewed_at: number;
  last_seen_at: number | null;
};

/**
 * The valid sessions among a batch of hashes, each with its walker. A plan PostgreSQL keeps (a
 * generic one, as for any prepared statement) counts on a hundred rows in the parameter: it would
 * rather read every unexpired session (through the expiry index) than look a few up. A lateral subquery that is not flattened
 * (`offset 0`) looks each one up by its key once the tables are more than a few pages long (a
 * shorter one is scanned, which costs as little, until the table is next analyzed). SQLite has no
 * LATERAL, and already reads the parameter first. Exported for the test that reads both plans.
 */
export function sessionLookup(
  dialect: DialectName,
  hashesJson: string,
  now: number,
): RawBuilder<FoundSession> {
  const hashes = jsonRows(dialect, hashesJson, { id_hash: "text" });
  const columns = sql`users.*, s.id_hash, s.expires_at as session_expires_at, s.renewed_at, s.last_seen_at`;
  if (dialect === "postgres") {
    return sql<FoundSession>`
      select found.* from ${hashes}
      cross join lateral (
        select ${columns} from sessions s join users on users.id = s.user_id
        where s.id_hash = r.id_hash and s.expires_at > ${now}
        offset 0
      ) as found`;
  }
  return sql<FoundSession>`
    select ${columns} from ${hashes}
    join sessions s on s.id_hash = r.id_hash
    join users on users.id = s.user_id
    where s.expires_at > ${now}`;
}

/** Session lookups asked for in one turn of the event loop that one query answers together. */
const MAX_LOOKUPS_PER_QUERY = 256;

export class SessionsRepository {
  /**
   * Every signed-in request looks its session up. Lookups that arrive together (in one turn of the
   * event loop) are answered by one query, and nothing is cached: each request still sees
   * the session as stored when it arrived, so a closed session is refused at once.
   */
  private readonly lookups: DataLoader<string, ValidSession | undefined>;

  constructor(
    private readonly db: Kysely<DatabaseSchema>,
    dialect: DialectName,
    speed: Pick<SpeedOptions, "sessionBatches"> = {},
  ) {
    this.lookups = new DataLoader(
      async (hashes) => {
        const hashesJson = rowsParam(hashes.map((id_hash) => ({ id_hash })));
        const { rows } = await sessionLookup(dialect, hashesJson, Date.now()).execute(db);
        const found = new Map(
          rows.map(({ id_hash, session_expires_at, renewed_at, last_seen_at, ...user }) => [
            id_hash,
            {
              idHash: id_hash,
              expiresAt: Number(session_expires_at),
              renewedAt: Number(renewed_at),
              lastSeenAt: Number(last_seen_at ?? renewed_at),
              user,
            },
          ]),
        );
        return hashes.map((hash) => found.get(hash));
      },
      {
        cache: false,
        batch: speed.sessionBatches !== false,
        maxBatchSize: MAX_LOOKUPS_PER_QUERY,
        batchScheduleFn: (run) => setImmediate(run),
      },
    );
  }

  /** Opens a session; `userAgent` is the browser's, kept (shortened) so the walker can tell it apart. */
  async open(
    userId: string,
    ttlMs: number,
    now = Date.now(),
    userAgent: string | null = null,
  ): Promise<OpenedSession> {
    const token = randomBytes(32).toString("base64url");
    const expiresAt = now + ttlMs;
    await this.db
      .insertInto("sessions")
      .values({
        id_hash: hashSessionToken(token),
        public_id: randomUUID(),
        user_id: userId,
        created_at: now,
        expires_at: expiresAt,
        renewed_at: now,
        user_agent: userAgent ? userAgent.slice(0, SESSION_USER_AGENT_MAX_CHARS) : null,
        last_seen_at: now,
      })
      .execute();
    return { token, expiresAt };
  }

  /** The session and its walker, or undefined when the token is unknown or expired. */
  async findValid(token: string): Promise<ValidSession | undefined> {
    return this.lookups.load(hashSessionToken(token));
  }

  /** Pushes the rolling expiry forward; the session was used now. */
  async renew(idHash: string, expiresAt: number, now = Date.now()): Promise<void> {
    await this.db
      .updateTable("sessions")
      .set({ expires_at: expiresAt, renewed_at: now, last_seen_at: now })
      .where("id_hash", "=", idHash)
      .execute();
  }

  /** Records that the session was used now, between renewals. */
  async markSeen(idHash: string, now = Date.now()): Promise<void> {
    await this.db.updateTable("sessions").set({ last_seen_at: now }).where("id_hash", "=", idHash).execute();
  }

  /** The walker's unexpired sessions, the most recently used first. */
  async listForUser(userId: string, now = Date.now()): Promise<SessionDevice[]> {
    const rows = await this.db
      .selectFrom("sessions")
      .select([
        "public_id",
        "id_hash",
        "user_agent",
        "created_at",
        "last_seen_at",
        "renewed_at",
        "expires_at",
      ])
      .where("user_id", "=", userId)
      .where("expires_at", ">", now)
      // SQLite's column has no default: only a session written by hand (never by open) lacks an id.
      .where("public_id", "is not", null)
      .orderBy("last_seen_at", "desc")
      .orderBy("created_at", "desc")
      .execute();
    return rows.map((row) => ({
      publicId: row.public_id,
      idHash: row.id_hash,
      userAgent: row.user_agent,
      createdAt: Number(row.created_at),
      lastSeenAt: Number(row.last_seen_at ?? row.renewed_at),
      expiresAt: Number(row.expires_at),
    }));
  }

  /** Ends one of the walker's sessions by its public id; false when they have no such session. */
  async closeByPublicId(userId: string, publicId: string): Promise<boolean> {
    const result = await this.db
      .deleteFrom("sessions")
      .where("user_id", "=", userId)
      .where("public_id", "=", publicId)
      .executeTakeFirst();
    return Number(result.numDeletedRows) > 0;
  }

  /** Ends every session of the walker but the one whose hash is `keepIdHash`; how many ended. */
  async closeOthers(userId: string, keepIdHash: string): Promise<number> {
    const result = await this.db
      .deleteFrom("sessions")
      .where("user_id", "=", userId)
      .where("id_hash", "<>", keepIdHash)
      .executeTakeFirst();
    return Number(result.numDeletedRows);
  }

  async close(token: string): Promise<void> {
    await this.db.deleteFrom("sessions").where("id_hash", "=", hashSessionToken(token)).execute();
  }

  /**
   * Notes that the walker signed in from the browser holding the device cookie hashed as
   * `deviceHash`; answers whether that browser is new to them, and whether they had signed in from
   * any browser before (a walker's first sign-in is from a new browser, and is no news).
   */
  async rememberDevice(
    userId: string,
    deviceHash: string,
    now = Date.now(),
  ): Promise<{ newDevice: boolean; seenBefore: boolean }> {
    const before = await this.db
      .selectFrom("sign_in_devices")
      .select("device_hash")
      .where("user_id", "=", userId)
      .limit(1)
      .execute();
    const inserted = await this.db
      .insertInto("sign_in_devices")
      .values({ user_id: userId, device_hash: deviceHash, first_seen_at: now })
      .onConflict((conflict) => conflict.columns(["user_id", "device_hash"]).doNothing())
      .executeTakeFirst();
    return {
      newDevice: Number(inserted.numInsertedOrUpdatedRows ?? 0n) > 0,
      seenBefore: before.length > 0,
    };
  }

  /** Deletes expired sessions: everyone's, or one walker's. */
  async deleteExpired(now = Date.now(), userId?: string): Promise<number> {
    let query = this.db.deleteFrom("sessions").where("expires_at", "<=", now);
    if (userId !== undefined) query = query.where("user_id", "=", userId);
    const result = await query.executeTakeFirst();
    return Number(result.numDeletedRows);
  }
}
