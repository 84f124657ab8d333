import { Ajv } from "ajv";
import addFormats from "ajv-formats";
import fp from "fastify-plugin";

/**
 * Bodies are validated strictly (a "5000" string is not a number of steps, unknown fields are
 * refused); path parameters and query strings arrive as text, so only they are coerced.
 */
export const validationPlugin = fp(
  async (app) => {
    const strict = addFormats.default(
      new Ajv({ coerceTypes: false, removeAdditional: false, useDefaults: true, allErrors: false }),
    );
    const coercing = addFormats.default(
      new Ajv({ coerceTypes: true, removeAdditional: false, useDefaults: true, allErrors: false }),
    );
    app.setValidatorCompiler(({ schema, httpPart }) =>
      (httpPart === "body" ? strict : coercing).compile(schema),
    );
  },
  { name: "validation" },
);
