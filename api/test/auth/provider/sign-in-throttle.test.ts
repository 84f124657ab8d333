import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { WRONG_PASSWORD_MESSAGE } from "../../../src/auth/provider/interactions.js";
import { SIGN_IN_THROTTLE, tooManyAttemptsMessage } from "../../../src/auth/provider/throttle.js";
import {
  dialects,
  escaped,
  newWalker,
  type RunningServer,
  signIn,
  signOut,
  signUp,
  startTestServer,
  TestBrowser,
} from "../../helper.js";

describe.each(dialects)("repeated failed sign-ins (%s)", (dialect) => {
  let server: RunningServer;
  beforeAll(async () => {
    server = await startTestServer(dialect);
  });
  afterAll(async () => server.close());

  const currentUser = (browser: TestBrowser) => browser.visit(`${server.origin}/api/auth/user`);
  const failures = (key: string) =>
    server.app.database.db
      .selectFrom("sign_in_failures")
      .selectAll()
      .where("key", "=", key)
      .executeTakeFirst();

  it("answers 429 after 5 wrong passwords for one email from one address, even to the right one, then lets the owner back in after 15 minutes", async () => {
    await server.app.database.db.deleteFrom("sign_in_failures").execute();
    const browser = new TestBrowser();
    const walker = newWalker();
    await signUp(browser, server.origin, walker);
    await signOut(browser, server.origin);

    for (let attempt = 1; attempt <= SIGN_IN_THROTTLE.perEmailAndAddress; attempt++) {
      const refused = await signIn(new TestBrowser(), server.origin, walker.email, `guess-${attempt}`);
      expect(refused.response.status).toBe(401);
      expect(refused.body).toContain(escaped(WRONG_PASSWORD_MESSAGE));
    }
    const blocked = await signIn(browser, server.origin, walker.email, walker.password);
    expect(blocked.response.status).toBe(429);
    expect(blocked.body).toContain(escaped(tooManyAttemptsMessage(15)));
    expect(Number(blocked.response.headers.get("retry-after"))).toBeGreaterThan(14 * 60);
    expect((await currentUser(browser)).response.status).toBe(401);
    // The same email in capitals is the same account, and blocked too.
    const shouted = await signIn(
      new TestBrowser(),
      server.origin,
      walker.email.toUpperCase(),
      walker.password,
    );
    expect(shouted.response.status).toBe(429);

    // 15 minutes later (the window moved back instead of waiting), the owner signs in...
    await server.app.database.db
      .updateTable("sign_in_failures")
      .set((eb) => ({ window_started_at: eb("window_started_at", "-", SIGN_IN_THROTTLE.windowMs) }))
      .execute();
    await signIn(browser, server.origin, walker.email, walker.password);
    expect((await currentUser(browser)).response.status).toBe(200);
    // ...and their success clears their count here.
    expect(await failures(`email+ip:${walker.email.toLowerCase()}|127.0.0.1`)).toBeUndefined();
  });

  it("lets only 5 of 12 guesses sent at once be checked", async () => {
    await server.app.database.db.deleteFrom("sign_in_failures").execute();
    const walker = newWalker();
    await signUp(new TestBrowser(), server.origin, walker);
    const answers = await Promise.all(
      Array.from({ length: 12 }, (_, guess) =>
        signIn(new TestBrowser(), server.origin, walker.email, `guess-${guess}`),
      ),
    );
    const statuses = answers.map((answer) => answer.response.status).sort();
    expect(statuses.filter((status) => status === 401)).toHaveLength(SIGN_IN_THROTTLE.perEmailAndAddress);
    expect(statuses.filter((status) => status === 429)).toHaveLength(
      12 - SIGN_IN_THROTTLE.perEmailAndAddress,
    );
  });

  it("does not block another walker because one was attacked, until the address has made 20 attempts", async () => {
    await server.app.database.db.deleteFrom("sign_in_failures").execute();
    const owner = newWalker();
    await signUp(new TestBrowser(), server.origin, owner);
    const attacked = newWalker();
    await signUp(new TestBrowser(), server.origin, attacked);
    for (let attempt = 1; attempt <= SIGN_IN_THROTTLE.perEmailAndAddress; attempt++) {
      await signIn(new TestBrowser(), server.origin, attacked.email, `guess-${attempt}`);
    }
    expect(
      (await signIn(new TestBrowser(), server.origin, attacked.email, attacked.password)).response.status,
    ).toBe(429);
    const browser = new TestBrowser();
    await signIn(browser, server.origin, owner.email, owner.password);
    expect((await currentUser(browser)).response.status).toBe(200);

    // Guesses sprayed over many emails from one address: 20 attempts in all, then 429.
    const counted = (await failures("ip:127.0.0.1"))?.failures ?? 0;
    for (let attempt = counted + 1; attempt <= SIGN_IN_THROTTLE.perAddress; attempt++) {
      const refused = await signIn(
        new TestBrowser(),
        server.origin,
        `nobody-${attempt}@example.org`,
        "guess",
      );
      expect(refused.response.status).toBe(401);
    }
    const sprayed = await signIn(new TestBrowser(), server.origin, "nobody-else@example.org", "guess");
    expect(sprayed.response.status).toBe(429);
  });
});
