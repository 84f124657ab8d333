import {
  CHALLENGES_PATH,
  ChallengeItem,
  ChallengeLeaderboardQuery,
  ChallengeLeaderboardResponse,
  ChallengeParams,
  ChallengesResponse,
  challengeCertificatePath,
  challengeFundraisingPath,
  challengeJoinPath,
  challengeLeaderboardPath,
  challengeLeavePath,
  challengePath,
  challengePublicPath,
  ErrorResponse,
  FundraisingRequest,
  NoContent,
  PublicChallenge,
} from "@charity-steps/shared-types";
import type { FastifyPluginAsyncTypebox } from "@fastify/type-provider-typebox";
import { Type } from "typebox";
import { signedInUser } from "../../../auth/sessions.js";

const refusals = { 400: ErrorResponse, 401: ErrorResponse, 404: ErrorResponse };
const ID = ":id";

/** Challenges for signed-in walkers: the list, one, joining, the leaderboard, certificates, fundraising. */
export const challengesRoutes: FastifyPluginAsyncTypebox = async (app) => {
  app.addHook("onRequest", app.requireUser);
  const { challenges } = app.services;
  const params = ChallengeParams;

  app.get(
    CHALLENGES_PATH,
    { schema: { response: { 200: ChallengesResponse, 401: ErrorResponse } } },
    async (request) => ({
      items: await challenges.list(signedInUser(request).id),
    }),
  );

  app.get(
    challengePath(ID),
    { schema: { params, response: { 200: ChallengeItem, ...refusals } } },
    async (request) => challenges.item(request.params.id, signedInUser(request).id),
  );

  app.post(
    challengeJoinPath(ID),
    {
      schema: {
        params,
        response: { 200: ChallengeItem, 201: ChallengeItem, ...refusals, 409: ErrorResponse },
      },
    },
    async (request, reply) => {
      const { joined, item } = await challenges.join(request.params.id, signedInUser(request).id);
      return reply.status(joined ? 201 : 200).send(item);
    },
  );

  app.post(
    challengeLeavePath(ID),
    { schema: { params, response: { 200: ChallengeItem, ...refusals } } },
    async (request) => challenges.leave(request.params.id, signedInUser(request).id),
  );

  app.get(
    challengeLeaderboardPath(ID),
    {
      schema: {
        params,
        querystring: ChallengeLeaderboardQuery,
        response: { 200: ChallengeLeaderboardResponse, ...refusals },
      },
    },
    async (request) =>
      challenges.leaderboard(request.params.id, signedInUser(request).id, request.query.cursor),
  );

  app.get(
    challengeCertificatePath(ID),
    {
      schema: {
        params,
        response: {
          200: Type.Unsafe<Buffer>(Type.String({ description: "A PNG image, 1200 × 630" })),
          ...refusals,
          409: ErrorResponse,
          429: ErrorResponse,
        },
      },
    },
    async (request, reply) => {
      const { png, name } = await challenges.certificate(request.params.id, signedInUser(request).id);
      return reply
        .header("content-type", "image/png")
        .header("content-disposition", `attachment; filename="${name}"`)
        .header("cache-control", "private, no-store")
        .send(png);
    },
  );

  app.put(
    challengeFundraisingPath(ID),
    {
      schema: {
        params,
        body: FundraisingRequest,
        response: { 204: NoContent, ...refusals, 409: ErrorResponse },
      },
    },
    async (request, reply) => {
      await challenges.setFundraising(request.params.id, signedInUser(request).id, request.body.url.trim());
      return reply.status(204).send(null);
    },
  );

  app.delete(
    challengeFundraisingPath(ID),
    { schema: { params, response: { 204: NoContent, ...refusals, 409: ErrorResponse } } },
    async (request, reply) => {
      await challenges.setFundraising(request.params.id, signedInUser(request).id, null);
      return reply.status(204).send(null);
    },
  );
};

/** A public challenge's totals, for anyone, signed in or not: no names. */
export const publicChallengeRoutes: FastifyPluginAsyncTypebox = async (app) => {
  app.get(
    challengePublicPath(ID),
    {
      schema: {
        params: ChallengeParams,
        response: { 200: PublicChallenge, 400: ErrorResponse, 404: ErrorResponse },
      },
    },
    async (request, reply) =>
      reply
        .header("cache-control", "no-cache")
        .send(await app.services.challenges.publicView(request.params.id)),
  );
};
