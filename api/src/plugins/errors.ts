import type { FastifyError } from "fastify";
import fp from "fastify-plugin";
import { AppError } from "../errors.js";

export const SERVER_ERROR_MESSAGE = "Something went wrong on our side. Please try again in a moment.";

/**
 * The one error handler: every failure answers JSON `{ message }` with its status. Errors the caller
 * caused (4xx) say what was wrong; 5xx are logged with their context and never show internals.
 */
export const errorsPlugin = fp(
  async (app) => {
    app.setErrorHandler<FastifyError>((error, request, reply) => {
      if (error.validation) {
        return reply.status(400).send({ message: `Invalid request: ${error.message}.` });
      }
      const status = typeof error.statusCode === "number" && error.statusCode >= 400 ? error.statusCode : 500;
      if (status >= 500) {
        request.log.error({ err: error }, "request failed");
        // Our own errors carry messages written for walkers; anything else may leak internals.
        const message = error instanceof AppError ? error.message : SERVER_ERROR_MESSAGE;
        return reply.status(status).send({ message });
      }
      request.log.info({ status, reason: error.message }, "request refused");
      return reply.status(status).send({ message: error.message });
    });
  },
  { name: "errors" },
);
