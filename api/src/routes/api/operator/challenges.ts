import {
  ChallengeInput,
  ChallengeItem,
  ChallengeParams,
  ErrorResponse,
  NoContent,
  OPERATOR_CHALLENGES_PATH,
  operatorChallengePath,
} from "@charity-steps/shared-types";
import type { FastifyPluginAsyncTypebox } from "@fastify/type-provider-typebox";
import { signedInUser } from "../../../auth/sessions.js";

const refusals = { 400: ErrorResponse, 401: ErrorResponse, 404: ErrorResponse, 409: ErrorResponse };

/** Operators set public challenges: each change in the audit log; once started, only a later end. */
export const operatorChallengeRoutes: FastifyPluginAsyncTypebox = async (app) => {
  const { challenges } = app.services;

  app.post(
    OPERATOR_CHALLENGES_PATH,
    { schema: { body: ChallengeInput, response: { 201: ChallengeItem, ...refusals } } },
    async (request, reply) =>
      reply.status(201).send(await challenges.createPublic(request.body, signedInUser(request).id)),
  );

  app.put(
    operatorChallengePath(":id"),
    {
      schema: {
        params: ChallengeParams,
        body: ChallengeInput,
        response: { 200: ChallengeItem, ...refusals },
      },
    },
    async (request) => challenges.editPublic(request.params.id, request.body, signedInUser(request).id),
  );

  app.delete(
    operatorChallengePath(":id"),
    { schema: { params: ChallengeParams, response: { 204: NoContent, ...refusals } } },
    async (request, reply) => {
      await challenges.cancelPublic(request.params.id, signedInUser(request).id);
      return reply.status(204).send(null);
    },
  );
};
