import {
  CHARITY_IMPACT_CACHE_SECONDS,
  CHARITY_IMPACT_PATH,
  CharityImpactQuery,
  CharityImpactResponse,
  ErrorResponse,
  londonMonth,
} from "@charity-steps/shared-types";
import type { FastifyPluginAsyncTypebox } from "@fastify/type-provider-typebox";

/** Public: each charity's walkers and steps in a month, with no one named. */
export const charityImpactRoutes: FastifyPluginAsyncTypebox = async (app) => {
  app.get(
    CHARITY_IMPACT_PATH,
    {
      schema: {
        querystring: CharityImpactQuery,
        response: { 200: CharityImpactResponse, 400: ErrorResponse },
      },
    },
    async (request, reply) => {
      const month = request.query.month ?? londonMonth();
      reply.header("cache-control", `public, max-age=${CHARITY_IMPACT_CACHE_SECONDS}`);
      return app.repositories.charityImpact.month(month);
    },
  );
};
