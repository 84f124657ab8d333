import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { tooManyAttemptsMessage, WRONG_PASSWORD_MESSAGE } from "../../src/auth/provider/plugin.js";
import { SIGN_IN_THROTTLE } from "../../src/plugins/database.js";
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
} from "../helper.js";

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

  it("answers 429 after 5 wrong passwords for one email, even to the right one, then lets the owner back in after 15 minutes", async () => {
    const browser = new TestBrowser();
    const walker = newWalker();
    await signUp(browser, server.origin, walker);
    await signOut(browser, server.origin);

    for (let attempt = 1; attempt <= SIGN_IN_THROTTLE.perEmail; attempt++) {
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
    // ...and their success clears the email's count.
    expect(await failures(`email:${walker.email.toLowerCase()}`)).toBeUndefined();
  });

  it("does not block another email because one was attacked, until the address itself has failed 20 times", async () => {
    await server.app.database.db.deleteFrom("sign_in_failures").execute();
    const owner = newWalker();
    await signUp(new TestBrowser(), server.origin, owner);
    const attacked = newWalker();
    await signUp(new TestBrowser(), server.origin, attacked);
    for (let attempt = 1; attempt <= SIGN_IN_THROTTLE.perEmail; attempt++) {
      await signIn(new TestBrowser(), server.origin, attacked.email, `guess-${attempt}`);
    }
    expect(
      (await signIn(new TestBrowser(), server.origin, attacked.email, attacked.password)).response.status,
    ).toBe(429);
    const browser = new TestBrowser();
    await signIn(browser, server.origin, owner.email, owner.password);
    expect((await currentUser(browser)).response.status).toBe(200);

    // Spraying guesses over many emails from one address: the address is blocked at 20 failures.
    for (let attempt = SIGN_IN_THROTTLE.perEmail + 1; attempt <= SIGN_IN_THROTTLE.perAddress; attempt++) {
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
    expect((await failures("ip:127.0.0.1"))?.failures).toBe(SIGN_IN_THROTTLE.perAddress);
  });
});
