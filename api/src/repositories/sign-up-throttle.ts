import { type Kysely, sql } from "kysely";
import type { DatabaseSchema } from "../db/schema/index.js";
import type { SignInWait } from "./sign-in-throttle.js";

/**
 * New accounts from one network address: at most 10 an hour. Past that, sign-up from there waits
 * for the rest of the hour, with 429 and Retry-After.
 */
export const SIGN_UP_THROTTLE = {
  windowMs: 60 * 60_000,
  perAddress: 10,
} as const;

export const tooManySignUpsMessage = (minutes: number) =>
  `Too many accounts have been created from your network. Please wait ${minutes} minute${minutes === 1 ? "" : "s"} and try again.`;

/**
 * Sign-ups counted in the database over a fixed window, in the sign-in throttle's way: every API
 * process counts the same ones, and each is counted before the account is made, in one statement,
 * so parallel sign-ups cannot all slip in under the limit. A form refused for what it holds (an
 * empty name, a weak password) is not counted; one naming an email that already has an account is,
 * as that answer tells whether someone has an account here.
 */
export class SignUpThrottleRepository {
  constructor(
    private readonly db: Kysely<DatabaseSchema>,
    readonly windowMs: number = SIGN_UP_THROTTLE.windowMs,
    readonly perAddress: number = SIGN_UP_THROTTLE.perAddress,
  ) {}

  /** Counts one sign-up from `network` (`networkOf` the address); the wait past the limit, else null. */
  async count(network: string, now = Date.now()): Promise<SignInWait | null> {
    const windowOver = sql<boolean>`sign_up_attempts.window_started_at <= ${now - this.windowMs}`;
    const row = await this.db
      .insertInto("sign_up_attempts")
      .values({ key: `ip:${network}`, attempts: 1, window_started_at: now })
      .onConflict((conflict) =>
        conflict.column("key").doUpdateSet({
          attempts: sql<number>`case when ${windowOver} then 1 else sign_up_attempts.attempts + 1 end`,
          window_started_at: sql<number>`case when ${windowOver} then ${now} else sign_up_attempts.window_started_at end`,
        }),
      )
      .returning(["attempts", "window_started_at"])
      .executeTakeFirstOrThrow();
    if (row.attempts <= this.perAddress) return null;
    const wait = Number(row.window_started_at) + this.windowMs - now;
    return {
      minutes: Math.max(1, Math.ceil(wait / 60_000)),
      retryAfterSeconds: Math.max(1, Math.ceil(wait / 1000)),
    };
  }

  /** Housekeeping: windows that have ended count for nothing. */
  async deleteExpired(now = Date.now()): Promise<number> {
    const result = await this.db
      .deleteFrom("sign_up_attempts")
      .where("window_started_at", "<=", now - this.windowMs)
      .executeTakeFirst();
    return Number(result.numDeletedRows);
  }
}
