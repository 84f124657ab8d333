import { OPERATOR_API_PREFIX } from "@charity-steps/shared-types";
import fastifySwagger from "@fastify/swagger";
import type { FastifyPluginAsyncTypebox } from "@fastify/type-provider-typebox";
import fp from "fastify-plugin";
import { isOperator } from "../../../auth/operators.js";

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

/**
 * Serves the generated reference: public, like any API's documentation, but for the operators'
 * routes, which only an operator is shown (anyone else finds nothing at them, and learns nothing
 * of them here).
 */
export const openApiRoutes: FastifyPluginAsyncTypebox = async (app) => {
  const { sessions } = app.repositories;
  app.get(OPENAPI_PATH, { schema: { hide: true } }, async (request, reply) => {
    const token = app.sessionCookie.read(request);
    const session = token ? await sessions.findValid(token) : undefined;
    const document = app.swagger() as { paths?: Record<string, unknown> };
    const shown =
      session && isOperator(app.config, session.user)
        ? document
        : {
            ...document,
            paths: Object.fromEntries(
              Object.entries(document.paths ?? {}).filter(([path]) => !path.startsWith(OPERATOR_API_PREFIX)),
            ),
          };
    // The answer depends on who asks: no shared cache may keep one walker's for another.
    return reply.header("cache-control", "private, no-cache").header("vary", "cookie").send(shown);
  });
};
