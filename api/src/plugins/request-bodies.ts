import type { FastifyRequest } from "fastify";
import fp from "fastify-plugin";
import { AppError, NotFoundError } from "../errors.js";
import { notFoundMessage } from "./web-app.js";

/**
 * The largest body of any parser that does not set its own: the sign-in and sign-up forms, whose
 * four fields of up to 1,000 characters each may all be percent-encoded non-ASCII text. JSON has
 * its own, smaller limit (json-body.ts); the photo upload has its own, per part.
 */
export const FORM_BODY_LIMIT = 64 * 1024;

export const NO_BODY_MESSAGE = "This request takes no body.";

/** The request says a body follows it, as Node's HTTP parser reads it (a length, or chunks). */
export function carriesBody(request: FastifyRequest): boolean {
  const { headers } = request;
  if (headers["transfer-encoding"] !== undefined) return true;
  const length = headers["content-length"];
  return length !== undefined && length !== "0";
}

/**
 * A body is read only for a route that takes one. An unknown address is answered 404, and a route
 * whose schema names no body answers 413, before a byte of the body is read or parsed: these run
 * after every onRequest check (cross-site, sign-in, and the identity provider's own endpoints,
 * which read their bodies themselves) and before the content-type parsers.
 *
 * A request answered before its body has all arrived closes its connection after the answer:
 * otherwise Node would keep reading (and discarding) the rest, for as long as the sender cares to
 * take to send it.
 */
export const requestBodiesPlugin = fp(
  async (app) => {
    app.addHook("preParsing", async (request) => {
      if (!carriesBody(request)) return;
      if (request.is404) {
        const path = request.url.split("?")[0] ?? "/";
        throw new NotFoundError(notFoundMessage(request.method, path));
      }
      if (request.routeOptions.schema?.body === undefined) {
        throw new AppError(413, NO_BODY_MESSAGE);
      }
    });

    app.addHook("onSend", async (request, reply) => {
      if (request.raw.complete === false && carriesBody(request)) reply.header("connection", "close");
    });
  },
  { name: "request-bodies" },
);
