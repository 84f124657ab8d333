import {
  CHARITIES,
  type CharityName,
  CharitySelectionResponse,
  CharitySelectRequest,
  CurrentCharityResponse,
  ErrorResponse,
} from "@charity-steps/shared-types";
import type { FastifyPluginAsyncTypebox } from "@fastify/type-provider-typebox";
import { signedInUser } from "../../../auth/sessions.js";

/** The walker's charity for the beta: one of the three. */
export const charityRoutes: FastifyPluginAsyncTypebox = async (app) => {
  app.addHook("onRequest", app.requireUser);

  const chosen = (name: string | null): CharityName | null =>
    CHARITIES.find((charity) => charity.name === name)?.name ?? null;

  app.get(
    "/api/charity/selection",
    { schema: { response: { 200: CharitySelectionResponse, 401: ErrorResponse } } },
    async (request) => ({ charityName: chosen(signedInUser(request).charity_name) }),
  );

  app.get(
    "/api/charity/current",
    { schema: { response: { 200: CurrentCharityResponse, 401: ErrorResponse } } },
    async (request) => {
      const name = chosen(signedInUser(request).charity_name);
      const charity = CHARITIES.find((candidate) => candidate.name === name);
      return { charity: charity ? { ...charity } : null };
    },
  );

  app.post(
    "/api/charity/select",
    {
      schema: {
        body: CharitySelectRequest,
        response: { 200: CharitySelectionResponse, 400: ErrorResponse, 401: ErrorResponse },
      },
    },
    async (request) => {
      const { charityName } = request.body;
      await app.repositories.users.setCharity(signedInUser(request).id, charityName);
      return { charityName };
    },
  );
};
