import {
  ACCOUNT_MESSAGES,
  ACCOUNT_SESSIONS_PATH,
  AccountSessionList,
  AccountSessionParams,
  END_OTHER_SESSIONS_PATH,
  EndOtherSessionsResponse,
  ErrorResponse,
  NoContent,
} from "@charity-steps/shared-types";
import type { FastifyPluginAsyncTypebox } from "@fastify/type-provider-typebox";
import { describeBrowser, signedInUser } from "../../../auth/sessions.js";
import { NotFoundError, UnauthorizedError } from "../../../errors.js";

/** The walker's signed-in browsers: list them, sign one out, or sign out all but this one. */
export const accountSessionsRoutes: FastifyPluginAsyncTypebox = async (app) => {
  app.addHook("onRequest", app.requireUser);
  const { sessions } = app.repositories;
  const links = app.services.accountLinks;

  /** The hash of the session this request came with (set by requireUser). */
  const currentHash = (request: { sessionIdHash: string | null }) => {
    if (!request.sessionIdHash) throw new UnauthorizedError();
    return request.sessionIdHash;
  };

  app.get(
    ACCOUNT_SESSIONS_PATH,
    { schema: { response: { 200: AccountSessionList, 401: ErrorResponse } } },
    async (request) => {
      const current = currentHash(request);
      const devices = await sessions.listForUser(signedInUser(request).id);
      return devices.map((device) => ({
        id: device.publicId,
        browser: describeBrowser(device.userAgent),
        createdAt: new Date(device.createdAt).toISOString(),
        lastSeenAt: new Date(device.lastSeenAt).toISOString(),
        current: device.idHash === current,
      }));
    },
  );

  app.delete(
    `${ACCOUNT_SESSIONS_PATH}/:id`,
    {
      schema: {
        params: AccountSessionParams,
        response: { 204: NoContent, 400: ErrorResponse, 401: ErrorResponse, 404: ErrorResponse },
      },
    },
    async (request, reply) => {
      const ended = await sessions.closeByPublicId(signedInUser(request).id, request.params.id);
      if (!ended) throw new NotFoundError(ACCOUNT_MESSAGES.sessionNotFound);
      return reply.status(204).send(null);
    },
  );

  app.post(
    END_OTHER_SESSIONS_PATH,
    { schema: { response: { 200: EndOtherSessionsResponse, 401: ErrorResponse } } },
    async (request) => {
      const user = signedInUser(request);
      // A built-in account is signed out at its provider too, or another browser still signed in
      // there (or part-way through signing in) would be let back in without the password.
      const ended =
        links && user.issuer === links.issuer
          ? await links.endOtherSessions(user.subject, currentHash(request))
          : await sessions.closeOthers(user.id, currentHash(request));
      return { ended };
    },
  );
};
