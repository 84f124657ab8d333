import { randomBytes } from "node:crypto";
import type { FastifyInstance } from "fastify";
import { SESSION_TTL_MS } from "../../src/auth/sessions.js";

/** A walker with an open session, their email confirmed or not, made directly in the database. */
export async function walkerWithEmail(app: FastifyInstance, email: string, confirmed: boolean) {
  const user = await app.repositories.users.upsertFromIdentity({
    issuer: "https://issuer.test",
    subject: randomBytes(8).toString("hex"),
    email,
    firstName: "Olive",
    lastName: "Operator",
    pictureUrl: null,
    emailVerified: confirmed,
  });
  const session = await app.repositories.sessions.open(user.id, SESSION_TTL_MS);
  return { user, cookie: `cs_session=${session.token}` };
}

export const OPERATOR_EMAIL = "olive.operator@example.org";
export const UNCONFIRMED_OPERATOR_EMAIL = "una.unconfirmed@example.org";
/** OPERATOR_EMAILS as the tests' app is given it: mixed case and spaces, to show both are ignored. */
export const OPERATOR_ENV = {
  OPERATOR_EMAILS: ` Olive.Operator@Example.org , ${UNCONFIRMED_OPERATOR_EMAIL}`,
};
