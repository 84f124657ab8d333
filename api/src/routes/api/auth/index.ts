import { AuthUser, ErrorResponse, LOGIN_PATH, LOGOUT_PATH } from "@charity-steps/shared-types";
import type { FastifyPluginAsyncTypebox } from "@fastify/type-provider-typebox";
import { Type } from "typebox";
import type { OidcClient } from "../../../auth/oidc-client.js";
import { signedInUser } from "../../../auth/sessions.js";
import { toAuthUser } from "../../../repositories/users.js";

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

/** Sign-in through the OpenID Connect provider, sign-out, and who is signed in. */
export const authRoutes: FastifyPluginAsyncTypebox<{ oidc: OidcClient }> = async (app, { oidc }) => {
  app.get(LOGIN_PATH, { schema: { response: redirectResponses } }, async (request, reply) =>
    reply.redirect(await oidc.authorizationUrl(request, reply)),
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

  app.get(LOGOUT_PATH, { schema: { response: { 302: Type.Null() } } }, async (request, reply) => {
    await app.sessionCookie.signOut(request, reply);
    // Also end the session at the provider where it allows it, so the next sign-in asks again.
    const providerSignOut = await oidc.endSessionUrl().catch(() => null);
    return reply.redirect(providerSignOut ?? "/");
  });

  app.get(
    "/api/auth/user",
    { preHandler: app.requireUser, schema: { response: { 200: AuthUser, 401: ErrorResponse } } },
    async (request) => toAuthUser(signedInUser(request)),
  );
};
