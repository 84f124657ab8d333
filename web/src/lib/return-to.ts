import { GROUP_JOIN_LINK_PREFIX } from "@charity-steps/shared-types";

/** Where to go back to after signing in, for this tab only. */
const RETURN_TO_KEY = "charity-steps:return-to";

/**
 * Only a group's join link or a challenge's page is ever returned to: a path on this site, never an
 * address from outside.
 */
function isReturnable(path: string): boolean {
  if (/^\/challenges\/[0-9a-f-]{36}$/.test(path)) return true;
  return /^\/groups\/join\/[A-Za-z0-9%\s-]{1,64}$/.test(path) && path.startsWith(GROUP_JOIN_LINK_PREFIX);
}

/** Keeps `path` for after sign-in; anything not returnable is ignored. */
export function rememberReturnTo(path: string): void {
  if (!isReturnable(path)) return;
  try {
    sessionStorage.setItem(RETURN_TO_KEY, path);
  } catch {
    // Storage refused: the walker lands on the dashboard and opens the link again.
  }
}

/** The path kept before sign-in, if any. The page it leads to forgets it (`forgetReturnTo`). */
export function returnTo(): string | null {
  try {
    const path = sessionStorage.getItem(RETURN_TO_KEY);
    return path !== null && isReturnable(path) ? path : null;
  } catch {
    return null;
  }
}

export function forgetReturnTo(): void {
  try {
    sessionStorage.removeItem(RETURN_TO_KEY);
  } catch {
    // Nothing was kept.
  }
}
