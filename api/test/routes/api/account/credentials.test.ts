import type { FastifyInstance } from "fastify";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { LINK_USED_MESSAGE } from "../../../../src/auth/provider/account-link-pages.js";
import { CONFIRM_EMAIL_PATH } from "../../../../src/auth/provider/account-links.js";
import { SIGN_IN_THROTTLE } from "../../../../src/auth/provider/throttle.js";
import {
  ACCOUNT_EMAIL_CONFIRMATION_PATH,
  ACCOUNT_EMAIL_PATH,
  ACCOUNT_PASSWORD_PATH,
  CREDENTIALS_MESSAGES,
  EMAIL_CHANGES_PER_WINDOW,
} from "../../../../src/routes/api/account/credentials.js";
import { dialects, escaped, newWalker, signIn, signUp, TestBrowser } from "../../../helper.js";
import {
  type AccountServer,
  clearThrottles,
  followConfirmation,
  linkIn,
  mailsTo,
  nthMailTo,
  postJson,
  startAccountServer,
  whoIs,
} from "../../../support/account-mail.js";
import { type AppWithExternalIssuer, startAppWithExternalIssuer } from "../../../support/external-issuer.js";

describe.each(dialects)("changing a built-in account's password and email (%s)", (dialect) => {
  let env: AccountServer;
  let origin: string;
  beforeAll(async () => {
    env = await startAccountServer(dialect);
    origin = env.server.origin;
  });
  afterAll(async () => env.close());
  beforeEach(async () => clearThrottles(env.server));

  async function signedUp() {
    const walker = newWalker();
    const browser = new TestBrowser();
    expect((await signUp(browser, origin, walker)).trail.at(-1)).toBe(`${origin}/`);
    await nthMailTo(env.smtp, walker.email);
    return { walker, browser };
  }

  const messageOf = (body: string) => (JSON.parse(body) as { message: string }).message;

  it("changes the password with the current one, ending the account's other sessions only", async () => {
    const { walker, browser } = await signedUp();
    const other = new TestBrowser();
    await signIn(other, origin, walker.email, walker.password);
    expect((await whoIs(other, origin)).status).toBe(200);

    const wrong = await postJson(browser, origin, ACCOUNT_PASSWORD_PATH, {
      currentPassword: "not-my-password",
      newPassword: "a-fresh-walking-phrase",
    });
    expect(wrong.response.status).toBe(400);
    expect(messageOf(wrong.body)).toBe(CREDENTIALS_MESSAGES.wrongCurrentPassword);

    const weak = await postJson(browser, origin, ACCOUNT_PASSWORD_PATH, {
      currentPassword: walker.password,
      newPassword: "short",
    });
    expect(weak.response.status).toBe(400);
    expect(messageOf(weak.body)).toContain("at least 8 characters");

    const newPassword = "a-fresh-walking-phrase";
    const changed = await postJson(browser, origin, ACCOUNT_PASSWORD_PATH, {
      currentPassword: walker.password,
      newPassword,
    });
    expect(changed.response.status).toBe(200);
    expect(messageOf(changed.body)).toBe(CREDENTIALS_MESSAGES.passwordChanged);
    expect((await whoIs(browser, origin)).status).toBe(200);
    expect((await whoIs(other, origin)).status).toBe(401);

    expect((await signIn(new TestBrowser(), origin, walker.email, walker.password)).response.status).toBe(
      401,
    );
    expect((await signIn(new TestBrowser(), origin, walker.email, newPassword)).trail.at(-1)).toBe(
      `${origin}/`,
    );
  });

  it("counts wrong current passwords like sign-in attempts: 429 past the limit", async () => {
    const { walker, browser } = await signedUp();
    for (let n = 1; n <= SIGN_IN_THROTTLE.perEmailAndAddress; n++) {
      const wrong = await postJson(browser, origin, ACCOUNT_PASSWORD_PATH, {
        currentPassword: `wrong-${n}`,
        newPassword: "a-fresh-walking-phrase",
      });
      expect(wrong.response.status, `attempt ${n}`).toBe(400);
    }
    const refused = await postJson(browser, origin, ACCOUNT_PASSWORD_PATH, {
      currentPassword: walker.password,
      newPassword: "a-fresh-walking-phrase",
    });
    expect(refused.response.status).toBe(429);
    expect(refused.response.headers.get("retry-after")).not.toBeNull();
    expect(messageOf(refused.body)).toContain("Too many sign-in attempts");
  });

  it("moves the account to a new email once the new address confirms it, and tells the old one", async () => {
    const { walker, browser } = await signedUp();
    const newEmail = `moved.${walker.email}`;

    const wrong = await postJson(browser, origin, ACCOUNT_EMAIL_PATH, {
      newEmail,
      currentPassword: "nope-nope",
    });
    expect(wrong.response.status).toBe(400);
    expect(messageOf(wrong.body)).toBe(CREDENTIALS_MESSAGES.wrongCurrentPassword);
    const notEmail = await postJson(browser, origin, ACCOUNT_EMAIL_PATH, {
      newEmail: "no at sign",
      currentPassword: walker.password,
    });
    expect(notEmail.response.status).toBe(400);
    expect(messageOf(notEmail.body)).toBe(CREDENTIALS_MESSAGES.invalidEmail);
    // A zero-width space would make a look-alike of someone else's address.
    const lookAlike = await postJson(browser, origin, ACCOUNT_EMAIL_PATH, {
      newEmail: "ada@exa\u200Bmple.org",
      currentPassword: walker.password,
    });
    expect(lookAlike.response.status).toBe(400);
    expect(messageOf(lookAlike.body)).toBe(CREDENTIALS_MESSAGES.invalidEmail);

    const asked = await postJson(browser, origin, ACCOUNT_EMAIL_PATH, {
      newEmail: newEmail.toUpperCase(),
      currentPassword: walker.password,
    });
    expect(asked.response.status).toBe(202);
    expect(messageOf(asked.body)).toBe(CREDENTIALS_MESSAGES.emailChangeSent(newEmail));
    // Nothing changes until the new address confirms.
    expect((await whoIs(browser, origin)).user?.email).toBe(walker.email);

    const mail = await nthMailTo(env.smtp, newEmail);
    expect(mail.subject).toBe("Confirm your new email for Charity Steps");
    const link = linkIn(mail, origin, CONFIRM_EMAIL_PATH);
    const opened = await new TestBrowser().visit(link);
    expect(opened.body).toContain("<h1>Use your new email</h1>");
    expect((await whoIs(browser, origin)).user?.email).toBe(walker.email);
    const followed = await followConfirmation(new TestBrowser(), link);
    expect(followed.response.status).toBe(200);
    expect(followed.body).toContain(newEmail);

    expect((await whoIs(browser, origin)).user).toMatchObject({ email: newEmail, emailVerified: true });
    const account = await env.server.app.repositories.localAccounts.findByEmail(newEmail);
    expect(account?.email_verified_at).not.toBeNull();
    expect(await env.server.app.repositories.localAccounts.findByEmail(walker.email)).toBeUndefined();

    const notice = await nthMailTo(env.smtp, walker.email, 2);
    expect(notice.subject).toBe("Your Charity Steps email has changed");
    expect(notice.text).toContain(newEmail);

    expect((await followConfirmation(new TestBrowser(), link)).body).toContain(escaped(LINK_USED_MESSAGE));
    expect((await signIn(new TestBrowser(), origin, newEmail, walker.password)).trail.at(-1)).toBe(
      `${origin}/`,
    );
    expect((await signIn(new TestBrowser(), origin, walker.email, walker.password)).response.status).toBe(
      401,
    );
  });

  it("answers an email another account uses as it answers any other, and tells only that address", async () => {
    const { walker: taken } = await signedUp();
    const { walker, browser } = await signedUp();
    const asked = await postJson(browser, origin, ACCOUNT_EMAIL_PATH, {
      newEmail: taken.email,
      currentPassword: walker.password,
    });
    expect(asked.response.status).toBe(202);
    expect(messageOf(asked.body)).toBe(CREDENTIALS_MESSAGES.emailChangeSent(taken.email));
    const mail = await nthMailTo(env.smtp, taken.email, 2);
    expect(mail.subject).toBe("This email already has a Charity Steps account");
    expect(mail.text).not.toContain(CONFIRM_EMAIL_PATH);
    expect((await whoIs(browser, origin)).user?.email).toBe(walker.email);
  });

  it("mails at most 3 email changes per 15 minutes for one walker, then answers 429", async () => {
    const { walker, browser } = await signedUp();
    for (let n = 1; n <= EMAIL_CHANGES_PER_WINDOW; n++) {
      const asked = await postJson(browser, origin, ACCOUNT_EMAIL_PATH, {
        newEmail: `change.${n}.${walker.email}`,
        currentPassword: walker.password,
      });
      expect(asked.response.status, `request ${n}`).toBe(202);
    }
    const refused = await postJson(browser, origin, ACCOUNT_EMAIL_PATH, {
      newEmail: `change.more.${walker.email}`,
      currentPassword: walker.password,
    });
    expect(refused.response.status).toBe(429);
    expect(messageOf(refused.body)).toBe(CREDENTIALS_MESSAGES.tooManyEmailChanges(15));
    await nthMailTo(env.smtp, `change.${EMAIL_CHANGES_PER_WINDOW}.${walker.email}`);
    expect(mailsTo(env.smtp, `change.more.${walker.email}`)).toHaveLength(0);
  });

  it("keeps one link working of two email changes asked for at once, so the account ends with one email", async () => {
    const { walker, browser } = await signedUp();
    const [first, second] = [`first.${walker.email}`, `second.${walker.email}`];
    const asked = await Promise.all(
      [first, second].map((newEmail) =>
        postJson(browser, origin, ACCOUNT_EMAIL_PATH, { newEmail, currentPassword: walker.password }),
      ),
    );
    expect(asked.map((each) => each.response.status)).toEqual([202, 202]);
    const links = await Promise.all(
      [first, second].map(async (to) => linkIn(await nthMailTo(env.smtp, to), origin, CONFIRM_EMAIL_PATH)),
    );
    const followed = await Promise.all(links.map((link) => followConfirmation(new TestBrowser(), link)));
    // The later of the two replaced the earlier: one link changes the email, the other is used up.
    expect(followed.map((each) => each.response.status).sort()).toEqual([200, 400]);
    const { db } = env.server.app.database;
    const user = await db.selectFrom("users").select("email").where("email", "in", [first, second]).execute();
    const account = await db
      .selectFrom("local_accounts")
      .select("email")
      .where("email", "in", [first, second])
      .execute();
    expect(user).toHaveLength(1);
    expect(account).toEqual(user);

    // However many links are asked for at once, one works: each replaces the last whole.
    const { id } = await db
      .selectFrom("local_accounts")
      .select("id")
      .where("email", "in", [first, second])
      .executeTakeFirstOrThrow();
    await Promise.all(
      Array.from({ length: 10 }, (_, n) =>
        env.server.app.repositories.accountTokens.replace(
          "email-change",
          id,
          `n${n}.${walker.email}`,
          60_000,
        ),
      ),
    );
    const working = await db
      .selectFrom("account_tokens")
      .select("email")
      .where("account_id", "=", id)
      .where("kind", "=", "email-change")
      .where("used_at", "is", null)
      .execute();
    expect(working).toHaveLength(1);
  });

  it("keeps the account's email when the new address is taken between the request and the link", async () => {
    const { walker, browser } = await signedUp();
    const wanted = `wanted.${walker.email}`;
    await postJson(browser, origin, ACCOUNT_EMAIL_PATH, {
      newEmail: wanted,
      currentPassword: walker.password,
    });
    const link = linkIn(await nthMailTo(env.smtp, wanted), origin, CONFIRM_EMAIL_PATH);
    await signUp(new TestBrowser(), origin, newWalker({ email: wanted }));
    const followed = await followConfirmation(new TestBrowser(), link);
    expect(followed.response.status).toBe(409);
    expect((await whoIs(browser, origin)).user?.email).toBe(walker.email);
    expect(mailsTo(env.smtp, walker.email)).toHaveLength(1);
  });

  it("refuses another site's request, control characters and oversized fields, changing nothing", async () => {
    const { walker, browser } = await signedUp();
    const crossSite = await browser.visit(`${origin}${ACCOUNT_PASSWORD_PATH}`, {
      method: "POST",
      headers: {
        "content-type": "application/json",
        origin: "https://evil.example",
        "sec-fetch-site": "cross-site",
      },
      body: JSON.stringify({ currentPassword: walker.password, newPassword: "a-fresh-walking-phrase" }),
    });
    expect(crossSite.response.status).toBe(403);
    for (const body of [
      { newEmail: "new\u0000@example.org", currentPassword: walker.password },
      { newEmail: `${"a".repeat(1001)}@example.org`, currentPassword: walker.password },
      { newEmail: "new@example.org" },
      { newEmail: ["new@example.org"], currentPassword: walker.password },
    ]) {
      const refused = await postJson(browser, origin, ACCOUNT_EMAIL_PATH, body);
      expect(refused.response.status, JSON.stringify(body)).toBe(400);
    }
    const tooLong = await postJson(browser, origin, ACCOUNT_PASSWORD_PATH, {
      currentPassword: walker.password,
      newPassword: "x".repeat(1001),
    });
    expect(tooLong.response.status).toBe(400);
    // The old password still signs in: nothing above changed the account.
    expect((await signIn(new TestBrowser(), origin, walker.email, walker.password)).trail.at(-1)).toBe(
      `${origin}/`,
    );
    expect(mailsTo(env.smtp, walker.email)).toHaveLength(1);
  });

  it("asks for a session on every route", async () => {
    for (const path of [ACCOUNT_PASSWORD_PATH, ACCOUNT_EMAIL_PATH]) {
      const answer = await postJson(new TestBrowser(), origin, path, {
        currentPassword: "x",
        newPassword: "y",
        newEmail: "z@example.org",
      });
      expect(answer.response.status, path).toBe(401);
    }
  });
});

/** The app signed in through an issuer it does not run: its walkers' credentials are managed there. */
describe.each(dialects)("an external provider's account (%s)", (dialect) => {
  let started: AppWithExternalIssuer;
  let identityServer: FastifyInstance;
  let appOrigin: string;

  beforeAll(async () => {
    started = await startAppWithExternalIssuer(dialect);
    ({ identityServer, appOrigin } = started);
  });
  afterAll(() => started?.close());

  it("takes email_verified from the provider at each sign-in, and refuses credential changes with 403", async () => {
    const walker = newWalker();
    const browser = new TestBrowser();
    await signUp(browser, appOrigin, walker);
    expect((await whoIs(browser, appOrigin)).user).toMatchObject({
      emailVerified: false,
      accountKind: "external",
    });

    // The provider now vouches for the email: the next sign-in says so.
    await identityServer.database.db
      .updateTable("local_accounts")
      .set({ email_verified_at: Date.now() })
      .where("email", "=", walker.email)
      .execute();
    const again = new TestBrowser();
    await signIn(again, appOrigin, walker.email, walker.password);
    expect((await whoIs(again, appOrigin)).user).toMatchObject({
      emailVerified: true,
      accountKind: "external",
    });

    for (const [path, body] of [
      [ACCOUNT_PASSWORD_PATH, { currentPassword: walker.password, newPassword: "a-fresh-walking-phrase" }],
      [ACCOUNT_EMAIL_PATH, { newEmail: "elsewhere@example.org", currentPassword: walker.password }],
      [ACCOUNT_EMAIL_CONFIRMATION_PATH, undefined],
    ] as const) {
      const refused = await postJson(again, appOrigin, path, body);
      expect(refused.response.status, path).toBe(403);
      expect(messageOf(refused.body)).toBe(CREDENTIALS_MESSAGES.external);
    }
  });

  const messageOf = (body: string) => (JSON.parse(body) as { message: string }).message;
});
