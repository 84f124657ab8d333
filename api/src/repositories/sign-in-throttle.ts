import { type Kysely, sql } from "kysely";
import type { DatabaseSchema } from "../db/schema/index.js";

/** A key whose failures block sign-in once they reach `limit` within the window. */
export interface ThrottleKey {
  key: string;
  limit: number;
}

/**
 * Failed sign-ins counted in the database, per email and per network address, over a fixed window:
 * once a key reaches its limit, sign-in under it waits until the window ends (never for good), and
 * the owner's own successful sign-in clears their email's count.
 */
export class SignInThrottleRepository {
  constructor(
    private readonly db: Kysely<DatabaseSchema>,
    readonly windowMs: number,
  ) {}

  /** Milliseconds until sign-in under these keys is allowed again, or 0 when it is now. */
  async waitFor(keys: ThrottleKey[], now = Date.now()): Promise<number> {
    const rows = await this.db
      .selectFrom("sign_in_failures")
      .selectAll()
      .where(
        "key",
        "in",
        keys.map((entry) => entry.key),
      )
      .where("window_started_at", ">", now - this.windowMs)
      .execute();
    let wait = 0;
    for (const row of rows) {
      const limit = keys.find((entry) => entry.key === row.key)?.limit ?? Number.POSITIVE_INFINITY;
      if (row.failures >= limit) wait = Math.max(wait, row.window_started_at + this.windowMs - now);
    }
    return wait;
  }

  /** Counts one failure under each key, starting a new window where the last one has ended. */
  async recordFailure(keys: ThrottleKey[], now = Date.now()): Promise<void> {
    const windowOver = sql<boolean>`sign_in_failures.window_started_at <= ${now - this.windowMs}`;
    for (const { key } of keys) {
      await this.db
        .insertInto("sign_in_failures")
        .values({ key, failures: 1, window_started_at: now })
        .onConflict((conflict) =>
          conflict.column("key").doUpdateSet({
            failures: sql<number>`case when ${windowOver} then 1 else sign_in_failures.failures + 1 end`,
            window_started_at: sql<number>`case when ${windowOver} then ${now} else sign_in_failures.window_started_at end`,
          }),
        )
        .execute();
    }
  }

  async clear(key: string): Promise<void> {
    await this.db.deleteFrom("sign_in_failures").where("key", "=", key).execute();
  }

  /** Housekeeping: windows that have ended count for nothing. */
  async deleteExpired(now = Date.now()): Promise<number> {
    const result = await this.db
      .deleteFrom("sign_in_failures")
      .where("window_started_at", "<=", now - this.windowMs)
      .executeTakeFirst();
    return Number(result.numDeletedRows);
  }
}
