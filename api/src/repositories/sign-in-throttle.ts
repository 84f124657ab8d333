import { type Kysely, sql } from "kysely";
import type { DatabaseSchema } from "../db/schema/index.js";

/** How long a throttled caller waits, as the page says it and as `Retry-After` does. */
export interface SignInWait {
  minutes: number;
  retryAfterSeconds: number;
}

/** A key whose attempts block sign-in once they pass `limit` within the window. */
export interface ThrottleKey {
  key: string;
  limit: number;
}

/**
 * Sign-in attempts counted in the database over a fixed window, so that every API process counts
 * the same ones. An attempt is counted before its password is checked, in one statement per key, so
 * parallel guesses cannot all slip in under the limit; a successful sign-in takes its attempt back.
 * Once a key passes its limit, sign-in under it waits until the window ends: never for good.
 */
export class SignInThrottleRepository {
  constructor(
    private readonly db: Kysely<DatabaseSchema>,
    readonly windowMs: number,
  ) {}

  /**
   * Counts one attempt under each key (a key whose window has ended starts a new one); resolves to
   * the milliseconds to wait when any key is now over its limit, else 0.
   */
  async attempt(keys: ThrottleKey[], now = Date.now()): Promise<number> {
    const windowOver = sql<boolean>`sign_in_failures.window_started_at <= ${now - this.windowMs}`;
    let wait = 0;
    for (const { key, limit } of keys) {
      const row = await this.db
        .insertInto("sign_in_failures")
        .values({ key, failures: 1, window_started_at: now })
        .onConflict((conflict) =>
          conflict.column("key").doUpdateSet({
            failures: sql<number>`case when ${windowOver} then 1 else sign_in_failures.failures + 1 end`,
            window_started_at: sql<number>`case when ${windowOver} then ${now} else sign_in_failures.window_started_at end`,
          }),
        )
        .returning(["failures", "window_started_at"])
        .executeTakeFirstOrThrow();
      if (row.failures > limit) wait = Math.max(wait, Number(row.window_started_at) + this.windowMs - now);
    }
    return wait;
  }

  /**
   * The milliseconds to wait when `key` has `limit` attempts or more in its window already, else 0:
   * a look that counts nothing, for a caller that counts only the attempts that fail.
   */
  async waitFor(key: string, limit: number, now = Date.now()): Promise<number> {
    const row = await this.db
      .selectFrom("sign_in_failures")
      .select(["failures", "window_started_at"])
      .where("key", "=", key)
      .where("window_started_at", ">", now - this.windowMs)
      .executeTakeFirst();
    if (!row || row.failures < limit) return 0;
    return Math.max(1, Number(row.window_started_at) + this.windowMs - now);
  }

  /** After a successful sign-in: `cleared` keys start afresh, and the attempt is taken back from `forgiven`. */
  async succeeded(cleared: string[], forgiven: string[]): Promise<void> {
    if (cleared.length > 0)
      await this.db.deleteFrom("sign_in_failures").where("key", "in", cleared).execute();
    if (forgiven.length > 0) {
      await this.db
        .updateTable("sign_in_failures")
        .set((eb) => ({ failures: eb("failures", "-", 1) }))
        .where("key", "in", forgiven)
        .where("failures", ">", 0)
        .execute();
    }
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
