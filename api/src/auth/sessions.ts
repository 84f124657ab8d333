import { SESSION_TTL_DAYS } from "@charity-steps/shared-types";
import type { FastifyReply, FastifyRequest } from "fastify";
import fp from "fastify-plugin";
import { isHttps } from "../config.js";
import { UnauthorizedError } from "../errors.js";
import type { UserRow } from "../repositories/users.js";

export const SESSION_TTL_MS = SESSION_TTL_DAYS * 86_400_000;
/** A rolling session is pushed forward at most this often, so reads don't all become writes. */
const RENEW_AFTER_MS = 60 * 60_000;
/**
 * Between renewals, the session's last use is written at most this often: the device list stays
 * accurate to a few minutes without a write on every request.
 */
const SEEN_AFTER_MS = 5 * 60_000;

export const SESSION_EXPIRED_MESSAGE = "Your session has expired. Please sign in again.";

declare module "fastify" {
  interface FastifyInstance {
    /** preHandler: 401 unless the request carries a valid session; sets `request.user`. */
    requireUser: (request: FastifyRequest, reply: FastifyReply) => Promise<void>;
    sessionCookie: SessionCookie;
  }
  interface FastifyRequest {
    user: UserRow | null;
    /** The stored hash of the session `requireUser` found (which device list entry is "this device"). */
    sessionIdHash: string | null;
    /** When the session's last use is due to be written (set by `requireUser`), else null. */
    sessionSeenAt: number | null;
  }
}

export interface SessionCookie {
  name: string;
  read(request: FastifyRequest): string | undefined;
  /** Opens a new session for `userId`, closing the one the request came with (id rotation). */
  signIn(request: FastifyRequest, reply: FastifyReply, userId: string): Promise<void>;
  signOut(request: FastifyRequest, reply: FastifyReply): Promise<void>;
}

/** Server-side sessions: random 256-bit id in an httpOnly cookie, its hash in the database. */
export const sessionsPlugin = fp(
  async (app) => {
    const secure = isHttps(app.config);
    // The __Host- prefix pins the cookie to this origin, but browsers accept it only over https.
    const name = secure ? "__Host-cs_session" : "cs_session";
    const cookieOptions = { path: "/", httpOnly: true, sameSite: "lax", secure } as const;
    const { sessions } = app.repositories;

    const setCookie = (reply: FastifyReply, token: string, expiresAt: number) =>
      reply.setCookie(name, token, { ...cookieOptions, expires: new Date(expiresAt) });

    const sessionCookie: SessionCookie = {
      name,
      read: (request) => request.cookies[name] || undefined,
      async signIn(request, reply, userId) {
        const previous = sessionCookie.read(request);
        if (previous) await sessions.close(previous);
        const userAgent = request.headers["user-agent"] ?? null;
        const { token, expiresAt } = await sessions.open(userId, SESSION_TTL_MS, Date.now(), userAgent);
        setCookie(reply, token, expiresAt);
      },
      async signOut(request, reply) {
        const token = sessionCookie.read(request);
        if (token) await sessions.close(token);
        reply.clearCookie(name, cookieOptions);
      },
    };

    app.decorate("sessionCookie", sessionCookie);
    app.decorateRequest("user", null);
    app.decorateRequest("sessionIdHash", null);
    app.decorateRequest("sessionSeenAt", null);
    // Written once the answer is known: a refused request changes nothing stored, its session's
    // last use included. Before the answer leaves, so the next request already sees it.
    app.addHook("onSend", async (request, reply, payload) => {
      const { sessionIdHash, sessionSeenAt } = request;
      if (sessionIdHash && sessionSeenAt !== null && reply.statusCode < 400) {
        await sessions.markSeen(sessionIdHash, sessionSeenAt);
      }
      return payload;
    });
    app.decorate("requireUser", async (request: FastifyRequest, reply: FastifyReply) => {
      const token = sessionCookie.read(request);
      if (!token) throw new UnauthorizedError();
      const now = Date.now();
      const session = await sessions.findValid(token);
      if (!session) {
        reply.clearCookie(name, cookieOptions);
        throw new UnauthorizedError(SESSION_EXPIRED_MESSAGE);
      }
      if (now - session.renewedAt >= RENEW_AFTER_MS) {
        const expiresAt = now + SESSION_TTL_MS;
        await sessions.renew(session.idHash, expiresAt, now);
        setCookie(reply, token, expiresAt);
      } else if (now - session.lastSeenAt >= SEEN_AFTER_MS) {
        request.sessionSeenAt = now;
      }
      request.user = session.user;
      request.sessionIdHash = session.idHash;
    });
  },
  { name: "sessions", dependencies: ["config", "data", "@fastify/cookie"] },
);

/** The walker `requireUser` found; for handlers behind it. */
export function signedInUser(request: FastifyRequest): UserRow {
  if (!request.user) throw new UnauthorizedError();
  return request.user;
}
