import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { WRONG_PASSWORD_MESSAGE } from "../../../src/auth/provider/interactions.js";
import {
  SIGN_IN_THROTTLE,
  signInAttempt,
  tooManyAttemptsMessage,
  tooManySignInStartsMessage,
} from "../../../src/auth/provider/throttle.js";
import {
  dialects,
  escaped,
  newWalker,
  type RunningServer,
  signIn,
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
    const walker = newWalker();
    await signUp(new TestBrowser(), server.origin, walker);
    // A browser that has not signed in to the account before (the one it signed up in is trusted:
    // see targeted-lockout.test.ts).
    const browser = new TestBrowser();

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

  it("blocks the place a walker's password is guessed from, not the walker elsewhere, until 50 guesses in all", async () => {
    await server.app.database.db.deleteFrom("sign_in_failures").execute();
    const throttle = server.app.repositories.signInThrottle;
    const email = "guessed@example.org";
    for (let attempt = 1; attempt <= SIGN_IN_THROTTLE.perEmailAndAddress; attempt++) {
      expect(await signInAttempt(throttle, email, "203.0.113.9").count()).toBeNull();
    }
    expect(await signInAttempt(throttle, email, "203.0.113.9").count()).not.toBeNull();
    // The owner, from home: their attempt is checked.
    expect(await signInAttempt(throttle, email, "198.51.100.20").count()).toBeNull();
    // Guesses from many places at once: 50 for the email in all (the seven above, the refused one
    // among them, count too), then it waits everywhere.
    for (let attempt = 8; attempt <= SIGN_IN_THROTTLE.perEmail; attempt++) {
      expect(await signInAttempt(throttle, email, `192.0.2.${attempt}`).count()).toBeNull();
    }
    expect(await signInAttempt(throttle, email, "198.51.100.20").count()).not.toBeNull();
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

  it(`stores at most ${SIGN_IN_THROTTLE.startsPerAddress} pending sign-ins begun from one address per 15 minutes, then answers 429 and stores none`, async () => {
    const { app } = server;
    await app.database.db.deleteFrom("sign_in_failures").execute();
    const login = await app.inject({ method: "GET", url: "/api/login" });
    const authorize = new URL(String(login.headers.location));
    expect(authorize.pathname).toBe("/oidc/auth");
    const begin = (remoteAddress: string) =>
      app.inject({ method: "GET", url: `${authorize.pathname}${authorize.search}`, remoteAddress });
    const pending = async () =>
      Number(
        (
          await app.database.db
            .selectFrom("oidc_payloads")
            .select((eb) => eb.fn.countAll().as("n"))
            .where("model", "=", "Interaction")
            .executeTakeFirstOrThrow()
        ).n,
      );
    const before = await pending();
    for (let start = 1; start <= SIGN_IN_THROTTLE.startsPerAddress; start++) {
      const begun = await begin("203.0.113.9");
      expect(begun.statusCode, `sign-in ${start}`).toBe(303);
      expect(begun.headers.location).toMatch(/^\/auth\/interaction\//);
    }
    expect(await pending()).toBe(before + SIGN_IN_THROTTLE.startsPerAddress);

    const refused = await begin("203.0.113.9");
    expect(refused.statusCode).toBe(429);
    expect(Number(refused.headers["retry-after"])).toBeGreaterThan(0);
    expect(refused.body).toContain(escaped(tooManySignInStartsMessage(15)));
    expect(await pending()).toBe(before + SIGN_IN_THROTTLE.startsPerAddress);
    // Another network is not held back by it.
    expect((await begin("198.51.100.7")).statusCode).toBe(303);
    await app.database.db.deleteFrom("sign_in_failures").execute();
  });
});
