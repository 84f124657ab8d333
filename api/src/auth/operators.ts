import type { FastifyReply, FastifyRequest } from "fastify";
import fp from "fastify-plugin";
import type { AppConfig } from "../config.js";
import { NotFoundError } from "../errors.js";
import type { UserRow } from "../repositories/users.js";

declare module "fastify" {
  interface FastifyInstance {
    /**
     * preHandler for the operator API: 401 when signed out; 404 for a walker who is not an
     * operator, so that the API's existence is not revealed to them.
     */
    requireOperator: (request: FastifyRequest, reply: FastifyReply) => Promise<void>;
  }
}

/** What a walker who is not an operator is told about any operator route. */
export const NOT_FOUND_MESSAGE = "Not found";

/**
 * An operator is a walker whose email is in OPERATOR_EMAILS and confirmed: an email nobody has
 * proved they own (typed at sign-up, or sent by a provider that does not vouch for it) could be
 * anyone's, so it grants nothing. Nor does an address a built-in account moved to later: a walker
 * could ask to move to the operator's address and wait for one click on the mailed link. Only the
 * operator's own account, signed up with the address and confirmed from it, is an operator.
 */
export function isOperator(config: Pick<AppConfig, "operatorEmails">, user: UserRow): boolean {
  if (user.email === null || user.email_verified_at === null || user.email_changed_at !== null) return false;
  return config.operatorEmails.includes(user.email.trim().toLowerCase());
}

export const operatorsPlugin = fp(
  async (app) => {
    app.decorate("requireOperator", async (request: FastifyRequest, reply: FastifyReply) => {
      await app.requireUser(request, reply);
      if (!request.user || !isOperator(app.config, request.user)) throw new NotFoundError(NOT_FOUND_MESSAGE);
    });
  },
  { name: "operators", dependencies: ["config", "sessions"] },
);
