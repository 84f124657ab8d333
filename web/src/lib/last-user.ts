import type { AuthUser } from "@charity-steps/shared-types";

/**
 * The walker last seen signed in on this device, so the app still opens for them with no signal.
 * Forgotten as soon as the server says nobody is signed in here (a 401, or the landing page served
 * to a browser with no session).
 */
const LAST_USER_KEY = "charity-steps:last-user";

export function rememberUser(user: AuthUser | null): void {
  try {
    if (user) localStorage.setItem(LAST_USER_KEY, JSON.stringify(user));
    else localStorage.removeItem(LAST_USER_KEY);
  } catch {
    // Storage refused (private mode, quota): the app works online without it.
  }
}

export function lastUser(): AuthUser | null {
  try {
    const saved = localStorage.getItem(LAST_USER_KEY);
    return saved ? (JSON.parse(saved) as AuthUser) : null;
  } catch {
    return null;
  }
}

/** True when a walker was signed in on this device last time (the app will most likely open for them). */
export function wasSignedInHere(): boolean {
  return lastUser() !== null;
}
