import fp from "fastify-plugin";
import { AppError } from "../errors.js";

/**
 * The largest JSON body any route takes: the biggest (a group's name and description, every
 * character escaped as `\uXXXX`) is a few kilobytes. A larger one is refused unread.
 */
export const JSON_BODY_LIMIT = 16 * 1024;

/** The deepest nesting of arrays and objects a JSON body may have: the API's bodies are flat. */
export const JSON_MAX_DEPTH = 16;

export const TOO_DEEP_MESSAGE = `The JSON body is nested more than ${JSON_MAX_DEPTH} levels deep.`;

/**
 * How deeply `text` nests arrays and objects, counted up to `limit + 1` without building anything;
 * brackets inside strings are skipped. Malformed text is left for the parser to refuse.
 */
export function jsonDepthExceeds(text: string, limit: number): boolean {
  let depth = 0;
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const code = text.charCodeAt(i);
    if (inString) {
      if (code === 0x5c)
        i++; // backslash: the next character is escaped
      else if (code === 0x22) inString = false;
    } else if (code === 0x22) {
      inString = true;
    } else if (code === 0x5b || code === 0x7b) {
      if (++depth > limit) return true;
    } else if (code === 0x5d || code === 0x7d) {
      depth--;
    }
  }
  return false;
}

/**
 * JSON bodies as Fastify parses them (prototype-poisoning checks included), within a few kilobytes
 * and a few levels of nesting, except that an empty body is no body: the spec's client sends
 * `POST /api/daily-reset` with the JSON header only. Routes that need a body still refuse a missing
 * one through their schema.
 */
export const jsonBodyPlugin = fp(
  async (app) => {
    const parseJson = app.getDefaultJsonParser("error", "error");
    // No route reads plain text: JSON sent as text/plain is a 415, as any other type the API does
    // not take, not a string that then fails the route's schema with a puzzling 400.
    app.removeContentTypeParser("text/plain");
    app.removeContentTypeParser("application/json");
    app.addContentTypeParser(
      "application/json",
      { parseAs: "string", bodyLimit: JSON_BODY_LIMIT },
      (request, body, done) => {
        const text = body.toString();
        if (text === "") return done(null, undefined);
        if (jsonDepthExceeds(text, JSON_MAX_DEPTH)) return done(new AppError(400, TOO_DEEP_MESSAGE));
        return parseJson(request, text, done);
      },
    );
  },
  { name: "json-body" },
);
