/**
 * Deleting an account ends on the landing page, through the sign-out route (a full page load): the
 * word that it was deleted is kept in the tab's session storage across that load, and said once.
 */
const DELETED_KEY = "charity-steps:account-deleted";

export function rememberAccountDeleted(): void {
  try {
    sessionStorage.setItem(DELETED_KEY, "1");
  } catch {
    // Storage refused: the landing page opens without the word.
  }
}

let deletedThisLoad: boolean | undefined;

/**
 * Whether an account was just deleted in this tab: read (and forgotten) at most once per page load,
 * so the word shows on this visit only, however often the page renders.
 */
export function takeAccountDeleted(): boolean {
  if (deletedThisLoad !== undefined) return deletedThisLoad;
  try {
    deletedThisLoad = sessionStorage.getItem(DELETED_KEY) === "1";
    sessionStorage.removeItem(DELETED_KEY);
  } catch {
    deletedThisLoad = false;
  }
  return deletedThisLoad;
}

/** Tests start each page load afresh. */
export function forgetAccountDeletedForTests(): void {
  deletedThisLoad = undefined;
}
