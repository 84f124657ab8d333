import { Ajv, type ErrorObject } from "ajv";
import addFormats from "ajv-formats";
import fastJson from "fast-json-stringify";
import fp from "fastify-plugin";

// verbose: an error carries the schema it broke, so a field's own `errorMessage` (a sentence that
// states its whole rule, such as a range) can be told instead of the one bound it missed.
const ajv = (coerceTypes: boolean) => {
  const validator = new Ajv({
    coerceTypes,
    removeAdditional: false,
    useDefaults: true,
    allErrors: false,
    verbose: true,
  });
  validator.addKeyword({ keyword: "errorMessage", schemaType: "string" });
  return addFormats.default(validator);
};

/**
 * One validator of each kind per process, not per app: Ajv keeps what it compiled by schema, and
 * every app built in a process (the tests build hundreds) validates with the same schema objects.
 */
const strict = ajv(false);
const coercing = ajv(true);

/** Each answer schema's serializer (fast-json-stringify's, as Fastify's own compiler builds it). */
const serializers = new WeakMap<object, (data: unknown) => string>();

/**
 * Bodies are validated strictly (a "5000" string is not a number of steps, unknown fields are
 * refused); path parameters and query strings arrive as text, so only they are coerced. Validators
 * and answers' serializers are compiled once per process for each schema object (see `strict`):
 * the app has no shared schemas (`addSchema`), so a schema alone decides what it compiles to.
 */
export const validationPlugin = fp(
  async (app) => {
    app.setSerializerCompiler(({ schema }) => {
      const key = schema as object;
      let serialize = serializers.get(key);
      if (!serialize) {
        serialize = fastJson(key);
        serializers.set(key, serialize);
      }
      return serialize;
    });
    app.setValidatorCompiler(({ schema, httpPart }) => {
      if (httpPart === "body") return strict.compile(schema);
      const validate = coercing.compile(schema);
      // Coercion reads "1e309" as Infinity, which then passes the schema's type and bounds: text
      // that is too large to be a number is refused here as what it is, not a number.
      const checked = (data: unknown) => {
        if (!validate(data)) {
          checked.errors = validate.errors;
          return false;
        }
        const field = nonFiniteField(data);
        checked.errors = field === undefined ? null : [notANumber(field)];
        return field === undefined;
      };
      checked.errors = null as ErrorObject[] | null | undefined;
      return checked;
    });
  },
  { name: "validation" },
);

/** The first field of a coerced object that holds a number that is not finite. */
function nonFiniteField(data: unknown): string | undefined {
  if (data === null || typeof data !== "object") return undefined;
  for (const [field, value] of Object.entries(data)) {
    if (typeof value === "number" && !Number.isFinite(value)) return field;
  }
  return undefined;
}

function notANumber(field: string): ErrorObject {
  return {
    keyword: "type",
    instancePath: `/${field}`,
    schemaPath: "#/type",
    params: { type: "number" },
    message: "must be a number",
  };
}
