import { randomBytes, randomUUID } from "node:crypto";
import { MAX_STEP_IMPORT_KEYS, STEP_IMPORT_KEY_PREFIX } from "@charity-steps/shared-types";
import { type Kysely, sql } from "kysely";
import { type Database, type DialectName, holdWalker, isForeignKeyViolation } from "../db/database.js";
import type { DatabaseSchema } from "../db/schema/index.js";
import type { StepImportKeysTable } from "../db/schema/step-import-keys.js";
import { hashSessionToken } from "./sessions.js";
import type { UserRow } from "./users.js";

export type StepImportKeyRow = StepImportKeysTable;

/** A new key with its secret: the only time the secret exists outside the walker's Shortcut. */
export interface CreatedKey {
  row: StepImportKeyRow;
  key: string;
}

/** What a key opens: the walker it belongs to. */
export interface KeyHolder {
  keyId: string;
  user: UserRow;
}

/**
 * Calls with a missing or wrong key, per network address and minute: past this, the address waits
 * for the rest of the minute before any key it sends is hashed and looked up.
 */
export const BAD_KEY_CALLS_PER_MINUTE = 30;
export const BAD_KEY_WINDOW_MS = 60_000;

/** The shape of a key: the prefix and 32 random bytes in base64url. Anything else is not looked up. */
const KEY_PATTERN = new RegExp(`^${STEP_IMPORT_KEY_PREFIX}[A-Za-z0-9_-]{43}$`);

export function isWellFormedKey(key: string): boolean {
  return KEY_PATTERN.test(key);
}

/** Hashed like a session id: SHA-256 suits a 256-bit random secret (no password to stretch). */
export const hashStepImportKey = hashSessionToken;

/**
 * Step-import keys: created and removed by their walker, looked up by hash on each import, and
 * their calls counted in a fixed window in the database (the sign-in throttle's shape), so that every
 * API process counts the same calls.
 */
export class StepImportKeysRepository {
  private readonly db: Kysely<DatabaseSchema>;
  private readonly dialect: DialectName;

  constructor(
    private readonly database: Database,
    readonly callWindowMs = 60_000,
  ) {
    this.db = database.db;
    this.dialect = database.dialect;
  }

  /** A new key for `userId` named `name`, or null when the walker already holds the most allowed. */
  async create(userId: string, name: string, now = Date.now()): Promise<CreatedKey | null> {
    const key = `${STEP_IMPORT_KEY_PREFIX}${randomBytes(32).toString("base64url")}`;
    const row: StepImportKeyRow = {
      id: randomUUID(),
      user_id: userId,
      name,
      key_hash: hashStepImportKey(key),
      created_at: now,
      last_used_at: null,
    };
    return this.database.writeTransaction(async (trx) => {
      await holdWalker(trx, this.dialect, userId);
      const { held } = await trx
        .selectFrom("step_import_keys")
        .select((eb) => eb.fn.countAll<number>().as("held"))
        .where("user_id", "=", userId)
        .executeTakeFirstOrThrow();
      if (Number(held) >= MAX_STEP_IMPORT_KEYS) return null;
      await trx.insertInto("step_import_keys").values(row).execute();
      return { row, key };
    });
  }

  /** The walker's keys, newest first. */
  async list(userId: string): Promise<StepImportKeyRow[]> {
    const rows = await this.db
      .selectFrom("step_import_keys")
      .selectAll()
      .where("user_id", "=", userId)
      .orderBy("created_at", "desc")
      .orderBy("id", "desc")
      .execute();
    return rows.map(numbers);
  }

  /** Removes one of the walker's keys; false when they hold no key by that id. */
  async revoke(userId: string, id: string): Promise<boolean> {
    const result = await this.db
      .deleteFrom("step_import_keys")
      .where("id", "=", id)
      .where("user_id", "=", userId)
      .executeTakeFirst();
    return Number(result.numDeletedRows) > 0;
  }

  /** The key's id and its walker, or undefined for a key nobody holds (never made, or removed). */
  async findHolder(key: string): Promise<KeyHolder | undefined> {
    if (!isWellFormedKey(key)) return undefined;
    const row = await this.db
      .selectFrom("step_import_keys as k")
      .innerJoin("users", "users.id", "k.user_id")
      .selectAll("users")
      .select("k.id as key_id")
      .where("k.key_hash", "=", hashStepImportKey(key))
      .executeTakeFirst();
    if (!row) return undefined;
    const { key_id, ...user } = row;
    return { keyId: key_id, user: user as UserRow };
  }

  /**
   * Counts one call of the key in its current window (a window that has ended starts a new one), in
   * one statement, so that calls at once cannot all slip in under the limit. Resolves to the
   * milliseconds until the window ends when this call is over `limit`, else 0; null when the key was
   * removed since it was looked up.
   */
  async countCall(keyId: string, limit: number, now = Date.now()): Promise<number | null> {
    const windowOver = sql<boolean>`step_import_calls.window_started_at <= ${now - this.callWindowMs}`;
    const row = await this.db
      .insertInto("step_import_calls")
      .values({ key_id: keyId, calls: 1, window_started_at: now })
      .onConflict((conflict) =>
        conflict.column("key_id").doUpdateSet({
          calls: sql<number>`case when ${windowOver} then 1 else step_import_calls.calls + 1 end`,
          window_started_at: sql<number>`case when ${windowOver} then ${now} else step_import_calls.window_started_at end`,
        }),
      )
      .returning(["calls", "window_started_at"])
      .executeTakeFirstOrThrow()
      .catch((error: unknown) => {
        if (isForeignKeyViolation(error)) return null;
        throw error;
      });
    if (row === null) return null;
    if (row.calls <= limit) return 0;
    return Math.max(1, Number(row.window_started_at) + this.callWindowMs - now);
  }

  /** After an import the key made. */
  async markUsed(keyId: string, now = Date.now()): Promise<void> {
    await this.db
      .updateTable("step_import_keys")
      .set({ last_used_at: now })
      .where("id", "=", keyId)
      .execute();
  }

  /** When any of the walker's keys last imported steps, or null when none has. */
  async lastImportAt(userId: string): Promise<number | null> {
    const row = await this.db
      .selectFrom("step_import_keys")
      .select((eb) => eb.fn.max("last_used_at").as("last"))
      .where("user_id", "=", userId)
      .executeTakeFirst();
    return row?.last == null ? null : Number(row.last);
  }

  /**
   * The Apple Health counter the ledger holds for each of `days` (the larger of every import and
   * sync it was sent), read after an import so that the answer says what the server kept.
   */
  async healthCounts(userId: string, counterId: string, days: string[]): Promise<Map<string, number>> {
    if (days.length === 0) return new Map();
    const rows = await this.db
      .selectFrom("step_counters")
      .select(["day", "steps"])
      .where("user_id", "=", userId)
      .where("counter_id", "=", counterId)
      .where("day", "in", days)
      .execute();
    return new Map(rows.map((row) => [row.day, Number(row.steps)]));
  }

  /** Housekeeping: windows that have ended count for nothing. */
  async deleteExpiredCalls(now = Date.now()): Promise<number> {
    const result = await this.db
      .deleteFrom("step_import_calls")
      .where("window_started_at", "<=", now - this.callWindowMs)
      .executeTakeFirst();
    return Number(result.numDeletedRows);
  }
}

function numbers(row: StepImportKeyRow): StepImportKeyRow {
  return {
    ...row,
    created_at: Number(row.created_at),
    last_used_at: row.last_used_at == null ? null : Number(row.last_used_at),
  };
}
