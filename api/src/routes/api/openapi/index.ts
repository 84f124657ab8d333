import fastifySwagger from "@fastify/swagger";
import type { FastifyPluginAsyncTypebox } from "@fastify/type-provider-typebox";
import fp from "fastify-plugin";

export const OPENAPI_PATH = "/api/openapi.json";

/**
 * The API reference, generated from the schemas every route declares, so that it cannot drift from
 * what the routes accept and answer. Registered before the routes so that it sees each one; only
 * `/api/` routes are listed (the identity provider's pages and the PWA are not the API).
 */
export const openApiPlugin = fp(
  async (app) => {
    await app.register(fastifySwagger, {
      openapi: {
        openapi: "3.1.0",
        info: {
          title: "Charity Steps API",
          description:
            "Every call needs the session cookie unless it says otherwise; errors are JSON { message }.",
          version: "1.0.0",
        },
      },
      transform: ({ schema, url }) => ({
        schema: url.startsWith("/api/") ? schema : { ...schema, hide: true },
        url,
      }),
    });
  },
  { name: "openapi" },
);

/** Serves the generated reference; public, like any API's documentation. */
export const openApiRoutes: FastifyPluginAsyncTypebox = async (app) => {
  app.get(OPENAPI_PATH, { schema: { hide: true } }, async (_request, reply) =>
    reply.header("cache-control", "no-cache").send(app.swagger()),
  );
};
