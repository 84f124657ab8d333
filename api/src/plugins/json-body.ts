import fp from "fastify-plugin";

/**
 * JSON bodies as Fastify parses them (prototype-poisoning checks included), except that an empty
 * body is no body: the spec's client sends `POST /api/daily-reset` with the JSON header only.
 * Routes that need a body still refuse a missing one through their schema.
 */
export const jsonBodyPlugin = fp(
  async (app) => {
    const parseJson = app.getDefaultJsonParser("error", "error");
    app.removeContentTypeParser("application/json");
    app.addContentTypeParser("application/json", { parseAs: "string" }, (request, body, done) => {
      if (body === "") return done(null, undefined);
      return parseJson(request, body.toString(), done);
    });
  },
  { name: "json-body" },
);
