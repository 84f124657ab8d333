import { isolated } from "@charity-steps/shared-types";
import type { AccountTokenKind } from "../../db/schema/account-tokens.js";
import { ConflictError } from "../../errors.js";
import { type Mailer, type MailMessage, mailLayout } from "../../mail/mail.js";
import type { AccountTokensRepository } from "../../repositories/account-tokens.js";
import type { LocalAccount, LocalAccountsRepository } from "../../repositories/local-accounts.js";
import type { UsersRepository } from "../../repositories/users.js";
import type { PasswordHasher } from "../passwords.js";

/** A reset link opens the new-password page for an hour. */
export const PASSWORD_RESET_TTL_MS = 60 * 60_000;
/** A confirmation link (of the sign-up email, or of a new email) works for a week. */
export const EMAIL_CONFIRMATION_TTL_MS = 7 * 86_400_000;
/** After a reset, the walker's browser has this long to finish signing in without the password. */
export const RESET_SIGN_IN_TTL_MS = 10 * 60_000;

/**
 * Every kind of token that acts for the account: the mailed links and the sign-in ticket after a
 * reset. A change of password or email withdraws them all, whichever address they went to: a link
 * asked for before the change (by someone who knew the old password, or mailed to the old address)
 * must not undo it.
 */
const EVERY_ACCOUNT_TOKEN: AccountTokenKind[] = [
  "password-reset",
  "reset-sign-in",
  "email-confirmation",
  "email-change",
];

export const FORGOT_PASSWORD_PATH = "/auth/forgot-password";
export const PASSWORD_RESET_PATH = "/auth/password-reset";
export const CONFIRM_EMAIL_PATH = "/auth/confirm-email";

export interface AccountLinksDeps {
  /** The built-in provider's issuer: its accounts are the app's walkers of that issuer. */
  issuer: string;
  publicUrl: string;
  mail: Mailer;
  tokens: AccountTokensRepository;
  localAccounts: LocalAccountsRepository;
  users: UsersRepository;
  /** A reset's new password is hashed as a sign-up's is. */
  passwords: PasswordHasher;
}

/** What following a confirmation link did, for its page to say. */
export type ConfirmOutcome =
  | { outcome: "confirmed"; email: string }
  | { outcome: "changed"; email: string }
  | { outcome: "taken" }
  | { outcome: "invalid" };

/**
 * The mailed links of built-in accounts: a password reset, the confirmation of the sign-up email,
 * and of a new email; and what following each does. The app's account routes ask for them, the
 * provider's pages (`account-link-routes.ts`) follow them.
 */
export class AccountLinks {
  readonly issuer: string;
  readonly tokens: AccountTokensRepository;

  constructor(private readonly deps: AccountLinksDeps) {
    this.issuer = deps.issuer;
    this.tokens = deps.tokens;
  }

  private url(path: string): string {
    return `${this.deps.publicUrl}${path}`;
  }

  private send(message: MailMessage): Promise<void> {
    return this.deps.mail.send(message);
  }

  /** The app's walker for this account, when they have signed in (their mail goes with them). */
  private async userIdOf(accountId: string): Promise<string | null> {
    return (await this.deps.users.findByIdentity(this.issuer, accountId))?.id ?? null;
  }

  /** Mails a reset link when `email` names an account; does nothing (and says nothing) otherwise. */
  async sendPasswordReset(email: string): Promise<void> {
    const account = await this.deps.localAccounts.findByEmail(email);
    if (!account) return;
    const token = await this.tokens.issue("password-reset", account.id, account.email, PASSWORD_RESET_TTL_MS);
    const link = this.url(`${PASSWORD_RESET_PATH}/${token}`);
    await this.send({
      to: account.email,
      subject: "Choose a new Charity Steps password",
      ...mailLayout({
        greeting: `Hello ${isolated(account.first_name)},`,
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
    const token = await this.tokens.replace(
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
        greeting: `Hello ${isolated(account.first_name)},`,
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
    if (await this.deps.localAccounts.findByEmail(newEmail)) {
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
    const token = await this.tokens.replace("email-change", account.id, newEmail, EMAIL_CONFIRMATION_TTL_MS);
    const link = this.url(`${CONFIRM_EMAIL_PATH}/${token}`);
    await this.send({
      to: newEmail,
      subject: "Confirm your new email for Charity Steps",
      ...mailLayout({
        greeting: `Hello ${isolated(account.first_name)},`,
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
  async confirm(token: string): Promise<ConfirmOutcome> {
    const row = await this.tokens.use(["email-confirmation", "email-change"], token);
    if (!row) return { outcome: "invalid" };
    const { localAccounts, users } = this.deps;
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
    await users.setChangedEmail(this.issuer, account.id, row.email.toLowerCase());
    // Links to the old address (a reset among them), or to another new one, no longer apply.
    await this.tokens.withdraw(account.id, EVERY_ACCOUNT_TOKEN);
    await this.send({
      to: account.email,
      subject: "Your Charity Steps email has changed",
      ...mailLayout({
        greeting: `Hello ${isolated(account.first_name)},`,
        paragraphs: [
          `Your Charity Steps account now uses ${row.email.toLowerCase()}: from now on, sign in with that address, and mail about your account goes there.`,
          "If you did not make this change, reset your password from the sign-in page at once and write to us.",
        ],
      }),
      userId: await this.userIdOf(account.id),
    });
    return { outcome: "changed", email: row.email.toLowerCase() };
  }

  /**
   * Every session of the account ends but `keepSessionHash`'s, in the app and at the provider;
   * answers how many of the app's ended.
   */
  async endOtherSessions(accountId: string, keepSessionHash: string): Promise<number> {
    return (await this.tokens.endSessions(this.issuer, accountId, keepSessionHash)).appSessions;
  }

  /** A new password for the account: every session of it ends, but `keepSessionHash`'s. */
  async setPassword(account: LocalAccount, password: string, keepSessionHash?: string): Promise<void> {
    await this.deps.localAccounts.setPasswordHash(account.id, await this.deps.passwords.hash(password));
    await this.tokens.withdraw(account.id, EVERY_ACCOUNT_TOKEN);
    await this.tokens.endSessions(this.issuer, account.id, keepSessionHash);
  }
}
