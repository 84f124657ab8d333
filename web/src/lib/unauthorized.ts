import { LOGIN_PATH, UNAUTHORIZED_REDIRECT_DELAY_MS } from "@charity-steps/shared-types";
import { isUnauthorizedError } from "./api-client";
import { navigateTo } from "./browser-location";
import { loadToaster } from "./toast-host";
import { toast } from "./toast-store";

/** Never hold the redirect back longer than this waiting for the toast's code. */
const TOASTER_WAIT_LIMIT_MS = 3_000;

/**
 * Tells the walker their session has ended, then sends them to sign in after a short pause.
 * Returns a function that cancels the redirect (e.g. when the screen unmounts).
 */
export function announceSignedOutAndRedirect(): () => void {
  toast({
    title: "Unauthorized",
    description: "You are logged out. Logging in again...",
    variant: "destructive",
  });
  // The 500 ms start once the toast can show: on a slow connection its code may still be loading.
  let cancelled = false;
  let timer: ReturnType<typeof setTimeout> | undefined;
  const startTimer = () => {
    if (!cancelled) timer = setTimeout(() => navigateTo(LOGIN_PATH), UNAUTHORIZED_REDIRECT_DELAY_MS);
  };
  void Promise.race([
    loadToaster(),
    new Promise((resolve) => setTimeout(resolve, TOASTER_WAIT_LIMIT_MS)),
  ]).then(startTimer, startTimer);
  return () => {
    cancelled = true;
    clearTimeout(timer);
  };
}

/**
 * For mutations' onError: when the error means the session ended, announce it and redirect to
 * sign in, returning true; otherwise return false and let the screen show its own error toast.
 */
export function handleUnauthorizedError(error: unknown): boolean {
  if (!isUnauthorizedError(error)) return false;
  announceSignedOutAndRedirect();
  return true;
}
