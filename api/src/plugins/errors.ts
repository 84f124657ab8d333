import { PHOTO_TOO_LARGE_MESSAGE } from "@charity-steps/shared-types";
import type { FastifyError } from "fastify";
import fp from "fastify-plugin";
import { AppError, BusyError } from "../errors.js";
import { describeValidationErrors } from "./validation-messages.js";

export const BODY_TOO_LARGE_MESSAGE = "The request body is larger than this request takes.";
export const UNSUPPORTED_BODY_MESSAGE =
  "This request does not take a body of that type: send JSON (application/json), or a photo as a form (multipart/form-data) where one is asked for.";

/** Messages for the refusals that libraries raise with their own wording (bodies, multipart uploads). */
const LIBRARY_MESSAGES: Record<string, string> = {
  FST_ERR_CTP_BODY_TOO_LARGE: BODY_TOO_LARGE_MESSAGE,
  FST_ERR_CTP_INVALID_MEDIA_TYPE: UNSUPPORTED_BODY_MESSAGE,
  FST_REQ_FILE_TOO_LARGE: PHOTO_TOO_LARGE_MESSAGE,
  FST_FILES_LIMIT: "Please send one image only.",
  FST_FIELDS_LIMIT: "The form has more fields than this request takes.",
  FST_PARTS_LIMIT: "The form has more fields than this request takes.",
  FST_PROTO_VIOLATION: "The form has a field name that is not allowed.",
};

export const SERVER_ERROR_MESSAGE = "Something went wrong on our side. Please try again in a moment.";

/**
 * The one error handler: every failure answers JSON `{ message }` with its status. Errors the caller
 * caused (4xx) say what was wrong; 5xx are logged with their context and never show internals.
 */
export const errorsPlugin = fp(
  async (app) => {
    app.setErrorHandler<FastifyError>((error, request, reply) => {
      if (error.validation) {
        return reply
          .status(400)
          .send({ message: describeValidationErrors(error.validation, error.validationContext) });
      }
      const status = typeof error.statusCode === "number" && error.statusCode >= 400 ? error.statusCode : 500;
      if (error instanceof BusyError) {
        request.log.warn({ status, reason: error.message }, "request put off");
        return reply.status(status).send({ message: error.message });
      }
      if (status >= 500) {
        request.log.error({ err: error }, "request failed");
        // Our own errors carry messages written for walkers; anything else may leak internals.
        const message = error instanceof AppError ? error.message : SERVER_ERROR_MESSAGE;
        return reply.status(status).send({ message });
      }
      request.log.info({ status, reason: error.message }, "request refused");
      return reply.status(status).send({ message: LIBRARY_MESSAGES[error.code] ?? error.message });
    });
  },
  { name: "errors" },
);
