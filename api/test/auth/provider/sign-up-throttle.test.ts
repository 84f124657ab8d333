import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { networkOf } from "../../../src/auth/provider/throttle.js";
import { Database } from "../../../src/db/database.js";
import { EMAIL_TAKEN_MESSAGE } from "../../../src/repositories/local-accounts.js";
import {
  SIGN_UP_THROTTLE,
  SignUpThrottleRepository,
  tooManySignUpsMessage,
} from "../../../src/repositories/sign-up-throttle.js";
import {
  dialects,
  escaped,
  newWalker,
  type RunningServer,
  signUp,
  startTestServer,
  TestBrowser,
} from "../../helper.js";
import { TEST_NOW } from "../../support/clock.js";

describe.each(dialects)("sign-ups from one address (%s)", (dialect) => {
  let server: RunningServer;
  beforeAll(async () => {
    server = await startTestServer(dialect);
  });
  afterAll(async () => server.close());

  const accounts = async () =>
    Number(
      (
        await server.app.database.db
          .selectFrom("local_accounts")
          .select((eb) => eb.fn.countAll().as("n"))
          .executeTakeFirstOrThrow()
      ).n,
    );
  const reset = () => server.app.database.db.deleteFrom("sign_up_attempts" as never).execute();

  it("makes 10 accounts an hour from one address, then answers 429 with Retry-After, and again after the hour", async () => {
    await reset();
    const before = await accounts();
    for (let n = 1; n <= SIGN_UP_THROTTLE.perAddress; n++) {
      const made = await signUp(new TestBrowser(), server.origin, newWalker(), (next) =>
        next.pathname.startsWith("/api/callback"),
      );
      expect(made.response.status, `sign-up ${n}`).toBe(303);
    }
    expect(await accounts()).toBe(before + SIGN_UP_THROTTLE.perAddress);

    const browser = new TestBrowser();
    const refused = await signUp(browser, server.origin, newWalker());
    expect(refused.response.status).toBe(429);
    expect(Number(refused.response.headers.get("retry-after"))).toBeGreaterThan(59 * 60);
    expect(refused.body).toContain(escaped(tooManySignUpsMessage(60)));
    expect(refused.body).toContain('value="Ada"');
    expect(await accounts()).toBe(before + SIGN_UP_THROTTLE.perAddress);

    // An hour later (the window moved back instead of waiting), this address may sign up again.
    await server.app.database.db
      .updateTable("sign_up_attempts" as never)
      .set({ window_started_at: Date.now() - SIGN_UP_THROTTLE.windowMs } as never)
      .execute();
    const later = await signUp(new TestBrowser(), server.origin, newWalker(), (next) =>
      next.pathname.startsWith("/api/callback"),
    );
    expect(later.response.status).toBe(303);
  });

  it("lets only 10 of 14 sign-ups sent at once make an account", async () => {
    await reset();
    const before = await accounts();
    const answers = await Promise.all(
      Array.from({ length: 14 }, () =>
        signUp(new TestBrowser(), server.origin, newWalker(), (next) =>
          next.pathname.startsWith("/api/callback"),
        ),
      ),
    );
    const statuses = answers.map((answer) => answer.response.status);
    expect(statuses.filter((status) => status === 303)).toHaveLength(SIGN_UP_THROTTLE.perAddress);
    expect(statuses.filter((status) => status === 429)).toHaveLength(14 - SIGN_UP_THROTTLE.perAddress);
    expect(await accounts()).toBe(before + SIGN_UP_THROTTLE.perAddress);
  });

  it("counts asking about an email that already has an account, but not a form refused for what it holds", async () => {
    await reset();
    const taken = newWalker();
    await signUp(new TestBrowser(), server.origin, taken);
    for (let n = 2; n <= SIGN_UP_THROTTLE.perAddress; n++) {
      const again = await signUp(new TestBrowser(), server.origin, { ...newWalker(), email: taken.email });
      expect(again.response.status).toBe(409);
      expect(again.body).toContain(escaped(EMAIL_TAKEN_MESSAGE));
    }
    for (let n = 0; n < 3; n++) {
      const weak = await signUp(new TestBrowser(), server.origin, { ...newWalker(), password: "password2" });
      expect(weak.response.status).toBe(400);
    }
    const probe = await signUp(new TestBrowser(), server.origin, { ...newWalker(), email: taken.email });
    expect(probe.response.status).toBe(429);
  });

  it("counts an IPv6 /64 as one address, and keeps other addresses apart", async () => {
    await reset();
    const throttle = server.app.repositories.signUpThrottle;
    const now = Date.now();
    for (let n = 1; n <= SIGN_UP_THROTTLE.perAddress; n++) {
      expect(await throttle.count(networkOf(`2001:db8:7:7::${n.toString(16)}`), now)).toBeNull();
    }
    const wait = await throttle.count(networkOf("2001:db8:7:7:ffff:1:2:3"), now + 60_000);
    expect(wait).toEqual({ minutes: 59, retryAfterSeconds: 59 * 60 });
    expect(await throttle.count(networkOf("2001:db8:7:8::1"), now)).toBeNull();
    expect(await throttle.count(networkOf("192.0.2.1"), now)).toBeNull();
    expect(await throttle.count(networkOf("::ffff:192.0.2.1"), now)).toBeNull();
    // Three keys: the /64, the other /64, and 192.0.2.1 however it was written.
    expect(await throttle.deleteExpired(now + SIGN_UP_THROTTLE.windowMs)).toBe(3);
  });

  it("counts in the database: processes with connections of their own, asked at once, let 10 through in all", async () => {
    await reset();
    // A second process's view of the same database: its own connection (its own pool on
    // PostgreSQL), its own repository, as the composition root of another API process builds it.
    const other = Database.connect(server.database.url);
    try {
      const throttles = [server.app.repositories.signUpThrottle, new SignUpThrottleRepository(other.db)];
      const now = TEST_NOW.getTime();
      const waits = await Promise.all(
        Array.from({ length: 14 }, (_, n) => throttles[n % 2]?.count(networkOf("198.51.100.7"), now)),
      );
      expect(waits.filter((wait) => wait === null)).toHaveLength(SIGN_UP_THROTTLE.perAddress);
      expect(waits.filter((wait) => wait !== null)).toHaveLength(14 - SIGN_UP_THROTTLE.perAddress);
    } finally {
      await other.close();
    }
  });
});
