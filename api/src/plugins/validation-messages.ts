import { CONTROL_CHARACTERS_MESSAGE, formatNumber, TEXT_PATTERNS } from "@charity-steps/shared-types";
import type { FastifySchemaValidationError } from "fastify/types/schema.js";

/**
 * Turns Ajv's findings into one sentence a person can act on, naming the field by its path:
 * "steps must be at most 50,000", "date is required", "colour is not a field this request takes".
 */
export function describeValidationErrors(errors: FastifySchemaValidationError[], context?: string): string {
  const first = errors[0];
  if (!first) return "The request is not valid.";
  const field = fieldName(first, context);
  const params = first.params as Record<string, unknown>;
  // A query's or a path's field given twice (`?start=a&start=b`) arrives as a list of them.
  if (
    first.keyword === "type" &&
    Array.isArray((first as { data?: unknown }).data) &&
    context !== undefined &&
    context !== "body"
  ) {
    return `${field} must be given once.`;
  }
  // A field whose schema states its rule in a sentence (`errorMessage`) is told that rule.
  const rule = (first as { parentSchema?: { errorMessage?: unknown } }).parentSchema?.errorMessage;
  if (typeof rule === "string" && first.keyword !== "required" && first.keyword !== "additionalProperties") {
    return `${field} ${rule}.`;
  }
  switch (first.keyword) {
    case "required":
      return `${join(field, String(params.missingProperty))} is required.`;
    case "additionalProperties":
      return `${join(field, String(params.additionalProperty))} ${NOT_A_FIELD}`;
    case "type":
      return `${field} must be ${typeNames(params.type)}.`;
    case "minimum":
      return `${field} must be at least ${limitText(params.limit)}.`;
    case "maximum":
      return `${field} must be at most ${limitText(params.limit)}.`;
    case "minLength":
      return `${field} must not be empty.`;
    case "maxLength":
      return `${field} must be at most ${limitText(params.limit)} characters.`;
    case "minProperties":
      return `${field} must have at least ${limitText(params.limit)} ${plural(params.limit, "field")}.`;
    case "multipleOf":
      return `${field} must be a multiple of ${limitText(params.multipleOf)}.`;
    case "minItems":
      return `${field} must hold at least ${limitText(params.limit)} ${plural(params.limit, "item")}.`;
    case "maxItems":
      return `${field} must hold at most ${limitText(params.limit)} ${plural(params.limit, "item")}.`;
    case "pattern":
      if (TEXT_PATTERNS.includes(String(params.pattern))) return `${field} ${CONTROL_CHARACTERS_MESSAGE}.`;
      return `${field} is not in the expected format.`;
    case "format":
      if (params.format === "email") return `${field} must be an email address, such as name@example.com.`;
      return `${field} is not in the expected format.`;
    case "enum":
      return `${field} must be one of: ${(params.allowedValues as unknown[]).join(", ")}.`;
    case "const":
      return `${field} must be ${JSON.stringify(params.allowedValue)}.`;
    default:
      return `${field} ${first.message ?? "is not valid"}.`;
  }
}

function fieldName(error: FastifySchemaValidationError, context?: string): string {
  const path = error.instancePath.replace(/^\//, "").replaceAll("/", ".");
  if (path) return path;
  return context === "body" || context === undefined ? "The request body" : `The ${context}`;
}

/** Longest name of a caller's own field repeated back in a message; a longer one is cut short. */
const FIELD_NAME_SHOWN_MAX = 40;

function join(parent: string, child: string): string {
  const shown = callersFieldName(child);
  return parent.startsWith("The ") ? shown : `${parent}.${shown}`;
}

/**
 * A field name the caller made up (a field this request does not take), as a message shows it: not
 * echoed whole, and cut between characters (code points), never inside an emoji's two UTF-16 units.
 */
function callersFieldName(name: string): string {
  const characters = [...name];
  if (characters.length <= FIELD_NAME_SHOWN_MAX) return name;
  return `${characters.slice(0, FIELD_NAME_SHOWN_MAX).join("")}…`;
}

const NOT_A_FIELD = "is not a field this request takes.";

/** What a request is told of a top-level field it sent that it does not take. */
export function notAField(name: string): string {
  return `${callersFieldName(name)} ${NOT_A_FIELD}`;
}

/** JSON's types as a person names them: "a whole number", "text", "true or false". */
const TYPE_NAMES: Record<string, string> = {
  integer: "a whole number",
  number: "a number",
  string: "text",
  boolean: "true or false",
  object: "an object",
  array: "a list",
  null: "null",
};

/** One type, or several ("string,null" from a schema that takes either), in words. */
function typeNames(types: unknown): string {
  return String(types)
    .split(",")
    .map((type) => TYPE_NAMES[type] ?? type)
    .join(" or ");
}

function plural(count: unknown, noun: string): string {
  return count === 1 ? noun : `${noun}s`;
}

function limitText(value: unknown): string {
  return typeof value === "number" ? formatNumber(value) : String(value);
}
