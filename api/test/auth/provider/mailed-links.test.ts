import { randomBytes } from "node:crypto";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { LINK_USED_MESSAGE } from "../../../src/auth/provider/account-link-pages.js";
import { CONFIRM_EMAIL_PATH, PASSWORD_RESET_PATH } from "../../../src/auth/provider/account-links.js";
import { CROSS_SITE_MESSAGE } from "../../../src/plugins/csrf.js";
import { ACCOUNT_EMAIL_PATH } from "../../../src/routes/api/account/credentials.js";
import { dialects, escaped, newWalker, signIn, signUp, TestBrowser } from "../../helper.js";
import {
  type AccountServer,
  askForReset,
  clearThrottles,
  followConfirmation,
  linkIn,
  mailsTo,
  NEW_PASSWORD_BY,
  nthMailTo,
  postJson,
  startAccountServer,
  walkerWithAccount,
  whoIs,
} from "../../support/account-mail.js";

const OPERATOR = "ops.desk@example.org";

describe.each(dialects)("mailed links after a change of password or email (%s)", (dialect) => {
  let env: AccountServer;
  let origin: string;
  beforeAll(async () => {
    env = await startAccountServer(dialect, { OPERATOR_EMAILS: OPERATOR });
    origin = env.server.origin;
  });
  afterAll(async () => env.close());
  beforeEach(async () => clearThrottles(env.server));

  /** Someone who knows the password asks, from their own browser, to move the account to `to`. */
  async function askToMove(walker: { email: string; password: string }, to: string) {
    const attacker = new TestBrowser();
    await signIn(attacker, origin, walker.email, walker.password);
    const asked = await postJson(attacker, origin, ACCOUNT_EMAIL_PATH, {
      newEmail: to,
      currentPassword: walker.password,
    });
    expect(asked.response.status).toBe(202);
    return linkIn(await nthMailTo(env.smtp, to), origin, CONFIRM_EMAIL_PATH);
  }

  it.each(Object.keys(NEW_PASSWORD_BY) as (keyof typeof NEW_PASSWORD_BY)[])(
    "a change of email asked for with the old password stops working once the owner %s",
    async (change) => {
      const { walker, owner } = await walkerWithAccount(env);
      const attackerEmail = `attacker.${walker.email}`;
      const link = await askToMove(walker, attackerEmail);

      await NEW_PASSWORD_BY[change](env, owner, walker);

      const followed = await followConfirmation(new TestBrowser(), link);
      expect(followed.response.status).toBe(400);
      expect(followed.body).toContain(escaped(LINK_USED_MESSAGE));
      const accounts = env.server.app.repositories.localAccounts;
      expect((await accounts.findByEmail(walker.email))?.email).toBe(walker.email);
      expect(await accounts.findByEmail(attackerEmail)).toBeUndefined();
      // So "Forgot your password?" for the attacker's address hands them nothing.
      await askForReset(origin, attackerEmail);
      await askForReset(origin, walker.email);
      await nthMailTo(env.smtp, walker.email, change === "resets the password" ? 3 : 2);
      expect(mailsTo(env.smtp, attackerEmail)).toHaveLength(1);
    },
  );

  it("a confirmation link and a reset link mailed before a change of password stop working", async () => {
    const { walker, owner } = await walkerWithAccount(env);
    const confirmLink = linkIn(await nthMailTo(env.smtp, walker.email, 1), origin, CONFIRM_EMAIL_PATH);
    await askForReset(origin, walker.email);
    const resetLink = linkIn(await nthMailTo(env.smtp, walker.email, 2), origin, PASSWORD_RESET_PATH);

    await NEW_PASSWORD_BY["changes the password"](env, owner, walker);

    const reset = await new TestBrowser().visit(resetLink);
    expect(reset.response.status).toBe(400);
    expect(reset.body).toContain(escaped(LINK_USED_MESSAGE));
    const confirmed = await followConfirmation(new TestBrowser(), confirmLink);
    expect(confirmed.response.status).toBe(400);
    expect(confirmed.body).toContain(escaped(LINK_USED_MESSAGE));
    expect((await env.server.app.repositories.localAccounts.findByEmail(walker.email))?.email).toBe(
      walker.email,
    );
  });

  it("a reset link mailed to the old address stops working once the email has changed", async () => {
    const { walker, owner } = await walkerWithAccount(env);
    await askForReset(origin, walker.email);
    const resetLink = linkIn(await nthMailTo(env.smtp, walker.email, 2), origin, PASSWORD_RESET_PATH);

    const newEmail = `moved.${walker.email}`;
    await postJson(owner, origin, ACCOUNT_EMAIL_PATH, { newEmail, currentPassword: walker.password });
    const moveLink = linkIn(await nthMailTo(env.smtp, newEmail), origin, CONFIRM_EMAIL_PATH);
    expect((await followConfirmation(new TestBrowser(), moveLink)).response.status).toBe(200);

    const opened = await new TestBrowser().visit(resetLink);
    expect(opened.response.status).toBe(400);
    expect(opened.body).toContain(escaped(LINK_USED_MESSAGE));
    // Nor does a form opened before the change, posted after it.
    const early = new TestBrowser();
    await askForReset(origin, newEmail);
    const newLink = linkIn(await nthMailTo(env.smtp, newEmail, 2), origin, PASSWORD_RESET_PATH);
    const page = await early.visit(newLink);
    await postJson(owner, origin, ACCOUNT_EMAIL_PATH, {
      newEmail: `again.${walker.email}`,
      currentPassword: walker.password,
    });
    const again = linkIn(await nthMailTo(env.smtp, `again.${walker.email}`), origin, CONFIRM_EMAIL_PATH);
    expect((await followConfirmation(new TestBrowser(), again)).response.status).toBe(200);
    const posted = await early.submit(page, PASSWORD_RESET_PATH, { password: "an-attackers-own-phrase" });
    expect(posted.response.status).toBe(400);
    expect(posted.body).toContain(escaped(LINK_USED_MESSAGE));
    const withOld = await signIn(new TestBrowser(), origin, `again.${walker.email}`, walker.password);
    expect(withOld.trail.at(-1)).toBe(`${origin}/`);
  });

  describe("opening a link (a mail scanner, a link preview) changes nothing", () => {
    it("a change of email, opened with no cookie, shows one button and moves nothing", async () => {
      const { walker, owner } = await walkerWithAccount(env);
      const newEmail = `scanned.${walker.email}`;
      await postJson(owner, origin, ACCOUNT_EMAIL_PATH, { newEmail, currentPassword: walker.password });
      const link = linkIn(await nthMailTo(env.smtp, newEmail), origin, CONFIRM_EMAIL_PATH);

      for (let look = 0; look < 3; look++) {
        const opened = await fetch(link);
        expect(opened.status).toBe(200);
        const body = await opened.text();
        expect(body).toContain(`<form method="post" action="${CONFIRM_EMAIL_PATH}">`);
        expect(body).toContain(`<button type="submit">Use this email</button>`);
        expect(await fetch(link, { method: "HEAD" }).then((answer) => answer.status)).toBe(200);
      }
      expect((await whoIs(owner, origin)).user?.email).toBe(walker.email);

      // Another site cannot press the button for the walker.
      const token = link.split("/").at(-1) ?? "";
      const crossSite = await fetch(`${origin}${CONFIRM_EMAIL_PATH}`, {
        method: "POST",
        headers: { "content-type": "application/x-www-form-urlencoded", "sec-fetch-site": "cross-site" },
        body: new URLSearchParams({ token }).toString(),
      });
      expect(crossSite.status).toBe(403);
      expect(await crossSite.text()).toContain(CROSS_SITE_MESSAGE);
      expect((await whoIs(owner, origin)).user?.email).toBe(walker.email);

      // The token only ever travels in the form's body: in the path, a POST finds no page.
      const inPath = await fetch(link, {
        method: "POST",
        headers: { "content-type": "application/x-www-form-urlencoded", "sec-fetch-site": "same-origin" },
        body: "",
      });
      expect(inPath.status).toBe(404);

      expect((await followConfirmation(new TestBrowser(), link)).response.status).toBe(200);
      expect((await whoIs(owner, origin)).user?.email).toBe(newEmail);
    });

    it("a confirmation or a reset link, opened, confirms and resets nothing", async () => {
      const { walker, owner } = await walkerWithAccount(env);
      const confirmLink = linkIn(await nthMailTo(env.smtp, walker.email), origin, CONFIRM_EMAIL_PATH);
      expect((await fetch(confirmLink)).status).toBe(200);
      expect((await whoIs(owner, origin)).user?.emailVerified).toBe(false);

      await askForReset(origin, walker.email);
      const resetLink = linkIn(await nthMailTo(env.smtp, walker.email, 2), origin, PASSWORD_RESET_PATH);
      const opened = await fetch(resetLink);
      expect(opened.status).toBe(200);
      expect(await opened.text()).toContain(
        `<form method="post" action="${PASSWORD_RESET_PATH}" novalidate>`,
      );
      expect((await whoIs(owner, origin)).status).toBe(200);
      expect((await signIn(new TestBrowser(), origin, walker.email, walker.password)).trail.at(-1)).toBe(
        `${origin}/`,
      );
    });

    it("a form posted with no token, or a made-up one, answers that the link no longer works", async () => {
      for (const path of [CONFIRM_EMAIL_PATH, PASSWORD_RESET_PATH]) {
        for (const body of ["", "token=made-up-token&password=a-long-walking-phrase", "token=%0A"]) {
          const answer = await fetch(`${origin}${path}`, {
            method: "POST",
            headers: { "content-type": "application/x-www-form-urlencoded", "sec-fetch-site": "same-origin" },
            body,
          });
          expect(answer.status, `${path} ${body}`).toBe(400);
          expect(await answer.text()).toContain(escaped(LINK_USED_MESSAGE));
        }
      }
    });
  });

  it("moving an account to an operator's address does not make an operator", async () => {
    const { walker, owner } = await walkerWithAccount(env);
    await postJson(owner, origin, ACCOUNT_EMAIL_PATH, {
      newEmail: OPERATOR,
      currentPassword: walker.password,
    });
    const link = linkIn(await nthMailTo(env.smtp, OPERATOR), origin, CONFIRM_EMAIL_PATH);
    expect((await followConfirmation(new TestBrowser(), link)).response.status).toBe(200);

    const me = await whoIs(owner, origin);
    expect(me.user).toMatchObject({ email: OPERATOR, emailVerified: true, isOperator: false });
    expect((await owner.visit(`${origin}/api/operator/reviews`)).response.status).toBe(404);
    // Signing in again (the provider vouches for the new address) changes nothing.
    const again = new TestBrowser();
    await signIn(again, origin, OPERATOR, walker.password);
    expect((await whoIs(again, origin)).user).toMatchObject({ email: OPERATOR, isOperator: false });
  });

  it("the operator's own account, signed up with the address and confirmed from it, is an operator", async () => {
    const operator = newWalker({ email: `desk.${randomBytes(4).toString("hex")}@example.org` });
    const server = await startAccountServer(dialect, { OPERATOR_EMAILS: operator.email });
    try {
      const browser = new TestBrowser();
      await signUp(browser, server.server.origin, operator);
      const link = linkIn(
        await nthMailTo(server.smtp, operator.email),
        server.server.origin,
        CONFIRM_EMAIL_PATH,
      );
      expect((await whoIs(browser, server.server.origin)).user?.isOperator).toBe(false);
      expect((await followConfirmation(new TestBrowser(), link)).response.status).toBe(200);
      expect((await whoIs(browser, server.server.origin)).user?.isOperator).toBe(true);
    } finally {
      await server.close();
    }
  });
});
