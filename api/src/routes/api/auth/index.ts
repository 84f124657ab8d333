import { AuthUser, ErrorResponse, LOGIN_PATH, LOGOUT_PATH } from "@charity-steps/shared-types";
import type { FastifyPluginAsyncTypebox } from "@fastify/type-provider-typebox";
import type { FastifyReply, FastifyRequest } from "fastify";
import { Type } from "typebox";
import type { OidcClient } from "../../../auth/oidc-client.js";
import { isOperator } from "../../../auth/operators.js";
import { builtInIssuerOf } from "../../../auth/provider/provider.js";
import { signedInUser } from "../../../auth/sessions.js";
import { isFromAnotherSite } from "../../../plugins/csrf.js";
import { toAuthUser } from "../../../repositories/users.js";
import { SIGN_OUT_CONFIRMATION_PAGE } from "./sign-out-page.js";

export const CALLBACK_PATH = "/api/callback";

const CallbackQuery = Type.Object({
  code: Type.Optional(Type.String({ maxLength: 2048 })),
  state: Type.Optional(Type.String({ maxLength: 2048 })),
  iss: Type.Optional(Type.String({ maxLength: 2048 })),
  error: Type.Optional(Type.String({ maxLength: 2048 })),
  error_description: Type.Optional(Type.String({ maxLength: 4096 })),
  session_state: Type.Optional(Type.String({ maxLength: 2048 })),
});

const redirectResponses = { 302: Type.Null(), 400: ErrorResponse, 502: ErrorResponse };

const LoginQuery = Type.Object({
  prompt: Type.Optional(
    Type.Literal("create", { description: "Open on the form to create an account, where the provider can" }),
  ),
});

/** Sign-in through the OpenID Connect provider, sign-out, and who is signed in. */
export const authRoutes: FastifyPluginAsyncTypebox<{ oidc: OidcClient }> = async (app, { oidc }) => {
  app.get(
    LOGIN_PATH,
    { schema: { querystring: LoginQuery, response: redirectResponses } },
    async (request, reply) =>
      reply.redirect(
        await oidc.authorizationUrl(request, reply, { signUp: request.query.prompt === "create" }),
      ),
  );

  app.get(
    CALLBACK_PATH,
    { schema: { querystring: CallbackQuery, response: redirectResponses } },
    async (request, reply) => {
      if (request.query.error !== undefined) {
        // The walker cancelled at the provider, or it refused: back to the landing page, signed out.
        return reply.redirect("/");
      }
      const identity = await oidc.completeSignIn(request, reply, request.query.iss);
      const user = await app.repositories.users.upsertFromIdentity(identity);
      await app.sessionCookie.signIn(request, reply, user.id);
      return reply.redirect("/");
    },
  );

  const ownOrigin = new URL(app.config.publicUrl).origin;
  const signOut = async (request: FastifyRequest, reply: FastifyReply) => {
    await app.sessionCookie.signOut(request, reply);
    // Also end the session at the provider where it allows it, so the next sign-in asks again.
    const providerSignOut = await oidc.endSessionUrl().catch(() => null);
    return reply.redirect(providerSignOut ?? "/");
  };

  // The app's Logout link is a same-origin navigation (and a typed URL is the walker's own doing):
  // both sign out at once. A link on another site (or a sibling origin) only gets a page asking
  // the walker to confirm, whose button posts the sign-out from this origin.
  app.get(
    LOGOUT_PATH,
    {
      schema: {
        response: {
          200: Type.String({ description: "An HTML page asking to confirm a sign-out from another site" }),
          302: Type.Null(),
        },
      },
    },
    async (request, reply) => {
      if (!isFromAnotherSite(request.headers, ownOrigin)) return signOut(request, reply);
      return reply.code(200).type("text/html; charset=utf-8").send(SIGN_OUT_CONFIRMATION_PAGE);
    },
  );

  // The confirmation page's form: behind the CSRF check like every state-changing request. Its
  // body (empty, form-encoded) is read by nobody, so any form body is accepted unparsed.
  app.addContentTypeParser(
    "application/x-www-form-urlencoded",
    { parseAs: "string", bodyLimit: 1024 },
    (_request, _body, done) => done(null, undefined),
  );
  app.post(LOGOUT_PATH, { schema: { response: { 302: Type.Null() } } }, signOut);

  app.get(
    "/api/auth/user",
    { preHandler: app.requireUser, schema: { response: { 200: AuthUser, 401: ErrorResponse } } },
    async (request) => {
      const user = signedInUser(request);
      return { ...toAuthUser(user, builtInIssuerOf(app.config)), isOperator: isOperator(app.config, user) };
    },
  );
};
