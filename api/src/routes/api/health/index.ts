import { HealthResponse } from "@charity-steps/shared-types";
import type { FastifyPluginAsyncTypebox } from "@fastify/type-provider-typebox";

/** Liveness and readiness for the reverse proxy and orchestrators: answers only if the database does. */
export const healthRoutes: FastifyPluginAsyncTypebox = async (app) => {
  app.get("/api/health", { schema: { response: { 200: HealthResponse } } }, async (_request, reply) => {
    const database = await app.repositories.health.check();
    return reply.header("cache-control", "no-store").send({ status: "ok", database });
  });
};
