import { isEmailAddress, SingleLineText } from "@charity-steps/shared-types";
import type { TypeBoxTypeProvider } from "@fastify/type-provider-typebox";
import type { FastifyInstance, FastifyReply, FastifyRequest } from "fastify";
import { Type } from "typebox";
import { isHttps } from "../../config.js";
import type { AccountTokensRepository } from "../../repositories/account-tokens.js";
import { passwordWeakness } from "../passwords.js";
import {
  confirmEmailPage,
  ENTER_EMAIL_MESSAGE,
  forgotPasswordPage,
  linkUsedPage,
  newPasswordPage,
  resetSentPage,
  tooManyResetsMessage,
} from "./account-link-pages.js";
import {
  type AccountLinks,
  CONFIRM_EMAIL_PATH,
  FORGOT_PASSWORD_PATH,
  PASSWORD_RESET_PATH,
  RESET_SIGN_IN_TTL_MS,
} from "./account-links.js";
import type { DeviceCookies } from "./device-cookies.js";
import { messagePage } from "./pages.js";
import { networkOf } from "./throttle.js";

export const RESET_SIGN_IN_COOKIE = "cs_reset_sign_in";
const RESET_SIGN_IN_COOKIE_PATH = "/auth/interaction";
/** oidc-provider's own cookie naming the walker's session at the provider (its default name). */
const PROVIDER_SESSION_COOKIE = "_session";

/**
 * Reset links asked for, per 15 minutes (the sign-in throttle's window and table, under keys of
 * their own): 3 for one email, 10 from one network address. Past that the form answers 429.
 */
export const PASSWORD_RESET_THROTTLE = { perEmail: 3, perAddress: 10 } as const;

const html = (reply: FastifyReply, status: number, page: string) =>
  reply
    .status(status)
    .type("text/html; charset=utf-8")
    .header("cache-control", "no-store")
    // The token is in the page's URL: no other site is told it.
    .header("referrer-policy", "no-referrer")
    .send(page);

const Token = SingleLineText({ minLength: 1, maxLength: 200 });
const TokenParams = Type.Object({ token: Token });
const TokenBody = Type.Object({ token: Type.Optional(Token) });
const ForgotBody = Type.Object({ email: Type.Optional(SingleLineText({ maxLength: 1000 })) });
const NewPasswordBody = Type.Object({
  token: Type.Optional(Token),
  password: Type.Optional(Type.String({ maxLength: 1000 })),
});

/**
 * The pages mailed links open: the forgotten-password form, the new-password page, and email
 * confirmation. Opening a link (GET, which mail scanners and link previews do) only shows a page;
 * its form's POST, CSRF-checked like every POST, with the token in the body, acts. Registered beside
 * the sign-in pages (form bodies are parsed there).
 */
export async function accountLinkRoutes(
  app: FastifyInstance,
  options: { links: AccountLinks; devices: DeviceCookies },
) {
  const { links, devices } = options;
  const { localAccounts, signInThrottle, oidcPayloads } = app.repositories;
  const pages = app.withTypeProvider<TypeBoxTypeProvider>();
  const secure = isHttps(app.config);

  // Reset mail is looked up and queued after the answer, so that an email with an account is not
  // answered later than one without. Pending work is finished before the app closes.
  const pending = new Set<Promise<void>>();
  app.addHook("onClose", async () => {
    await Promise.allSettled(pending);
  });

  pages.get(FORGOT_PASSWORD_PATH, async (_request, reply) => html(reply, 200, forgotPasswordPage()));

  pages.post(
    FORGOT_PASSWORD_PATH,
    { schema: { body: ForgotBody }, attachValidation: true },
    async (request, reply) => {
      if (request.validationError) return html(reply, 400, forgotPasswordPage({}, ENTER_EMAIL_MESSAGE));
      const email = (request.body.email ?? "").trim().toLowerCase();
      if (!isEmailAddress(email)) {
        return html(reply, 400, forgotPasswordPage({ email }, ENTER_EMAIL_MESSAGE));
      }
      // A browser that has signed in to this account before asks under its own name: requests for
      // the email from elsewhere, however many, never stop its owner asking.
      const device = devices.trustedFor(request, email);
      const wait = await signInThrottle.attempt(
        device
          ? [{ key: `reset-device:${device}`, limit: PASSWORD_RESET_THROTTLE.perEmail }]
          : [
              { key: `reset-email:${email}`, limit: PASSWORD_RESET_THROTTLE.perEmail },
              { key: `reset-ip:${networkOf(request.ip)}`, limit: PASSWORD_RESET_THROTTLE.perAddress },
            ],
      );
      if (wait > 0) {
        reply.header("retry-after", String(Math.max(1, Math.ceil(wait / 1000))));
        const minutes = Math.max(1, Math.ceil(wait / 60_000));
        return html(reply, 429, forgotPasswordPage({ email }, tooManyResetsMessage(minutes)));
      }
      const work = links
        .sendPasswordReset(email)
        .catch((error) => request.log.error({ err: error }, "password reset mail failed"))
        .finally(() => pending.delete(work));
      pending.add(work);
      return html(reply, 200, resetSentPage());
    },
  );

  const askAgain = { href: FORGOT_PASSWORD_PATH, label: "Ask for a new link" };

  pages.get(`${PASSWORD_RESET_PATH}/:token`, { schema: { params: TokenParams } }, async (request, reply) => {
    const row = await links.tokens.peek(["password-reset"], request.params.token);
    if (!row) return html(reply, 400, linkUsedPage(askAgain));
    return html(reply, 200, newPasswordPage(request.params.token, row.email));
  });

  pages.post(
    PASSWORD_RESET_PATH,
    { schema: { body: NewPasswordBody }, attachValidation: true },
    async (request, reply) => {
      const token = request.validationError ? "" : (request.body.token ?? "");
      const row = token ? await links.tokens.peek(["password-reset"], token) : undefined;
      const account = row && (await localAccounts.findById(row.account_id));
      if (!row || !account) return html(reply, 400, linkUsedPage(askAgain));
      const password = request.validationError ? "" : (request.body.password ?? "");
      const problem = password
        ? await passwordWeakness(password, account.email, [account.first_name, account.last_name])
        : "Enter a new password.";
      if (problem) return html(reply, 400, newPasswordPage(token, account.email, problem));
      // Used only now, in one statement: of two submissions racing with one link, one wins.
      if (!(await links.tokens.use(["password-reset"], token)))
        return html(reply, 400, linkUsedPage(askAgain));
      await links.setPassword(account, password);
      // The link reached the account's mailbox: that confirms its email as well.
      await localAccounts.markEmailVerified(account.id, row.email);
      // A provider session this browser still holds (another account's, say) would answer the
      // sign-in below without asking: it ends, so that the ticket is what signs this browser in.
      const providerSession = request.cookies[PROVIDER_SESSION_COOKIE];
      if (providerSession) await oidcPayloads.destroy("Session", providerSession);
      const ticket = await links.tokens.issue(
        "reset-sign-in",
        account.id,
        account.email,
        RESET_SIGN_IN_TTL_MS,
      );
      reply.setCookie(RESET_SIGN_IN_COOKIE, ticket, {
        path: RESET_SIGN_IN_COOKIE_PATH,
        httpOnly: true,
        sameSite: "lax",
        secure,
        maxAge: RESET_SIGN_IN_TTL_MS / 1000,
      });
      // The app's own sign-in: the provider, finding no session, opens a sign-in page that the
      // ticket completes for this account.
      return reply.redirect("/api/login", 303);
    },
  );

  const toAccount = { href: "/account", label: "Go to your account" };

  pages.get(`${CONFIRM_EMAIL_PATH}/:token`, { schema: { params: TokenParams } }, async (request, reply) => {
    const { token } = request.params;
    const row = await links.tokens.peek(["email-confirmation", "email-change"], token);
    if (!row) return html(reply, 400, linkUsedPage(toAccount));
    return html(reply, 200, confirmEmailPage(token, row.kind, row.email));
  });

  pages.post(
    CONFIRM_EMAIL_PATH,
    { schema: { body: TokenBody }, attachValidation: true },
    async (request, reply) => {
      const token = request.validationError ? "" : (request.body.token ?? "");
      const result = token ? await links.confirm(token) : ({ outcome: "invalid" } as const);
      if (result.outcome === "invalid") return html(reply, 400, linkUsedPage(toAccount));
      if (result.outcome === "taken") {
        return html(
          reply,
          409,
          messagePage(
            "Email already in use",
            "Another account now uses this email, so your account keeps its current one.",
            toAccount,
          ),
        );
      }
      const sentence =
        result.outcome === "confirmed"
          ? `Thank you: ${result.email} is confirmed.`
          : `Your account now uses ${result.email}. Sign in with it from now on.`;
      return html(reply, 200, messagePage("Email confirmed", sentence, toAccount));
    },
  );
}

/**
 * The account a reset's sign-in ticket (set when the new password was saved) signs this browser in
 * as, or null. The ticket is used up whatever the answer.
 */
export async function takeResetSignIn(
  tokens: AccountTokensRepository,
  request: FastifyRequest,
  reply: FastifyReply,
): Promise<{ id: string; email: string } | null> {
  const ticket = request.cookies[RESET_SIGN_IN_COOKIE];
  if (!ticket) return null;
  reply.clearCookie(RESET_SIGN_IN_COOKIE, { path: RESET_SIGN_IN_COOKIE_PATH });
  const row = await tokens.use(["reset-sign-in"], ticket);
  return row ? { id: row.account_id, email: row.email } : null;
}
