import { createHmac, randomBytes, timingSafeEqual } from "node:crypto";
import type { FastifyReply, FastifyRequest } from "fastify";

/**
 * Device cookies (OWASP's answer to targeted lockout): a browser that signed in to an account keeps
 * a cookie naming that account, so that failures from other places, which lock the account's
 * email for strangers, never lock out the browser its owner uses. A device cookie has a lockout of
 * its own, for guesses made from it.
 *
 * The cookie holds up to a few entries (a shared family tablet signs in to several accounts), each
 * `nonce.mac`, where the MAC covers the nonce and the lower-cased email: the email is not in the
 * cookie, and an entry made for one account proves nothing for another.
 */
export const DEVICE_COOKIE = "cs_device";
/** Long enough to outlast the gaps between a walker's sign-ins. */
export const DEVICE_COOKIE_MAX_AGE_S = 365 * 24 * 60 * 60;
/** Entries kept per browser; the oldest goes first. */
export const DEVICE_COOKIE_ENTRIES = 4;

const ENTRY = /^[A-Za-z0-9_-]{22}\.[A-Za-z0-9_-]{43}$/;

export class DeviceCookies {
  constructor(
    private readonly key: string,
    private readonly secure: boolean,
  ) {}

  /**
   * The nonce of this browser's entry for `email`, when it has one this server made; else null.
   * The nonce names the device in the throttle.
   */
  trustedFor(request: FastifyRequest, email: string): string | null {
    for (const entry of this.entries(request)) {
      const [nonce = "", mac = ""] = entry.split(".");
      if (this.matches(mac, this.mac(nonce, email))) return nonce;
    }
    return null;
  }

  /** After a sign-in as `email`: this browser's entry for it, kept first, the cookie renewed. */
  remember(request: FastifyRequest, reply: FastifyReply, email: string): void {
    const known = this.trustedFor(request, email);
    const nonce = known ?? randomBytes(16).toString("base64url");
    const entry = `${nonce}.${this.mac(nonce, email)}`;
    const others = this.entries(request).filter((other) => other !== entry);
    reply.setCookie(DEVICE_COOKIE, [entry, ...others].slice(0, DEVICE_COOKIE_ENTRIES).join("~"), {
      path: "/",
      httpOnly: true,
      sameSite: "lax",
      secure: this.secure,
      maxAge: DEVICE_COOKIE_MAX_AGE_S,
    });
  }

  private entries(request: FastifyRequest): string[] {
    const value = request.cookies[DEVICE_COOKIE] ?? "";
    return value
      .split("~")
      .filter((entry) => ENTRY.test(entry))
      .slice(0, DEVICE_COOKIE_ENTRIES);
  }

  private mac(nonce: string, email: string): string {
    return createHmac("sha256", this.key)
      .update(`${nonce}|${email.trim().toLowerCase()}`)
      .digest("base64url");
  }

  private matches(given: string, expected: string): boolean {
    const a = Buffer.from(given);
    const b = Buffer.from(expected);
    return a.length === b.length && timingSafeEqual(a, b);
  }
}
