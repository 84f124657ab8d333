import ipaddr from "ipaddr.js";
import type { SignInThrottleRepository, SignInWait } from "../../repositories/sign-in-throttle.js";

/**
 * Sign-in attempts that did not succeed, per 15 minutes: 5 for one email from one
 * network address, 50 for one email from anywhere, 20 from one address for any emails. Past a
 * limit, sign-in under it waits for the rest of the 15 minutes.
 */
export const SIGN_IN_THROTTLE = {
  windowMs: 15 * 60_000,
  perEmailAndAddress: 5,
  perEmail: 50,
  perAddress: 20,
  /**
   * Sign-ins begun (each stores a pending sign-in at the provider for an hour) from one address,
   * whether or not they finish: far above a household's, a bound on a visitor filling the database.
   */
  startsPerAddress: 60,
} as const;

export const tooManySignInStartsMessage = (minutes: number) =>
  `Too many sign-ins have been started from your network. Please wait ${minutes} minute${minutes === 1 ? "" : "s"} and try again.`;

export const tooManyAttemptsMessage = (minutes: number) =>
  `Too many sign-in attempts. To keep this account safe, please wait ${minutes} minute${minutes === 1 ? "" : "s"} and try again.`;

/**
 * The network a request comes from, as the throttles count it: an IPv4 address (an IPv4 address
 * written as IPv6 included), or the /64 of an IPv6 address, since one home or server is given a
 * whole /64 and could otherwise count as billions of places.
 */
export function networkOf(ip: string): string {
  if (!ipaddr.isValid(ip)) return ip;
  const address = ipaddr.process(ip);
  if (address.kind() === "ipv4") return address.toString();
  const prefix = (address as ipaddr.IPv6).parts.slice(0, 4);
  return `${new ipaddr.IPv6([...prefix, 0, 0, 0, 0]).toString()}/64`;
}

/**
 * The sign-in throttle's counters for one attempt: by email and by the network address it comes
 * from. The attempt is counted before its password is checked.
 *
 * `trusted` names a browser that has shown it signed in to this account before (its device cookie,
 * or the session the walker is using): its attempts count only under that name. Failures from
 * elsewhere, however many, never lock it out, and its own guesses are held to the same 5.
 */
export function signInAttempt(
  throttle: SignInThrottleRepository,
  email: string,
  ip: string,
  trusted: string | null = null,
) {
  const network = networkOf(ip);
  const address = `ip:${network}`;
  const walkerHere = `email+ip:${email.toLowerCase()}|${network}`;
  const keys = trusted
    ? [{ key: trusted, limit: SIGN_IN_THROTTLE.perEmailAndAddress }]
    : [
        // Guessing one walker's password from one place: that place is stopped, the walker is not.
        { key: walkerHere, limit: SIGN_IN_THROTTLE.perEmailAndAddress },
        // Guessing it from many places at once.
        { key: `email:${email.toLowerCase()}`, limit: SIGN_IN_THROTTLE.perEmail },
        // Trying many walkers' passwords from one place.
        { key: address, limit: SIGN_IN_THROTTLE.perAddress },
      ];
  return {
    /** Counts the attempt; the wait when a limit is passed, else null. */
    async count(): Promise<SignInWait | null> {
      const wait = await throttle.attempt(keys);
      if (wait <= 0) return null;
      return { minutes: Math.max(1, Math.ceil(wait / 60_000)), retryAfterSeconds: Math.ceil(wait / 1000) };
    },
    /** The right password: this walker starts afresh here, and the address gets its attempt back. */
    succeeded: () =>
      trusted ? throttle.succeeded([trusted], []) : throttle.succeeded([walkerHere], [address]),
  };
}
