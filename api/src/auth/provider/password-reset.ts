import { SingleLineText } from "@charity-steps/shared-types";
import type { TypeBoxTypeProvider } from "@fastify/type-provider-typebox";
import type { FastifyInstance, FastifyReply, FastifyRequest } from "fastify";
import { Type } from "typebox";
import { isHttps } from "../../config.js";
import { ConflictError } from "../../errors.js";
import { type MailMessage, mailLayout } from "../../mail/mail.js";
import { AccountTokensRepository } from "../../repositories/account-tokens.js";
import type { LocalAccount } from "../../repositories/local-accounts.js";
import { hashPassword, passwordWeakness } from "../passwords.js";
import { errorBox, escapeHtml, field, layout, messagePage } from "./pages.js";
import { networkOf } from "./throttle.js";

/** A reset link opens the new-password page for an hour. */
export const PASSWORD_RESET_TTL_MS = 60 * 60_000;
/** A confirmation link (of the sign-up email, or of a new email) works for a week. */
export const EMAIL_CONFIRMATION_TTL_MS = 7 * 86_400_000;
/** After a reset, the walker's browser has this long to finish signing in without the password. */
const RESET_SIGN_IN_TTL_MS = 10 * 60_000;
const HOUSEKEEPING_INTERVAL_MS = 60 * 60_000;
export const RESET_SIGN_IN_COOKIE = "cs_reset_sign_in";
const RESET_SIGN_IN_COOKIE_PATH = "/auth/interaction";
/** oidc-provider's own cookie naming the walker's session at the provider (its default name). */
const PROVIDER_SESSION_COOKIE = "_session";

/**
 * Reset links asked for, per 15 minutes (the sign-in throttle's window and table, under keys of
 * their own): 3 for one email, 10 from one network address. Past that the form answers 429.
 */
export const PASSWORD_RESET_THROTTLE = { perEmail: 3, perAddress: 10 } as const;

export const FORGOT_PASSWORD_PATH = "/auth/forgot-password";
export const PASSWORD_RESET_PATH = "/auth/password-reset";
export const CONFIRM_EMAIL_PATH = "/auth/confirm-email";

export const RESET_SENT_MESSAGE =
  "If an account uses this email, we've sent a link to choose a new password. It works for one hour. Check your inbox (and your spam folder).";
export const LINK_USED_MESSAGE = "This link has been used or has expired: ask for a new one.";
export const tooManyResetsMessage = (minutes: number) =>
  `Too many password reset requests. Please wait ${minutes} minute${minutes === 1 ? "" : "s"} and try again.`;
const ENTER_EMAIL_MESSAGE = "Enter the email address of your account, like name@example.com.";
const EMAIL_PATTERN = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

const html = (reply: FastifyReply, status: number, page: string) =>
  reply
    .status(status)
    .type("text/html; charset=utf-8")
    .header("cache-control", "no-store")
    // The token is in the page's URL: no other site is told it.
    .header("referrer-policy", "no-referrer")
    .send(page);

/** The built-in provider's issuer when the app runs it (an external issuer has no accounts here). */
export function builtInIssuerOf(config: FastifyInstance["config"]): string | null {
  return config.oidc.kind === "built-in" ? `${config.publicUrl}/oidc` : null;
}

/**
 * The mailed links of built-in accounts: a password reset, the confirmation of the sign-up email,
 * and of a new email. Used by the provider's pages (which follow the links) and by the app's
 * account routes (which ask for them).
 */
export class AccountLinks {
  readonly tokens: AccountTokensRepository;

  constructor(
    private readonly app: FastifyInstance,
    readonly issuer: string,
  ) {
    this.tokens = new AccountTokensRepository(app.database.db, app.database.dialect);
  }

  private url(path: string): string {
    return `${this.app.config.publicUrl}${path}`;
  }

  private send(message: MailMessage): Promise<void> {
    return this.app.mail.send(message);
  }

  /** The app's walker for this account, when they have signed in (their mail goes with them). */
  private async userIdOf(accountId: string): Promise<string | null> {
    const row = await this.app.database.db
      .selectFrom("users")
      .select("id")
      .where("issuer", "=", this.issuer)
      .where("subject", "=", accountId)
      .executeTakeFirst();
    return row?.id ?? null;
  }

  /** Mails a reset link when `email` names an account; does nothing (and says nothing) otherwise. */
  async sendPasswordReset(email: string): Promise<void> {
    const account = await this.app.repositories.localAccounts.findByEmail(email);
    if (!account) return;
    const token = await this.tokens.issue("password-reset", account.id, account.email, PASSWORD_RESET_TTL_MS);
    const link = this.url(`${PASSWORD_RESET_PATH}/${token}`);
    await this.send({
      to: account.email,
      subject: "Choose a new Charity Steps password",
      ...mailLayout({
        greeting: `Hello ${account.first_name},`,
        paragraphs: [
          "Someone (we hope you) asked to reset the password of your Charity Steps account.",
          "The link below works once, for one hour. If you did not ask, ignore this mail: your password stays as it is.",
        ],
        action: { label: "Choose a new password", url: link },
      }),
      link,
      userId: await this.userIdOf(account.id),
    });
  }

  /** Mails a link confirming the account's email; earlier links of the kind stop working. */
  async sendEmailConfirmation(account: LocalAccount): Promise<void> {
    await this.tokens.withdraw(account.id, ["email-confirmation"]);
    const token = await this.tokens.issue(
      "email-confirmation",
      account.id,
      account.email,
      EMAIL_CONFIRMATION_TTL_MS,
    );
    const link = this.url(`${CONFIRM_EMAIL_PATH}/${token}`);
    await this.send({
      to: account.email,
      subject: "Confirm your email for Charity Steps",
      ...mailLayout({
        greeting: `Hello ${account.first_name},`,
        paragraphs: [
          "Welcome to Charity Steps! Please confirm that this is your email address, so that you can always get back into your account.",
          "The link works for 7 days. You can use the app in the meantime.",
        ],
        action: { label: "Confirm my email", url: link },
      }),
      link,
      userId: await this.userIdOf(account.id),
    });
  }

  /**
   * Mails the new address a link that moves the account to it, or, when another account already
   * uses it, a mail saying so (the walker asking is told the same either way).
   */
  async sendEmailChange(account: LocalAccount, newEmail: string): Promise<void> {
    const userId = await this.userIdOf(account.id);
    if (await this.app.repositories.localAccounts.findByEmail(newEmail)) {
      await this.send({
        to: newEmail,
        subject: "This email already has a Charity Steps account",
        ...mailLayout({
          greeting: "Hello,",
          paragraphs: [
            "Someone asked to move their Charity Steps account to this email address, but another account already uses it, so nothing has changed.",
            "If that account is yours, you can sign in to it, or reset its password from the sign-in page.",
          ],
        }),
        userId,
      });
      return;
    }
    await this.tokens.withdraw(account.id, ["email-change"]);
    const token = await this.tokens.issue("email-change", account.id, newEmail, EMAIL_CONFIRMATION_TTL_MS);
    const link = this.url(`${CONFIRM_EMAIL_PATH}/${token}`);
    await this.send({
      to: newEmail,
      subject: "Confirm your new email for Charity Steps",
      ...mailLayout({
        greeting: `Hello ${account.first_name},`,
        paragraphs: [
          "You asked to use this address for your Charity Steps account. Your email changes once you follow the link below.",
          "The link works for 7 days. If you did not ask, ignore this mail: nothing changes.",
        ],
        action: { label: "Use this email", url: link },
      }),
      link,
      userId,
    });
  }

  /** Follows a confirmation link: what it did, for the page to say. */
  async confirm(
    token: string,
  ): Promise<
    | { outcome: "confirmed"; email: string }
    | { outcome: "changed"; email: string }
    | { outcome: "taken" }
    | { outcome: "invalid" }
  > {
    const row = await this.tokens.use(["email-confirmation", "email-change"], token);
    if (!row) return { outcome: "invalid" };
    const { localAccounts, users } = this.app.repositories;
    const account = await localAccounts.findById(row.account_id);
    if (!account) return { outcome: "invalid" };
    if (row.kind === "email-confirmation") {
      // A link to an address the account has since left confirms nothing.
      if (!(await localAccounts.markEmailVerified(account.id, row.email))) return { outcome: "invalid" };
      await users.setConfirmedEmail(this.issuer, account.id, account.email);
      return { outcome: "confirmed", email: account.email };
    }
    try {
      await localAccounts.changeEmail(account.id, row.email);
    } catch (error) {
      if (error instanceof ConflictError) return { outcome: "taken" };
      throw error;
    }
    await users.setConfirmedEmail(this.issuer, account.id, row.email.toLowerCase());
    // Links to the old address, or another new one, no longer apply.
    await this.tokens.withdraw(account.id, ["email-confirmation", "email-change"]);
    await this.send({
      to: account.email,
      subject: "Your Charity Steps email has changed",
      ...mailLayout({
        greeting: `Hello ${account.first_name},`,
        paragraphs: [
          `Your Charity Steps account now uses ${row.email.toLowerCase()}: from now on, sign in with that address, and mail about your account goes there.`,
          "If you did not make this change, reset your password from the sign-in page at once and write to us.",
        ],
      }),
      userId: await this.userIdOf(account.id),
    });
    return { outcome: "changed", email: row.email.toLowerCase() };
  }

  /** A new password for the account: every session of it ends, but `keepSessionHash`'s. */
  async setPassword(account: LocalAccount, password: string, keepSessionHash?: string): Promise<void> {
    await this.app.repositories.localAccounts.setPasswordHash(account.id, await hashPassword(password));
    await this.tokens.withdraw(account.id, ["password-reset", "reset-sign-in"]);
    await this.tokens.endSessions(this.issuer, account.id, keepSessionHash);
  }
}

const TokenParams = Type.Object({ token: SingleLineText({ minLength: 1, maxLength: 200 }) });
const ForgotBody = Type.Object({ email: Type.Optional(SingleLineText({ maxLength: 1000 })) });
const NewPasswordBody = Type.Object({ password: Type.Optional(Type.String({ maxLength: 1000 })) });

export function forgotPasswordPage(values: { email?: string } = {}, error?: string): string {
  return layout(
    "Forgot your password?",
    `<h1>Forgot your password?</h1>
<p class="lead">Enter the email of your account and we'll send you a link to choose a new password.</p>
${errorBox(error)}
<form method="post" action="${FORGOT_PASSWORD_PATH}" novalidate>
${field("email", "Email", "email", values.email ?? "", "email")}
<button type="submit">Send me a link</button>
</form>
<p class="switch"><a href="/api/login">Back to sign in</a></p>`,
  );
}

function resetSentPage(): string {
  return layout(
    "Check your mail",
    `<h1>Check your mail</h1>
<p class="notice" role="status">${escapeHtml(RESET_SENT_MESSAGE)}</p>
<p class="lead">No mail after a few minutes? Check the address and ask again.</p>
<a class="button" href="/api/login">Back to sign in</a>`,
  );
}

export function newPasswordPage(token: string, email: string, error?: string): string {
  return layout(
    "Choose a new password",
    `<h1>Choose a new password</h1>
<p class="lead">For your account ${escapeHtml(email)}. Once it is saved, you are signed in and every other device is signed out.</p>
${errorBox(error)}
<form method="post" action="${PASSWORD_RESET_PATH}/${escapeHtml(token)}" novalidate>
<input type="hidden" name="username" value="${escapeHtml(email)}" autocomplete="username">
${field("password", "New password", "password", "", "new-password")}
<p class="hint">At least 8 characters, and not a common or leaked password: a few unrelated words make a good one.</p>
<button type="submit">Save and sign in</button>
</form>`,
  );
}

const linkUsedPage = (again: { href: string; label: string }) =>
  messagePage("Link no longer works", LINK_USED_MESSAGE, again);

/**
 * The pages mailed links open: the forgotten-password form, the new-password page, and email
 * confirmation. Registered beside the sign-in pages (form bodies are parsed there).
 */
export async function accountLinkPages(app: FastifyInstance, options: { issuer: string }) {
  const links = new AccountLinks(app, options.issuer);
  const { localAccounts, signInThrottle } = app.repositories;
  const pages = app.withTypeProvider<TypeBoxTypeProvider>();
  const secure = isHttps(app.config);

  // Reset mail is looked up and queued after the answer, so that an email with an account is not
  // answered later than one without. Pending work is finished before the app closes.
  const pending = new Set<Promise<void>>();
  const housekeeping = setInterval(() => {
    links.tokens.deleteExpired().catch((error) => app.log.warn({ err: error }, "housekeeping failed"));
  }, HOUSEKEEPING_INTERVAL_MS);
  housekeeping.unref();
  app.addHook("onClose", async () => {
    clearInterval(housekeeping);
    await Promise.allSettled(pending);
  });

  pages.get(FORGOT_PASSWORD_PATH, async (_request, reply) => html(reply, 200, forgotPasswordPage()));

  pages.post(
    FORGOT_PASSWORD_PATH,
    { schema: { body: ForgotBody }, attachValidation: true },
    async (request, reply) => {
      if (request.validationError) return html(reply, 400, forgotPasswordPage({}, ENTER_EMAIL_MESSAGE));
      const email = (request.body.email ?? "").trim().toLowerCase();
      if (!EMAIL_PATTERN.test(email) || email.length > 254) {
        return html(reply, 400, forgotPasswordPage({ email }, ENTER_EMAIL_MESSAGE));
      }
      const wait = await signInThrottle.attempt([
        { key: `reset-email:${email}`, limit: PASSWORD_RESET_THROTTLE.perEmail },
        { key: `reset-ip:${networkOf(request.ip)}`, limit: PASSWORD_RESET_THROTTLE.perAddress },
      ]);
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
    `${PASSWORD_RESET_PATH}/:token`,
    { schema: { params: TokenParams, body: NewPasswordBody }, attachValidation: true },
    async (request, reply) => {
      const { token } = request.params;
      const row = await links.tokens.peek(["password-reset"], token);
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
      if (providerSession) await app.repositories.oidcPayloads.destroy("Session", providerSession);
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

  pages.get(`${CONFIRM_EMAIL_PATH}/:token`, { schema: { params: TokenParams } }, async (request, reply) => {
    const result = await links.confirm(request.params.token);
    const back = { href: "/account", label: "Go to your account" };
    if (result.outcome === "invalid") return html(reply, 400, linkUsedPage(back));
    if (result.outcome === "taken") {
      return html(
        reply,
        409,
        messagePage(
          "Email already in use",
          "Another account now uses this email, so your account keeps its current one.",
          back,
        ),
      );
    }
    const sentence =
      result.outcome === "confirmed"
        ? `Thank you: ${result.email} is confirmed.`
        : `Your account now uses ${result.email}. Sign in with it from now on.`;
    return html(reply, 200, messagePage("Email confirmed", sentence, back));
  });

  return links;
}

/**
 * The account a reset's sign-in ticket (set when the new password was saved) signs this browser in
 * as, or null. The ticket is used up whatever the answer.
 */
export async function takeResetSignIn(
  tokens: AccountTokensRepository,
  request: FastifyRequest,
  reply: FastifyReply,
): Promise<string | null> {
  const ticket = request.cookies[RESET_SIGN_IN_COOKIE];
  if (!ticket) return null;
  reply.clearCookie(RESET_SIGN_IN_COOKIE, { path: RESET_SIGN_IN_COOKIE_PATH });
  const row = await tokens.use(["reset-sign-in"], ticket);
  return row?.account_id ?? null;
}
