import formbody from "@fastify/formbody";
import middie from "@fastify/middie";
import type { TypeBoxTypeProvider } from "@fastify/type-provider-typebox";
import type { FastifyInstance, FastifyReply, FastifyRequest } from "fastify";
import fp from "fastify-plugin";
import type Provider from "oidc-provider";
import type { ClientMetadata } from "oidc-provider";
import { Type } from "typebox";
import { ConflictError } from "../../errors.js";
import { SIGN_IN_THROTTLE } from "../../plugins/database.js";
import { EMAIL_TAKEN_MESSAGE } from "../../repositories/local-accounts.js";
import { hashPassword, passwordWeakness, verifyPassword } from "../passwords.js";
import { deriveSecret, loadMasterSecret } from "../secrets.js";
import { loadSigningKey } from "./keys.js";
import {
  ASSETS_PREFIX,
  messagePage,
  PAGES_CSS,
  SIGN_OUT_JS,
  type SignUpValues,
  signInPage,
  signUpPage,
} from "./pages.js";
import { createIdentityProvider } from "./provider.js";

export interface IdentityProviderPluginOptions {
  issuer: string;
  clients: ClientMetadata[];
}

export const tooManyAttemptsMessage = (minutes: number) =>
  `Too many sign-in attempts. To keep this account safe, please wait ${minutes} minute${minutes === 1 ? "" : "s"} and try again.`;

export const WRONG_PASSWORD_MESSAGE =
  "That email and password don't match an account. Check them and try again.";
export const EXPIRED_INTERACTION_MESSAGE =
  "This sign-in page has expired or was opened in another browser. Please start again.";

const EMAIL_PATTERN = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;
const NAME_MAX = 100;
const EMAIL_MAX = 254;

const UidParams = Type.Object({ uid: Type.String({ minLength: 1, maxLength: 100 }) });
const text = (maxLength: number) => Type.Optional(Type.String({ maxLength }));
const SignInBody = Type.Object({ email: text(1000), password: text(1000) });
const SignUpBody = Type.Object({
  firstName: text(1000),
  lastName: text(1000),
  email: text(1000),
  password: text(1000),
});

/**
 * Serves the built-in OpenID Connect provider at the issuer's path (e.g. /oidc) and its sign-in and
 * sign-up pages under /auth/interaction/:uid. All of its state lives in the database.
 */
export const identityProviderPlugin = fp<IdentityProviderPluginOptions>(
  async (app, options) => {
    const { appSecrets, localAccounts, oidcPayloads, signInThrottle } = app.repositories;
    const master = await loadMasterSecret(app.config, appSecrets);
    const provider = createIdentityProvider({
      issuer: options.issuer,
      clients: options.clients,
      cookieKey: deriveSecret(master, "oidc-cookies"),
      signingKey: await loadSigningKey(appSecrets),
      accounts: localAccounts,
      payloads: oidcPayloads,
      trustProxy: app.config.trustProxy,
      log: app.log,
    });
    // oidc-provider is a Koa app reading the raw request; middie runs it before Fastify parses bodies.
    await app.register(middie);
    app.use(new URL(options.issuer).pathname, provider.callback());

    app.get(`${ASSETS_PREFIX}/pages.css`, async (_request, reply) =>
      reply.type("text/css; charset=utf-8").header("cache-control", "public, max-age=3600").send(PAGES_CSS),
    );
    app.get(`${ASSETS_PREFIX}/sign-out.js`, async (_request, reply) =>
      reply
        .type("text/javascript; charset=utf-8")
        .header("cache-control", "public, max-age=3600")
        .send(SIGN_OUT_JS),
    );

    await app.register(async (pages) => {
      await pages.register(formbody);
      registerInteractionRoutes(pages, provider);
    });

    async function registerInteractionRoutes(instance: FastifyInstance, oidc: Provider) {
      const pages = instance.withTypeProvider<TypeBoxTypeProvider>();
      const html = (reply: FastifyReply, status: number, page: string) =>
        reply.status(status).type("text/html; charset=utf-8").header("cache-control", "no-store").send(page);

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

      const finish = async (request: FastifyRequest, reply: FastifyReply, accountId: string) => {
        const returnTo = await oidc.interactionResult(
          request.raw,
          reply.raw,
          { login: { accountId } },
          { mergeWithLastSubmission: false },
        );
        return reply.redirect(returnTo, 303);
      };

      pages.get("/auth/interaction/:uid", { schema: { params: UidParams } }, async (request, reply) => {
        const details = await interactionOf(request, reply, request.params.uid);
        if (!details) return reply;
        // Only the login prompt reaches this page: loadExistingGrant consents for our own clients.
        return html(reply, 200, signInPage(details.uid));
      });

      pages.get(
        "/auth/interaction/:uid/signup",
        { schema: { params: UidParams } },
        async (request, reply) => {
          const details = await interactionOf(request, reply, request.params.uid);
          if (!details) return reply;
          return html(reply, 200, signUpPage(details.uid));
        },
      );

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
        { schema: { params: UidParams, body: SignInBody } },
        async (request, reply) => {
          const details = await interactionOf(request, reply, request.params.uid);
          if (!details) return reply;
          const email = (request.body.email ?? "").trim();
          const password = request.body.password ?? "";
          if (!email || !password) {
            return html(
              reply,
              400,
              signInPage(details.uid, { email }, "Enter your email and your password."),
            );
          }
          const address = `ip:${request.ip}`;
          const walkerHere = `email+ip:${email.toLowerCase()}|${request.ip}`;
          const wait = await signInThrottle.attempt([
            // Guessing one walker's password from one place: that place is stopped, the walker is not.
            { key: walkerHere, limit: SIGN_IN_THROTTLE.perEmailAndAddress },
            // Guessing it from many places at once.
            { key: `email:${email.toLowerCase()}`, limit: SIGN_IN_THROTTLE.perEmail },
            // Trying many walkers' passwords from one place.
            { key: address, limit: SIGN_IN_THROTTLE.perAddress },
          ]);
          if (wait > 0) {
            const minutes = Math.max(1, Math.ceil(wait / 60_000));
            reply.header("retry-after", String(Math.ceil(wait / 1000)));
            return html(reply, 429, signInPage(details.uid, { email }, tooManyAttemptsMessage(minutes)));
          }
          const account = await localAccounts.findByEmail(email);
          if (!account || !(await verifyPassword(password, account.password_hash))) {
            return html(reply, 401, signInPage(details.uid, { email }, WRONG_PASSWORD_MESSAGE));
          }
          await signInThrottle.succeeded([walkerHere], [address]);
          return finish(request, reply, account.id);
        },
      );

      pages.post(
        "/auth/interaction/:uid/signup",
        { schema: { params: UidParams, body: SignUpBody } },
        async (request, reply) => {
          const details = await interactionOf(request, reply, request.params.uid);
          if (!details) return reply;
          const values: Required<SignUpValues> = {
            firstName: (request.body.firstName ?? "").trim(),
            lastName: (request.body.lastName ?? "").trim(),
            email: (request.body.email ?? "").trim(),
          };
          const password = request.body.password ?? "";
          const problem = signUpProblem(values, password);
          if (problem) return html(reply, 400, signUpPage(details.uid, values, problem));
          if (await localAccounts.findByEmail(values.email)) {
            return html(reply, 409, signUpPage(details.uid, values, EMAIL_TAKEN_MESSAGE));
          }
          try {
            const account = await localAccounts.create({
              ...values,
              passwordHash: await hashPassword(password),
            });
            return finish(request, reply, account.id);
          } catch (error) {
            if (error instanceof ConflictError) {
              return html(reply, 409, signUpPage(details.uid, values, EMAIL_TAKEN_MESSAGE));
            }
            throw error;
          }
        },
      );
    }
  },
  { name: "identity-provider", dependencies: ["config", "database"] },
);

function signUpProblem(values: Required<SignUpValues>, password: string): string | null {
  if (!values.firstName || !values.lastName) return "Enter your first name and last name.";
  if (values.firstName.length > NAME_MAX || values.lastName.length > NAME_MAX) {
    return `Names can be at most ${NAME_MAX} characters long.`;
  }
  if (!EMAIL_PATTERN.test(values.email) || values.email.length > EMAIL_MAX) {
    return "Enter a valid email address, like name@example.com.";
  }
  return passwordWeakness(password, values.email);
}
