import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import {
  LINK_USED_MESSAGE,
  RESET_SENT_MESSAGE,
  tooManyResetsMessage,
} from "../../../src/auth/provider/account-link-pages.js";
import { PASSWORD_RESET_THROTTLE } from "../../../src/auth/provider/account-link-routes.js";
import { FORGOT_PASSWORD_PATH, PASSWORD_RESET_PATH } from "../../../src/auth/provider/account-links.js";
import { WRONG_PASSWORD_MESSAGE } from "../../../src/auth/provider/interactions.js";
import { dialects, escaped, newWalker, signIn, signOut, signUp, TestBrowser } from "../../helper.js";
import {
  type AccountServer,
  clearThrottles,
  linkIn,
  mailsTo,
  nthMailTo,
  startAccountServer,
  whoIs,
} from "../../support/account-mail.js";

describe.each(dialects)("forgotten password (%s)", (dialect) => {
  let env: AccountServer;
  let origin: string;
  beforeAll(async () => {
    env = await startAccountServer(dialect);
    origin = env.server.origin;
  });
  afterAll(async () => env.close());
  beforeEach(async () => clearThrottles(env.server));

  const askForReset = (browser: TestBrowser, email: string) =>
    browser
      .visit(`${origin}${FORGOT_PASSWORD_PATH}`)
      .then((page) => browser.submit(page, FORGOT_PASSWORD_PATH, { email }));

  /** A walker with an account, signed out again; their sign-up mail is already in. */
  async function walkerWithAccount() {
    const walker = newWalker();
    const browser = new TestBrowser();
    await signUp(browser, origin, walker);
    await nthMailTo(env.smtp, walker.email);
    return { walker, browser };
  }

  it("links the form from the sign-in page, and answers a known and an unknown email with the same page", async () => {
    const browser = new TestBrowser();
    const signInPage = await browser.visit(`${origin}/api/login`);
    expect(signInPage.body).toContain(`href="${FORGOT_PASSWORD_PATH}">Forgot your password?</a>`);
    const form = await browser.visit(`${origin}${FORGOT_PASSWORD_PATH}`);
    expect(form.response.status).toBe(200);
    expect(form.body).toContain("<h1>Forgot your password?</h1>");

    const { walker } = await walkerWithAccount();
    const unknown = `nobody.${Date.now()}@example.org`;
    const forUnknown = await askForReset(new TestBrowser(), unknown);
    const forKnown = await askForReset(new TestBrowser(), walker.email);
    expect(forKnown.response.status).toBe(200);
    expect(forUnknown.response.status).toBe(200);
    expect(forKnown.body).toBe(forUnknown.body);
    expect(forKnown.body).toContain(escaped(RESET_SENT_MESSAGE));

    // The known email gets its link; the unknown one (asked first) got nothing.
    const mail = await nthMailTo(env.smtp, walker.email, 2);
    expect(mail.subject).toBe("Choose a new Charity Steps password");
    expect(linkIn(mail, origin, PASSWORD_RESET_PATH)).toMatch(/\/auth\/password-reset\/[A-Za-z0-9_-]{43}$/);
    expect(mailsTo(env.smtp, unknown)).toHaveLength(0);
  });

  it("answers a known and an unknown email in the same time: the mail is looked up after the answer", async () => {
    const { walker } = await walkerWithAccount();
    const timed = async (email: string) => {
      const started = performance.now();
      const answer = await askForReset(new TestBrowser(), email);
      expect(answer.response.status).toBe(200);
      return performance.now() - started;
    };
    const known: number[] = [];
    const unknown: number[] = [];
    const rounds = 7;
    for (let round = 0; round < rounds; round++) {
      // Counts cleared, so that only the answers' timing is compared (no 429 among them).
      await clearThrottles(env.server);
      unknown.push(await timed(`nobody.${round}.${Date.now()}@example.org`));
      known.push(await timed(walker.email));
    }
    const median = (values: number[]) =>
      [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)] ?? 0;
    // Neither path hashes or sends anything before answering: they differ by noise only.
    expect(Math.abs(median(known) - median(unknown))).toBeLessThan(100);
    await nthMailTo(env.smtp, walker.email, 1 + rounds);
  });

  it("sets the new password with the mailed link, ends every session, signs the walker in, and works once", async () => {
    const { walker, browser: first } = await walkerWithAccount();
    // A second device, signed in with the old password.
    const second = new TestBrowser();
    expect((await signIn(second, origin, walker.email, walker.password)).trail.at(-1)).toBe(`${origin}/`);
    expect((await whoIs(first, origin)).status).toBe(200);
    expect((await whoIs(second, origin)).status).toBe(200);
    const providerSessions = () =>
      env.server.app.database.db
        .selectFrom("oidc_payloads")
        .select("payload")
        .where("model", "=", "Session")
        .execute()
        .then((rows) => rows.filter((row) => row.payload.includes(`"accountId":"`)));
    const accountId = (await env.server.app.repositories.localAccounts.findByEmail(walker.email))?.id ?? "";
    const ofAccount = async () => (await providerSessions()).filter((row) => row.payload.includes(accountId));
    expect((await ofAccount()).length).toBeGreaterThanOrEqual(2);

    const resetter = new TestBrowser();
    await askForReset(resetter, walker.email);
    const link = linkIn(await nthMailTo(env.smtp, walker.email, 2), origin, PASSWORD_RESET_PATH);

    const page = await resetter.visit(link);
    expect(page.response.status).toBe(200);
    expect(page.body).toContain("<h1>Choose a new password</h1>");
    expect(page.response.headers.get("referrer-policy")).toBe("no-referrer");

    // The sign-up rules hold: a common password is refused, and the link still works after.
    const weak = await resetter.submit(page, PASSWORD_RESET_PATH, { password: "password123" });
    expect(weak.response.status).toBe(400);
    expect(weak.body).toContain("too easy to guess");

    const newPassword = "a-brand-new-walking-phrase";
    const landed = await resetter.submit(page, PASSWORD_RESET_PATH, { password: newPassword });
    expect(landed.trail).toContain(`${origin}/api/login`);
    expect(landed.trail.some((url) => url.startsWith(`${origin}/api/callback`))).toBe(true);
    expect(landed.trail.at(-1)).toBe(`${origin}/`);
    const me = await whoIs(resetter, origin);
    expect(me.status).toBe(200);
    expect(me.user?.email).toBe(walker.email);
    // The reset link reached the walker's mailbox: their email counts as confirmed.
    expect(me.user?.emailVerified).toBe(true);

    // Every session that was open before is over, in the app and at the provider.
    expect((await whoIs(first, origin)).status).toBe(401);
    expect((await whoIs(second, origin)).status).toBe(401);
    expect(await ofAccount()).toHaveLength(1);

    // The link works once.
    const again = await new TestBrowser().visit(link);
    expect(again.response.status).toBe(400);
    expect(again.body).toContain(escaped(LINK_USED_MESSAGE));
    const postAgain = await new TestBrowser().submit(page, PASSWORD_RESET_PATH, {
      password: "yet-another-walking-phrase",
    });
    expect(postAgain.response.status).toBe(400);
    expect(postAgain.body).toContain(escaped(LINK_USED_MESSAGE));

    // The new password signs in; the old one does not.
    await signOut(resetter, origin);
    const withOld = await signIn(new TestBrowser(), origin, walker.email, walker.password);
    expect(withOld.response.status).toBe(401);
    expect(withOld.body).toContain(escaped(WRONG_PASSWORD_MESSAGE));
    const withNew = await signIn(new TestBrowser(), origin, walker.email, newPassword);
    expect(withNew.trail.at(-1)).toBe(`${origin}/`);
  });

  it("signs in the account whose link it was, even in a browser signed in as someone else", async () => {
    const { walker } = await walkerWithAccount();
    const { walker: other } = await walkerWithAccount();
    const shared = new TestBrowser();
    await signIn(shared, origin, other.email, other.password);
    expect((await whoIs(shared, origin)).user?.email).toBe(other.email);

    await askForReset(shared, walker.email);
    const link = linkIn(await nthMailTo(env.smtp, walker.email, 2), origin, PASSWORD_RESET_PATH);
    const page = await shared.visit(link);
    const landed = await shared.submit(page, PASSWORD_RESET_PATH, {
      password: "a-brand-new-walking-phrase",
    });
    expect(landed.trail.at(-1)).toBe(`${origin}/`);
    expect((await whoIs(shared, origin)).user?.email).toBe(walker.email);
  });

  it("refuses a link an hour old", async () => {
    const { walker } = await walkerWithAccount();
    await askForReset(new TestBrowser(), walker.email);
    const link = linkIn(await nthMailTo(env.smtp, walker.email, 2), origin, PASSWORD_RESET_PATH);
    expect((await new TestBrowser().visit(link)).response.status).toBe(200);

    // An hour later: the row's expiry moved back instead of waiting.
    await env.server.app.database.db
      .updateTable("account_tokens")
      .set({ expires_at: Date.now() - 1 })
      .where("kind", "=", "password-reset")
      .execute();
    const late = await new TestBrowser().visit(link);
    expect(late.response.status).toBe(400);
    expect(late.body).toContain(escaped(LINK_USED_MESSAGE));
    expect(late.body).toContain(`href="${FORGOT_PASSWORD_PATH}"`);
  });

  it("stores only the token's hash", async () => {
    const { walker } = await walkerWithAccount();
    await askForReset(new TestBrowser(), walker.email);
    const link = linkIn(await nthMailTo(env.smtp, walker.email, 2), origin, PASSWORD_RESET_PATH);
    const token = link.split("/").at(-1) ?? "";
    const rows = await env.server.app.database.db.selectFrom("account_tokens").selectAll().execute();
    expect(rows.length).toBeGreaterThan(0);
    for (const row of rows) expect(JSON.stringify(row)).not.toContain(token);
  });

  it("answers 429 past 3 requests for one email, and past 10 from one address", async () => {
    const { walker } = await walkerWithAccount();
    for (let n = 1; n <= PASSWORD_RESET_THROTTLE.perEmail; n++) {
      expect((await askForReset(new TestBrowser(), walker.email)).response.status, `request ${n}`).toBe(200);
    }
    const refused = await askForReset(new TestBrowser(), walker.email);
    expect(refused.response.status).toBe(429);
    expect(Number(refused.response.headers.get("retry-after"))).toBeGreaterThan(14 * 60);
    expect(refused.body).toContain(escaped(tooManyResetsMessage(15)));
    // Only the allowed requests were mailed.
    await nthMailTo(env.smtp, walker.email, 1 + PASSWORD_RESET_THROTTLE.perEmail);
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(mailsTo(env.smtp, walker.email)).toHaveLength(1 + PASSWORD_RESET_THROTTLE.perEmail);

    await clearThrottles(env.server);
    for (let n = 1; n <= PASSWORD_RESET_THROTTLE.perAddress; n++) {
      const answer = await askForReset(new TestBrowser(), `someone.${n}@example.org`);
      expect(answer.response.status, `request ${n}`).toBe(200);
    }
    const fromAddress = await askForReset(new TestBrowser(), "someone.else@example.org");
    expect(fromAddress.response.status).toBe(429);
  });

  it("asks again for an email that is not one", async () => {
    const answer = await askForReset(new TestBrowser(), "not an email");
    expect(answer.response.status).toBe(400);
    expect(answer.body).toContain("Enter the email address of your account");
  });
});
