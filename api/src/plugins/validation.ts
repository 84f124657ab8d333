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
      const numeric = numericFields(schema);
      // Coercion reads "0x10", "1e2", " 12" and "+5" as numbers: a number in a path or a query is
      // written in digits, and anything else is refused before Ajv reads it. Coercion also reads
      // "1e309" or 400 digits as Infinity, which then passes the schema's type and bounds: text that
      // is too large to be a number is refused as what it is, not a number.
      const checked = (data: unknown) => {
        const notDigits = notWrittenInDigits(data, numeric);
        if (notDigits) {
          checked.errors = [notDigits];
          return false;
        }
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

type NumericField = { type: "integer" | "number"; schema: object };

type PropertySchema = { type?: unknown; anyOf?: PropertySchema[]; oneOf?: PropertySchema[] };

/** The types a property's schema takes: its own, or its union's members' (TypeBox's `Union`). */
function typesOf(schema: PropertySchema): unknown[] {
  if (Array.isArray(schema.type)) return schema.type;
  if (schema.type !== undefined) return [schema.type];
  return [...(schema.anyOf ?? []), ...(schema.oneOf ?? [])].flatMap(typesOf);
}

/**
 * The fields of an object schema that hold only numbers (a path's or a query's parts), by name: a
 * field whose every type is a number, a union of numbers included. A field that may also be text
 * is the schema's to judge.
 */
function numericFields(schema: unknown): Map<string, NumericField> {
  const fields = new Map<string, NumericField>();
  const properties = (schema as { properties?: Record<string, PropertySchema> }).properties ?? {};
  for (const [name, property] of Object.entries(properties)) {
    const types = typesOf(property);
    if (types.length === 0 || !types.every((type) => type === "integer" || type === "number")) continue;
    fields.set(name, { type: types.includes("number") ? "number" : "integer", schema: property });
  }
  return fields;
}

const DIGITS: Record<NumericField["type"], RegExp> = { integer: /^-?\d+$/, number: /^-?\d+(\.\d+)?$/ };

/**
 * The first numeric field whose text is not plain digits, as the error a wrong type makes. It
 * carries its field's schema, so a field that states its rule (`errorMessage`) is told that rule.
 */
function notWrittenInDigits(data: unknown, numeric: Map<string, NumericField>): ErrorObject | undefined {
  if (numeric.size === 0 || data === null || typeof data !== "object") return undefined;
  for (const [field, value] of Object.entries(data)) {
    const expected = numeric.get(field);
    if (!expected || typeof value !== "string" || DIGITS[expected.type].test(value)) continue;
    return { ...notANumber(field, expected.type), parentSchema: expected.schema };
  }
  return undefined;
}

/** The first field of a coerced object that holds a number that is not finite. */
function nonFiniteField(data: unknown): string | undefined {
  if (data === null || typeof data !== "object") return undefined;
  for (const [field, value] of Object.entries(data)) {
    if (typeof value === "number" && !Number.isFinite(value)) return field;
  }
  return undefined;
}

function notANumber(field: string, type: NumericField["type"] = "number"): ErrorObject {
  return {
    keyword: "type",
    instancePath: `/${field}`,
    schemaPath: `#/properties/${field}/type`,
    params: { type },
    message: `must be ${type === "integer" ? "an integer" : "a number"}`,
  };
}
