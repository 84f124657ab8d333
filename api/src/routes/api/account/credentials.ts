import {
  AccountMessage,
  ChangeEmailRequest,
  ChangePasswordRequest,
  ErrorResponse,
  isEmailAddress,
} from "@charity-steps/shared-types";
import type { FastifyPluginAsyncTypebox } from "@fastify/type-provider-typebox";
import type { FastifyReply, FastifyRequest } from "fastify";
import { passwordWeakness } from "../../../auth/passwords.js";
import { signInAttempt, tooManyAttemptsMessage } from "../../../auth/provider/throttle.js";
import { signedInUser } from "../../../auth/sessions.js";
import { AppError, BadRequestError, ForbiddenError, NotFoundError } from "../../../errors.js";
import { hashSessionToken } from "../../../repositories/sessions.js";

export const ACCOUNT_PASSWORD_PATH = "/api/account/password";
export const ACCOUNT_EMAIL_PATH = "/api/account/email";
export const ACCOUNT_EMAIL_CONFIRMATION_PATH = "/api/account/email-confirmation";

/** Confirmation mails a walker may ask to be sent again, per 15 minutes (the sign-in throttle's window). */
export const CONFIRMATION_RESENDS_PER_WINDOW = 3;
/** Email changes a walker may ask for per 15 minutes: each mails an address of their choosing. */
export const EMAIL_CHANGES_PER_WINDOW = 3;

export const CREDENTIALS_MESSAGES = {
  external: "Your password and email are managed by the service you sign in with: change them there.",
  wrongCurrentPassword: "Your current password is not right.",
  passwordChanged: "Your password has been changed. Every other device you were signed in on is signed out.",
  invalidEmail: "Enter a valid email address, like name@example.com.",
  sameEmail: "This is already your account's email.",
  emailChangeSent: (email: string) =>
    `We've sent a link to ${email}. Your email changes once you follow it (it works for 7 days).`,
  confirmationSent: (email: string) => `We've sent a new confirmation link to ${email}.`,
  alreadyConfirmed: "Your email is already confirmed.",
  tooManyEmailChanges: (minutes: number) =>
    `You've asked to change your email several times already. Please wait ${minutes} minute${minutes === 1 ? "" : "s"} and try again.`,
  tooManyConfirmations: (minutes: number) =>
    `You've asked for several confirmation mails already. Please wait ${minutes} minute${minutes === 1 ? "" : "s"} and try again.`,
  noAccount: "Your account could not be found. Please sign in again.",
} as const;

const responses = (success: 200 | 202) => ({
  [success]: AccountMessage,
  400: ErrorResponse,
  401: ErrorResponse,
  403: ErrorResponse,
  404: ErrorResponse,
  429: ErrorResponse,
});

function tooManyRequests(reply: FastifyReply, waitMs: number, message: string) {
  reply.header("retry-after", String(Math.max(1, Math.ceil(waitMs / 1000))));
  return new AppError(429, message);
}

/**
 * A built-in account's credentials, changed by the walker signed in with it: the password, the
 * email (moved once the new address confirms it), and the sign-up email's confirmation mail.
 * Accounts of an external provider are managed there: these routes refuse them with 403.
 */
export const credentialsRoutes: FastifyPluginAsyncTypebox = async (app) => {
  const links = app.services.accountLinks;
  const { localAccounts, signInThrottle } = app.repositories;

  /** The signed-in walker's built-in account (403 for an external one). */
  async function builtInAccount(request: FastifyRequest) {
    const user = signedInUser(request);
    if (!links || user.issuer !== links.issuer) throw new ForbiddenError(CREDENTIALS_MESSAGES.external);
    const account = await localAccounts.findById(user.subject);
    if (!account) throw new NotFoundError(CREDENTIALS_MESSAGES.noAccount);
    return { user, account, links };
  }

  /**
   * Checks the current password as sign-in does, counted by the same throttle (so guessing it here
   * is no easier than on the sign-in page): 429 past the limit, 400 when it is not right. The
   * walker's session is what the throttle knows them by, so that failures elsewhere never stop a
   * signed-in walker changing their own password.
   */
  async function checkCurrentPassword(
    request: FastifyRequest,
    reply: FastifyReply,
    account: { email: string; password_hash: string },
    password: string,
  ) {
    const attempt = signInAttempt(
      signInThrottle,
      account.email,
      request.ip,
      request.sessionIdHash ? `session:${request.sessionIdHash}` : null,
    );
    const wait = await attempt.count();
    if (wait) {
      reply.header("retry-after", String(wait.retryAfterSeconds));
      throw new AppError(429, tooManyAttemptsMessage(wait.minutes));
    }
    if (!(await app.services.passwords.verify(password, account.password_hash))) {
      throw new BadRequestError(CREDENTIALS_MESSAGES.wrongCurrentPassword);
    }
    await attempt.succeeded();
  }

  app.post(
    ACCOUNT_PASSWORD_PATH,
    {
      preHandler: app.requireUser,
      schema: {
        summary: "Change a built-in account's password; the account's other sessions end",
        body: ChangePasswordRequest,
        response: responses(200),
      },
    },
    async (request, reply) => {
      const { account, links } = await builtInAccount(request);
      const { currentPassword, newPassword } = request.body;
      await checkCurrentPassword(request, reply, account, currentPassword);
      const weakness = await passwordWeakness(newPassword, account.email, [
        account.first_name,
        account.last_name,
      ]);
      if (weakness) throw new BadRequestError(weakness);
      const token = app.sessionCookie.read(request);
      await links.setPassword(account, newPassword, token ? hashSessionToken(token) : undefined);
      return { message: CREDENTIALS_MESSAGES.passwordChanged };
    },
  );

  app.post(
    ACCOUNT_EMAIL_PATH,
    {
      preHandler: app.requireUser,
      schema: {
        summary: "Ask to move a built-in account to a new email; it moves once the new address confirms",
        body: ChangeEmailRequest,
        response: responses(202),
      },
    },
    async (request, reply) => {
      const { user, account, links } = await builtInAccount(request);
      const newEmail = request.body.newEmail.trim().toLowerCase();
      if (!isEmailAddress(newEmail)) {
        throw new BadRequestError(CREDENTIALS_MESSAGES.invalidEmail);
      }
      await checkCurrentPassword(request, reply, account, request.body.currentPassword);
      if (newEmail === account.email) throw new BadRequestError(CREDENTIALS_MESSAGES.sameEmail);
      const wait = await signInThrottle.attempt([
        { key: `email-change:${user.id}`, limit: EMAIL_CHANGES_PER_WINDOW },
      ]);
      if (wait > 0) {
        const minutes = Math.max(1, Math.ceil(wait / 60_000));
        throw tooManyRequests(reply, wait, CREDENTIALS_MESSAGES.tooManyEmailChanges(minutes));
      }
      // Whether another account uses the address is told only to that address, by mail.
      await links.sendEmailChange(account, newEmail);
      return reply.code(202).send({ message: CREDENTIALS_MESSAGES.emailChangeSent(newEmail) });
    },
  );

  app.post(
    ACCOUNT_EMAIL_CONFIRMATION_PATH,
    {
      preHandler: app.requireUser,
      schema: {
        summary: "Send a built-in account's email confirmation link again",
        response: { ...responses(202), 200: AccountMessage },
      },
    },
    async (request, reply) => {
      const { user, account, links } = await builtInAccount(request);
      if (account.email_verified_at !== null) return { message: CREDENTIALS_MESSAGES.alreadyConfirmed };
      const wait = await signInThrottle.attempt([
        { key: `confirmation-mail:${user.id}`, limit: CONFIRMATION_RESENDS_PER_WINDOW },
      ]);
      if (wait > 0) {
        const minutes = Math.max(1, Math.ceil(wait / 60_000));
        throw tooManyRequests(reply, wait, CREDENTIALS_MESSAGES.tooManyConfirmations(minutes));
      }
      await links.sendEmailConfirmation(account);
      return reply.code(202).send({ message: CREDENTIALS_MESSAGES.confirmationSent(account.email) });
    },
  );
};
