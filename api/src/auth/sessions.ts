import { createHash, randomBytes } from "node:crypto";
import { londonDateTime, SESSION_TTL_DAYS } from "@charity-steps/shared-types";
import Bowser from "bowser";
import type { FastifyReply, FastifyRequest } from "fastify";
import fp from "fastify-plugin";
import { isHttps } from "../config.js";
import { UnauthorizedError } from "../errors.js";
import type { UserRow } from "../repositories/users.js";

export const SESSION_TTL_MS = SESSION_TTL_DAYS * 86_400_000;
/** How long a browser is remembered as one a walker signed in from, after its last sign-in. */
const DEVICE_COOKIE_MAX_AGE_S = 400 * 86_400;

/** "Chrome on Android", from a browser's User-Agent; "Unknown browser" when there is none to read. */
export function describeBrowser(userAgent: string | null): string {
  if (!userAgent?.trim()) return "Unknown browser";
  const { browser, os } = Bowser.parse(userAgent);
  if (browser.name && os.name) return `${browser.name} on ${os.name}`;
  return browser.name || os.name || "Unknown browser";
}
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
    // A random id per browser, kept across sign-outs: a sign-in from a browser without one a
    // walker signed in with before is news to them. (The built-in provider's `cs_device` is another
    // thing: it shields a browser from lockouts meant for strangers.)
    const deviceName = secure ? "__Host-cs_browser" : "cs_browser";
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
        const now = Date.now();
        const { token, expiresAt } = await sessions.open(userId, SESSION_TTL_MS, now, userAgent);
        setCookie(reply, token, expiresAt);
        await noteDevice(request, reply, userId, userAgent, now);
      },
      async signOut(request, reply) {
        const token = sessionCookie.read(request);
        if (token) await sessions.close(token);
        reply.clearCookie(name, cookieOptions);
      },
    };

    /** Remembers the browser for the walker, and tells them when it is one they never signed in from. */
    const noteDevice = async (
      request: FastifyRequest,
      reply: FastifyReply,
      userId: string,
      userAgent: string | null,
      now: number,
    ) => {
      const held = request.cookies[deviceName];
      const device = held && /^[A-Za-z0-9_-]{43}$/.test(held) ? held : randomBytes(32).toString("base64url");
      reply.setCookie(deviceName, device, { ...cookieOptions, maxAge: DEVICE_COOKIE_MAX_AGE_S });
      const hash = createHash("sha256").update(device).digest("base64url");
      const { newDevice, seenBefore } = await sessions.rememberDevice(userId, hash, now);
      if (!newDevice || !seenBefore) return;
      await app.services.notifier.tell({
        userId,
        kind: "new_sign_in",
        eventKey: hash,
        title: "New sign-in to your account",
        body: `${describeBrowser(userAgent)} signed in to your account on ${londonDateTime(now)} (London time). If it was not you, change your password and sign out of your other devices on the Account page.`,
        url: "/account",
      });
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
