import { BADGES_PATH, BadgesResponse, ErrorResponse, londonDay } from "@charity-steps/shared-types";
import type { FastifyPluginAsyncTypebox } from "@fastify/type-provider-typebox";
import { signedInUser } from "../../../auth/sessions.js";

/** The walker's badges: each earned, with when, or still to earn. Reading them awards what is due. */
export const badgesRoutes: FastifyPluginAsyncTypebox = async (app) => {
  app.get(
    BADGES_PATH,
    {
      onRequest: app.requireUser,
      schema: { response: { 200: BadgesResponse, 401: ErrorResponse } },
    },
    async (request) => app.services.badges.award(signedInUser(request).id, londonDay()),
  );
};
