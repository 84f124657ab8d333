import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { LINK_USED_MESSAGE } from "../../../src/auth/provider/account-link-pages.js";
import { CONFIRM_EMAIL_PATH } from "../../../src/auth/provider/account-links.js";
import {
  ACCOUNT_EMAIL_CONFIRMATION_PATH,
  CONFIRMATION_RESENDS_PER_WINDOW,
  CREDENTIALS_MESSAGES,
} from "../../../src/routes/api/account/credentials.js";
import { dialects, escaped, newWalker, signIn, signOut, signUp, TestBrowser } from "../../helper.js";
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
} from "../../support/account-mail.js";

describe.each(dialects)("email confirmation of a built-in account (%s)", (dialect) => {
  let env: AccountServer;
  let origin: string;
  beforeAll(async () => {
    env = await startAccountServer(dialect);
    origin = env.server.origin;
  });
  afterAll(async () => env.close());
  beforeEach(async () => clearThrottles(env.server));

  it("mails a link at sign-up; the app works before it is followed, and says so once it is", async () => {
    const walker = newWalker();
    const browser = new TestBrowser();
    expect((await signUp(browser, origin, walker)).trail.at(-1)).toBe(`${origin}/`);
    const before = await whoIs(browser, origin);
    expect(before.user).toMatchObject({ email: walker.email, emailVerified: false, accountKind: "built-in" });

    const mail = await nthMailTo(env.smtp, walker.email);
    expect(mail.subject).toBe("Confirm your email for Charity Steps");
    expect(mail.html).toContain("Confirm my email");
    const link = linkIn(mail, origin, CONFIRM_EMAIL_PATH);

    // Opening the link (as a mail scanner or a link preview does) changes nothing: it shows a page
    // whose one button confirms.
    const opened = await new TestBrowser().visit(link);
    expect(opened.response.status).toBe(200);
    expect(opened.body).toContain("<h1>Confirm your email</h1>");
    expect(opened.body).toContain(`<button type="submit">Confirm my email</button>`);
    expect(opened.response.headers.get("referrer-policy")).toBe("no-referrer");
    expect((await whoIs(browser, origin)).user?.emailVerified).toBe(false);

    // Followed in another browser (a phone's mail app, say): the signed-in page sees it at once.
    const confirmed = await followConfirmation(new TestBrowser(), link);
    expect(confirmed.response.status).toBe(200);
    expect(confirmed.body).toContain("Email confirmed");
    expect((await whoIs(browser, origin)).user?.emailVerified).toBe(true);

    const again = await followConfirmation(new TestBrowser(), link);
    expect(again.response.status).toBe(400);
    expect(again.body).toContain(escaped(LINK_USED_MESSAGE));

    // The provider's ID token now says email_verified, so a new sign-in keeps it confirmed.
    await signOut(browser, origin);
    await signIn(browser, origin, walker.email, walker.password);
    expect((await whoIs(browser, origin)).user?.emailVerified).toBe(true);
  });

  it("refuses a confirmation link past its 7 days", async () => {
    const walker = newWalker();
    await signUp(new TestBrowser(), origin, walker);
    const link = linkIn(await nthMailTo(env.smtp, walker.email), origin, CONFIRM_EMAIL_PATH);
    await env.server.app.database.db
      .updateTable("account_tokens")
      .set({ expires_at: Date.now() - 1 })
      .where("kind", "=", "email-confirmation")
      .execute();
    const late = await followConfirmation(new TestBrowser(), link);
    expect(late.response.status).toBe(400);
    expect(late.body).toContain(escaped(LINK_USED_MESSAGE));
  });

  it("sends the link again on request, only the newest works, 3 per 15 minutes, and not once confirmed", async () => {
    const walker = newWalker();
    const browser = new TestBrowser();
    await signUp(browser, origin, walker);
    const first = linkIn(await nthMailTo(env.smtp, walker.email), origin, CONFIRM_EMAIL_PATH);

    const resent = await postJson(browser, origin, ACCOUNT_EMAIL_CONFIRMATION_PATH);
    expect(resent.response.status).toBe(202);
    expect(JSON.parse(resent.body)).toEqual({ message: CREDENTIALS_MESSAGES.confirmationSent(walker.email) });
    const second = linkIn(await nthMailTo(env.smtp, walker.email, 2), origin, CONFIRM_EMAIL_PATH);
    expect(second).not.toBe(first);
    expect((await followConfirmation(new TestBrowser(), first)).response.status).toBe(400);

    for (let n = 2; n <= CONFIRMATION_RESENDS_PER_WINDOW; n++) {
      expect((await postJson(browser, origin, ACCOUNT_EMAIL_CONFIRMATION_PATH)).response.status).toBe(202);
    }
    const refused = await postJson(browser, origin, ACCOUNT_EMAIL_CONFIRMATION_PATH);
    expect(refused.response.status).toBe(429);
    expect(refused.response.headers.get("retry-after")).not.toBeNull();
    expect(JSON.parse(refused.body).message).toContain("Please wait");
    await nthMailTo(env.smtp, walker.email, 1 + CONFIRMATION_RESENDS_PER_WINDOW);
    expect(mailsTo(env.smtp, walker.email)).toHaveLength(1 + CONFIRMATION_RESENDS_PER_WINDOW);

    const newest = linkIn(
      await nthMailTo(env.smtp, walker.email, 1 + CONFIRMATION_RESENDS_PER_WINDOW),
      origin,
      CONFIRM_EMAIL_PATH,
    );
    expect((await followConfirmation(new TestBrowser(), newest)).response.status).toBe(200);
    await clearThrottles(env.server);
    const done = await postJson(browser, origin, ACCOUNT_EMAIL_CONFIRMATION_PATH);
    expect(done.response.status).toBe(200);
    expect(JSON.parse(done.body)).toEqual({ message: CREDENTIALS_MESSAGES.alreadyConfirmed });
  });

  it("asks for a session", async () => {
    const answer = await postJson(new TestBrowser(), origin, ACCOUNT_EMAIL_CONFIRMATION_PATH);
    expect(answer.response.status).toBe(401);
  });
});
