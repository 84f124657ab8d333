import { trimInvisible } from "@charity-steps/shared-types";
import formbody from "@fastify/formbody";
import type { TypeBoxTypeProvider } from "@fastify/type-provider-typebox";
import type { FastifyInstance, FastifyReply, FastifyRequest, FastifySchemaValidationError } from "fastify";
import type Provider from "oidc-provider";
import { ConflictError } from "../../errors.js";
import { EMAIL_TAKEN_MESSAGE } from "../../repositories/local-accounts.js";
import { tooManySignUpsMessage } from "../../repositories/sign-up-throttle.js";
import { accountLinkRoutes, takeResetSignIn } from "./account-link-routes.js";
import type { AccountLinks } from "./account-links.js";
import type { DeviceCookies } from "./device-cookies.js";
import { messagePage, type SignUpValues, signInPage, signUpPage } from "./pages.js";
import { networkOf, signInAttempt, tooManyAttemptsMessage } from "./throttle.js";
import {
  CONTROL_CHARACTERS_FORM_MESSAGE,
  MISSING_CREDENTIALS_MESSAGE,
  SignInBody,
  SignUpBody,
  signUpProblem,
  UidParams,
  UNREADABLE_FORM_MESSAGE,
} from "./validation.js";

export const WRONG_PASSWORD_MESSAGE =
  "That email and password don't match an account. Check them and try again.";
export const EXPIRED_INTERACTION_MESSAGE =
  "This sign-in page has expired or was opened in another browser. Please start again.";

/** The sentence a form refused by its schema is answered with (its fields are not shown again). */
function formProblem(error: Error & { validation?: FastifySchemaValidationError[] }): string {
  return error.validation?.some((problem) => problem.keyword === "pattern")
    ? CONTROL_CHARACTERS_FORM_MESSAGE
    : UNREADABLE_FORM_MESSAGE;
}

const html = (reply: FastifyReply, status: number, page: string) =>
  reply.status(status).type("text/html; charset=utf-8").header("cache-control", "no-store").send(page);

/**
 * The provider's sign-in, sign-up and cancel pages under /auth/interaction/:uid, where `uid` names
 * the pending interaction that oidc-provider sent the walker to finish.
 */
export async function interactionRoutes(
  app: FastifyInstance,
  options: { provider: Provider; links: AccountLinks; devices: DeviceCookies },
) {
  const { provider: oidc, links, devices } = options;
  const { localAccounts, signInThrottle, signUpThrottle } = app.repositories;
  const { passwords } = app.services;
  passwords.prepareDummyHash();
  await app.register(formbody);
  await accountLinkRoutes(app, { links, devices });
  const pages = app.withTypeProvider<TypeBoxTypeProvider>();

  /** The pending interaction named by the URL, or null (expired page shown) when there is none. */
  async function interactionOf(request: FastifyRequest, reply: FastifyReply, uid: string) {
    try {
      const details = await oidc.interactionDetails(request.raw, reply.raw);
      if (details.uid === uid) return details;
    } catch {
      // No interaction cookie, or it expired: handled below like a mismatch.
    }
    html(
      reply,
      400,
      messagePage("Sign-in expired", EXPIRED_INTERACTION_MESSAGE, {
        href: "/api/login",
        label: "Start again",
      }),
    );
    return null;
  }

  /** Signs this browser in as the account, which from now on knows it by its device cookie. */
  const finish = async (
    request: FastifyRequest,
    reply: FastifyReply,
    account: { id: string; email: string },
  ) => {
    const returnTo = await oidc.interactionResult(
      request.raw,
      reply.raw,
      // `create` too: a walker sent to sign up may have signed in to an account they already had.
      { login: { accountId: account.id }, create: {} },
      { mergeWithLastSubmission: false },
    );
    devices.remember(request, reply, account.email);
    return reply.redirect(returnTo, 303);
  };

  pages.get("/auth/interaction/:uid", { schema: { params: UidParams } }, async (request, reply) => {
    const details = await interactionOf(request, reply, request.params.uid);
    if (!details) return reply;
    // A browser that has just chosen a new password through a mailed link is signed in by it.
    const resetAccount = await takeResetSignIn(links.tokens, request, reply);
    if (resetAccount) return finish(request, reply, resetAccount);
    // Only the create and login prompts reach this page: loadExistingGrant consents for our own
    // clients. A walker who came to sign up is shown that form first.
    if (details.prompt.name === "create") return html(reply, 200, signUpPage(details.uid));
    return html(reply, 200, signInPage(details.uid));
  });

  pages.get("/auth/interaction/:uid/login", { schema: { params: UidParams } }, async (request, reply) => {
    const details = await interactionOf(request, reply, request.params.uid);
    if (!details) return reply;
    return html(reply, 200, signInPage(details.uid));
  });

  pages.get("/auth/interaction/:uid/signup", { schema: { params: UidParams } }, async (request, reply) => {
    const details = await interactionOf(request, reply, request.params.uid);
    if (!details) return reply;
    return html(reply, 200, signUpPage(details.uid));
  });

  pages.get("/auth/interaction/:uid/abort", { schema: { params: UidParams } }, async (request, reply) => {
    const details = await interactionOf(request, reply, request.params.uid);
    if (!details) return reply;
    const returnTo = await oidc.interactionResult(
      request.raw,
      reply.raw,
      { error: "access_denied", error_description: "The walker cancelled the sign-in." },
      { mergeWithLastSubmission: false },
    );
    return reply.redirect(returnTo, 303);
  });

  pages.post(
    "/auth/interaction/:uid/login",
    // A refused form is answered by the page again, not by the API's JSON error.
    { schema: { params: UidParams, body: SignInBody }, attachValidation: true },
    async (request, reply) => {
      const details = await interactionOf(request, reply, request.params.uid);
      if (!details) return reply;
      if (request.validationError) {
        return html(reply, 400, signInPage(details.uid, {}, formProblem(request.validationError)));
      }
      const email = (request.body.email ?? "").trim();
      const password = request.body.password ?? "";
      if (!email || !password) {
        return html(reply, 400, signInPage(details.uid, { email }, MISSING_CREDENTIALS_MESSAGE));
      }
      const device = devices.trustedFor(request, email);
      const attempt = signInAttempt(signInThrottle, email, request.ip, device && `device:${device}`);
      const wait = await attempt.count();
      if (wait) {
        reply.header("retry-after", String(wait.retryAfterSeconds));
        return html(reply, 429, signInPage(details.uid, { email }, tooManyAttemptsMessage(wait.minutes)));
      }
      const account = await localAccounts.findByEmail(email);
      // An unknown email is checked against a dummy hash: refused no faster than a wrong password.
      if (!(await passwords.verifyAccountPassword(password, account?.password_hash)) || !account) {
        return html(reply, 401, signInPage(details.uid, { email }, WRONG_PASSWORD_MESSAGE));
      }
      await attempt.succeeded();
      return finish(request, reply, account);
    },
  );

  pages.post(
    "/auth/interaction/:uid/signup",
    { schema: { params: UidParams, body: SignUpBody }, attachValidation: true },
    async (request, reply) => {
      const details = await interactionOf(request, reply, request.params.uid);
      if (!details) return reply;
      if (request.validationError) {
        return html(reply, 400, signUpPage(details.uid, {}, formProblem(request.validationError)));
      }
      const values: Required<SignUpValues> = {
        firstName: trimInvisible(request.body.firstName ?? ""),
        lastName: trimInvisible(request.body.lastName ?? ""),
        email: (request.body.email ?? "").trim(),
      };
      const password = request.body.password ?? "";
      const problem = await signUpProblem(values, password);
      if (problem) return html(reply, 400, signUpPage(details.uid, values, problem));
      const wait = await signUpThrottle.count(networkOf(request.ip));
      if (wait) {
        reply.header("retry-after", String(wait.retryAfterSeconds));
        return html(reply, 429, signUpPage(details.uid, values, tooManySignUpsMessage(wait.minutes)));
      }
      if (await localAccounts.findByEmail(values.email)) {
        return html(reply, 409, signUpPage(details.uid, values, EMAIL_TAKEN_MESSAGE));
      }
      try {
        const account = await localAccounts.create({
          ...values,
          passwordHash: await passwords.hash(password),
        });
        // The account works at once; its email is confirmed whenever the walker follows the link.
        await links
          .sendEmailConfirmation(account)
          .catch((error) => request.log.error({ err: error }, "confirmation mail failed"));
        return finish(request, reply, account);
      } catch (error) {
        if (error instanceof ConflictError) {
          return html(reply, 409, signUpPage(details.uid, values, EMAIL_TAKEN_MESSAGE));
        }
        throw error;
      }
    },
  );
}
