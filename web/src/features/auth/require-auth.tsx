import { type ReactNode, useEffect } from "react";
import { LoadingSpinner } from "../../components/loading-spinner";
import { announceSignedOutAndRedirect } from "../../lib/unauthorized";
import { useAuth } from "../../lib/use-auth";
import { AuthUnavailable } from "./auth-unavailable";
import { LoginRequired } from "./login-required";

/**
 * A signed-in screen. Signed out, the visitor sees the Log In Required prompt while the
 * 'Unauthorized' toast shows and the redirect to sign in runs.
 */
export function RequireAuth({ children }: { children: ReactNode }) {
  const { isLoading, isAuthenticated, error, retry } = useAuth();
  if (isLoading) return <LoadingSpinner />;
  if (isAuthenticated) return children;
  if (error) return <AuthUnavailable onRetry={retry} />;
  return <SignedOut />;
}

function SignedOut() {
  useEffect(() => announceSignedOutAndRedirect(), []);
  return <LoginRequired />;
}
