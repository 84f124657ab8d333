import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { RESET_SENT_MESSAGE, tooManyResetsMessage } from "../../../src/auth/provider/account-link-pages.js";
import { PASSWORD_RESET_THROTTLE } from "../../../src/auth/provider/account-link-routes.js";
import { FORGOT_PASSWORD_PATH } from "../../../src/auth/provider/account-links.js";
import { DEVICE_COOKIE } from "../../../src/auth/provider/device-cookies.js";
import { WRONG_PASSWORD_MESSAGE } from "../../../src/auth/provider/interactions.js";
import {
  SIGN_IN_THROTTLE,
  signInAttempt,
  tooManyAttemptsMessage,
} from "../../../src/auth/provider/throttle.js";
import { ACCOUNT_PASSWORD_PATH } from "../../../src/routes/api/account/credentials.js";
import { dialects, escaped, newWalker, signIn, signOut, signUp, TestBrowser } from "../../helper.js";
import {
  type AccountServer,
  clearThrottles,
  mailsTo,
  nthMailTo,
  postJson,
  startAccountServer,
  walkerWithAccount,
  whoIs,
} from "../../support/account-mail.js";

/** A browser somewhere else on the internet: the server (behind a trusted proxy here) sees its address. */
const browserAt = (address: string) => new TestBrowser({ "x-forwarded-for": address });
const addressOf = (n: number) => `198.51.${Math.floor(n / 250)}.${(n % 250) + 1}`;

// Failures from many places lock an account's email for strangers. The browser its owner has signed
// in with before (it holds a device cookie for the account) is never locked out by them.
describe.each(dialects)("targeted lockout (%s)", (dialect) => {
  let env: AccountServer;
  let origin: string;
  beforeAll(async () => {
    env = await startAccountServer(dialect, { TRUST_PROXY: "true" });
    origin = env.server.origin;
  });
  afterAll(async () => env?.close());
  beforeEach(async () => clearThrottles(env.server));

  /**
   * One wrong guess for `email` from each of as many addresses as one email may fail from in 15
   * minutes. Each guess costs a password hash, so all but the last few are counted as the sign-in
   * form counts them, without the form; the last few are posted, from a new address each time.
   */
  async function lockedOutByGuessesFromEverywhere(email: string) {
    const posted = 5;
    for (let n = 1; n <= SIGN_IN_THROTTLE.perEmail - posted; n++) {
      await signInAttempt(env.server.app.repositories.signInThrottle, email, addressOf(n)).count();
    }
    const guesser = browserAt(addressOf(0));
    let page = await guesser.visit(`${origin}/api/login`);
    for (let n = SIGN_IN_THROTTLE.perEmail - posted + 1; n <= SIGN_IN_THROTTLE.perEmail; n++) {
      guesser.headers["x-forwarded-for"] = addressOf(n);
      page = await guesser.submit(page, "/login", { email, password: `guess-${n}` });
      expect(page.response.status, `guess ${n}`).toBe(401);
      expect(page.body).toContain(escaped(WRONG_PASSWORD_MESSAGE));
    }
    const stranger = await signIn(browserAt("203.0.113.99"), origin, email, "any");
    expect(stranger.response.status).toBe(429);
  }

  it("lets the owner's browser sign in while guesses from many addresses keep everyone else out", async () => {
    const { walker, owner } = await walkerWithAccount(env);
    expect(await owner.cookie(origin, DEVICE_COOKIE)).toBeTruthy();
    await signOut(owner, origin);

    await lockedOutByGuessesFromEverywhere(walker.email);
    // The account is locked for a browser it does not know, even with the right password...
    const stranger = browserAt("203.0.113.50");
    const refused = await signIn(stranger, origin, walker.email, walker.password);
    expect(refused.response.status).toBe(429);
    expect(refused.body).toContain(escaped(tooManyAttemptsMessage(15)));
    expect((await whoIs(stranger, origin)).status).toBe(401);
    // ...and for one that holds a device cookie for another account (the attacker's own)...
    const attacker = browserAt("203.0.113.51");
    await signUp(attacker, origin, newWalker());
    await signOut(attacker, origin);
    expect((await signIn(attacker, origin, walker.email, walker.password)).response.status).toBe(429);
    // ...or a made-up one.
    const forger = browserAt("203.0.113.52");
    await forger.jar.setCookie(`${DEVICE_COOKIE}=${"A".repeat(22)}.${"B".repeat(43)}`, origin);
    expect((await signIn(forger, origin, walker.email, walker.password)).response.status).toBe(429);

    // The owner's browser signs in, from wherever it is.
    await signIn(owner, origin, walker.email, walker.password);
    expect((await whoIs(owner, origin)).user).toMatchObject({ email: walker.email });
  });

  it("holds the owner's browser to 5 wrong passwords of its own", async () => {
    const { walker, owner } = await walkerWithAccount(env);
    await signOut(owner, origin);
    for (let n = 1; n <= SIGN_IN_THROTTLE.perEmailAndAddress; n++) {
      expect((await signIn(owner, origin, walker.email, `guess-${n}`)).response.status).toBe(401);
    }
    const blocked = await signIn(owner, origin, walker.email, walker.password);
    expect(blocked.response.status).toBe(429);
    expect((await whoIs(owner, origin)).status).toBe(401);
  });

  it("lets the owner's browser ask for a reset link while requests from elsewhere have used the email's allowance", async () => {
    const { walker, owner } = await walkerWithAccount(env);
    await signOut(owner, origin);
    const askForReset = async (browser: TestBrowser) => {
      const form = await browser.visit(`${origin}${FORGOT_PASSWORD_PATH}`);
      return browser.submit(form, FORGOT_PASSWORD_PATH, { email: walker.email });
    };
    for (let n = 1; n <= PASSWORD_RESET_THROTTLE.perEmail; n++) {
      expect((await askForReset(browserAt(addressOf(n))))?.response.status, `request ${n}`).toBe(200);
    }
    const refused = await askForReset(browserAt("203.0.113.60"));
    expect(refused.response.status).toBe(429);
    expect(refused.body).toContain(escaped(tooManyResetsMessage(15)));

    const asked = await askForReset(owner);
    expect(asked.response.status).toBe(200);
    expect(asked.body).toContain(escaped(RESET_SENT_MESSAGE));
    // The sign-up's mail, the requests from elsewhere, and the owner's.
    await nthMailTo(env.smtp, walker.email, 2 + PASSWORD_RESET_THROTTLE.perEmail);
    expect(mailsTo(env.smtp, walker.email)).toHaveLength(2 + PASSWORD_RESET_THROTTLE.perEmail);
  });

  it("lets a signed-in walker change their password while guesses from many addresses lock the email", async () => {
    const { walker, owner } = await walkerWithAccount(env);
    await lockedOutByGuessesFromEverywhere(walker.email);
    const changed = await postJson(owner, origin, ACCOUNT_PASSWORD_PATH, {
      currentPassword: walker.password,
      newPassword: "a-fresh-walking-phrase",
    });
    expect(changed.response.status, changed.body).toBe(200);
  });
});
