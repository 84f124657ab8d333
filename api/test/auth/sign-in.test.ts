import { LOGIN_PATH, SIGN_UP_PATH } from "@charity-steps/shared-types";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { EXPIRED_INTERACTION_MESSAGE, WRONG_PASSWORD_MESSAGE } from "../../src/auth/provider/interactions.js";
import { SESSION_EXPIRED_MESSAGE } from "../../src/auth/sessions.js";
import { EMAIL_TAKEN_MESSAGE } from "../../src/repositories/local-accounts.js";
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

describe.each(dialects)("sign-up, sign-in and sign-out through the built-in provider (%s)", (dialect) => {
  let server: RunningServer;
  beforeAll(async () => {
    server = await startTestServer(dialect);
  });
  afterAll(async () => server.close());

  const currentUser = (browser: TestBrowser) => browser.visit(`${server.origin}/api/auth/user`);

  it("signs a new walker up, lands them on / signed in, and stores them", async () => {
    const browser = new TestBrowser();
    const walker = newWalker({ firstName: "Grace", lastName: "Stepper" });

    const landed = await signUp(browser, server.origin, walker);

    expect(landed.trail.at(-1)).toBe(`${server.origin}/`);
    const me = await currentUser(browser);
    expect(me.response.status).toBe(200);
    expect(JSON.parse(me.body)).toMatchObject({
      firstName: "Grace",
      lastName: "Stepper",
      email: walker.email,
      profileImageUrl: null,
    });
    const { db } = server.app.database;
    const user = await db
      .selectFrom("users")
      .selectAll()
      .where("email", "=", walker.email)
      .executeTakeFirstOrThrow();
    expect(user.issuer).toBe(`${server.origin}/oidc`);
    const account = await db
      .selectFrom("local_accounts")
      .selectAll()
      .where("email", "=", walker.email)
      .executeTakeFirstOrThrow();
    expect(account.password_hash).toMatch(/^scrypt\$/);
    expect(account.password_hash).not.toContain(walker.password);
  });

  it("sets the session cookie httpOnly and SameSite=Lax, and stores only its hash", async () => {
    const browser = new TestBrowser();
    await signUp(browser, server.origin, newWalker());
    const cookies = await browser.jar.getCookies(server.origin);
    const session = cookies.find((cookie) => cookie.key === "cs_session");
    expect(session?.httpOnly).toBe(true);
    expect(session?.sameSite).toBe("lax");
    expect(session?.path).toBe("/");
    expect(session?.value).toMatch(/^[A-Za-z0-9_-]{43}$/);
    const stored = await server.app.database.db.selectFrom("sessions").select("id_hash").execute();
    expect(stored.map((row) => row.id_hash)).not.toContain(session?.value);
  });

  it("signs out: the session ends on the server, and the old cookie no longer works", async () => {
    const browser = new TestBrowser();
    await signUp(browser, server.origin, newWalker());
    const token = await browser.cookie(server.origin, "cs_session");
    expect((await currentUser(browser)).response.status).toBe(200);

    const signedOut = await signOut(browser, server.origin);

    expect(signedOut.trail.at(-1)).toBe(`${server.origin}/`);
    expect((await currentUser(browser)).response.status).toBe(401);
    // A copy of the cookie kept by an attacker is dead too.
    const replay = await fetch(`${server.origin}/api/auth/user`, {
      headers: { cookie: `cs_session=${token}` },
    });
    expect(replay.status).toBe(401);
    expect(await replay.json()).toEqual({ message: SESSION_EXPIRED_MESSAGE });
  });

  it("signs a returning walker in with their password, after signing out of the provider too", async () => {
    const browser = new TestBrowser();
    const walker = newWalker();
    await signUp(browser, server.origin, walker);
    const firstToken = await browser.cookie(server.origin, "cs_session");
    await signOut(browser, server.origin);

    // The provider asks again (its own session ended), and the app opens a new session id.
    const landed = await signIn(browser, server.origin, walker.email, walker.password);

    expect(landed.trail.at(-1)).toBe(`${server.origin}/`);
    const me = await currentUser(browser);
    expect(JSON.parse(me.body)).toMatchObject({ email: walker.email });
    expect(await browser.cookie(server.origin, "cs_session")).not.toBe(firstToken);
    const users = await server.app.database.db
      .selectFrom("users")
      .select("id")
      .where("email", "=", walker.email)
      .execute();
    expect(users).toHaveLength(1);
  });

  it("opens a new session id at a sign-in from a browser still signed in, and closes the one it held", async () => {
    const browser = new TestBrowser();
    await signUp(browser, server.origin, newWalker());
    const held = await browser.cookie(server.origin, "cs_session");
    expect(held).toBeTruthy();

    // Signed in at the provider still: the sign-in goes straight through, back to the app.
    const landed = await browser.visit(`${server.origin}/api/login`);
    expect(landed.trail.at(-1)).toBe(`${server.origin}/`);
    const fresh = await browser.cookie(server.origin, "cs_session");
    expect(fresh).toBeTruthy();
    expect(fresh).not.toBe(held);
    expect((await currentUser(browser)).response.status).toBe(200);
    // The id the browser held before is closed on the server, not only replaced in the browser.
    const replay = await fetch(`${server.origin}/api/auth/user`, {
      headers: { cookie: `cs_session=${held}` },
    });
    expect(replay.status).toBe(401);
  });

  it("refuses a wrong password with a clear message and no session", async () => {
    const browser = new TestBrowser();
    const walker = newWalker();
    await signUp(browser, server.origin, walker);
    await signOut(browser, server.origin);

    const refused = await signIn(browser, server.origin, walker.email, "not-my-password");

    expect(refused.response.status).toBe(401);
    expect(refused.body).toContain(escaped(WRONG_PASSWORD_MESSAGE));
    expect(refused.body).toContain(`value="${walker.email}"`);
    expect((await currentUser(browser)).response.status).toBe(401);
  });

  it("refuses an email that already has an account", async () => {
    const walker = newWalker();
    await signUp(new TestBrowser(), server.origin, walker);

    const again = await signUp(new TestBrowser(), server.origin, {
      ...walker,
      email: walker.email.toUpperCase(),
    });

    expect(again.response.status).toBe(409);
    expect(again.body).toContain(escaped(EMAIL_TAKEN_MESSAGE));
    const accounts = await server.app.database.db
      .selectFrom("local_accounts")
      .select("id")
      .where("email", "=", walker.email)
      .execute();
    expect(accounts).toHaveLength(1);
  });

  it.each([
    ["short", "walk1", "at least 8 characters"],
    ["common", "password123", "too easy to guess"],
    ["breached", "password2", "This is a commonly used password."],
    ["breached", "qwerty12", "This is a commonly used password."],
    ["repeated", "12341234", "too easy to guess"],
    ["made of the site's name", "charitysteps", "too easy to guess"],
    ["the email", "EMAIL", "must not be your email address"],
  ])("refuses a weak password (%s)", async (_case, password, reason) => {
    const walker = newWalker();
    const browser = new TestBrowser();
    const refused = await signUp(browser, server.origin, {
      ...walker,
      password: password === "EMAIL" ? walker.email : password,
    });

    expect(refused.response.status).toBe(400);
    expect(refused.body).toContain(reason);
    expect(refused.body).toContain(`value="${walker.firstName}"`);
    expect((await currentUser(browser)).response.status).toBe(401);
  });

  it("shows the sign-up and sign-in forms with the labels walkers are told about", async () => {
    const browser = new TestBrowser();
    const signInPage = await browser.visit(`${server.origin}/api/login`);
    expect(signInPage.body).toMatch(/<label for="email">Email<\/label>/);
    expect(signInPage.body).toMatch(/<label for="password">Password<\/label>/);
    expect(signInPage.body).toMatch(/<button type="submit">Sign in<\/button>/);
    // Walkers new to the app come here too (Get Started, a group's join link): it greets both.
    expect(signInPage.body).toContain(
      '<p class="lead">Sign in to count your steps for charity. New here? Create an account below.</p>',
    );
    expect(signInPage.body).toMatch(
      /New to Charity Steps\? <a href="\/auth\/interaction\/[^"]+\/signup">Create an account<\/a>/,
    );
    const link = /href="(\/auth\/interaction\/[^"]+\/signup)"/.exec(signInPage.body)?.[1] ?? "";
    const signUpPage = await browser.visit(`${server.origin}${link}`);
    for (const label of ["First name", "Last name", "Email", "Password"]) {
      expect(signUpPage.body).toContain(`">${label}</label>`);
    }
    expect(signUpPage.body).toMatch(/<button type="submit">Create account<\/button>/);
  });

  it("opens on the sign-up form from Get Started, and signs the new walker in from it", async () => {
    const browser = new TestBrowser();
    const walker = newWalker({ firstName: "Nell", lastName: "Ambler" });
    const page = await browser.visit(`${server.origin}${SIGN_UP_PATH}`);
    expect(page.response.status).toBe(200);
    expect(page.trail.some((url) => new URL(url).searchParams.get("prompt") === "create")).toBe(true);
    expect(page.body).toContain("<h1>Create your account</h1>");
    expect(page.body).toMatch(
      /Already have an account\? <a href="\/auth\/interaction\/[^"]+\/login">Sign in<\/a>/,
    );
    expect(page.body).toMatch(/<a href="\/auth\/interaction\/[^"]+\/abort">Cancel and go back<\/a>/);

    const landed = await browser.submit(page, "/signup", { ...walker });
    expect(landed.trail.at(-1)).toBe(`${server.origin}/`);
    const me = await currentUser(browser);
    expect(me.response.status).toBe(200);
    expect(JSON.parse(me.body)).toMatchObject({ firstName: "Nell", email: walker.email });
  });

  it("lets a walker sent to sign up sign in to the account they already have instead", async () => {
    const walker = newWalker();
    await signUp(new TestBrowser(), server.origin, walker);
    const browser = new TestBrowser();
    const signUpPage = await browser.visit(`${server.origin}${SIGN_UP_PATH}`);
    const link = /href="(\/auth\/interaction\/[^"]+\/login)"/.exec(signUpPage.body)?.[1] ?? "";
    const signInPage = await browser.visit(`${server.origin}${link}`);
    expect(signInPage.body).toContain("<h1>Sign in</h1>");
    const landed = await browser.submit(signInPage, "/login", {
      email: walker.email,
      password: walker.password,
    });
    // Signed in once: the create prompt is answered too, so the provider does not ask again.
    expect(landed.trail.at(-1)).toBe(`${server.origin}/`);
    expect(JSON.parse((await currentUser(browser)).body)).toMatchObject({ email: walker.email });
  });

  it("says it can do sign-up in its discovery, and takes no prompt but create from the app", async () => {
    const discovery = await fetch(`${server.origin}/oidc/.well-known/openid-configuration`);
    expect((await discovery.json()).prompt_values_supported).toContain("create");
    const refused = await fetch(`${server.origin}${LOGIN_PATH}?prompt=consent`, { redirect: "manual" });
    expect(refused.status).toBe(400);
    expect((await refused.json()).message).toMatch(/^prompt /);
  });

  it("explains an expired or foreign sign-in page instead of failing", async () => {
    const page = await new TestBrowser().visit(`${server.origin}/auth/interaction/not-a-real-one`);
    expect(page.response.status).toBe(400);
    expect(page.body).toContain(escaped(EXPIRED_INTERACTION_MESSAGE));
  });
});
