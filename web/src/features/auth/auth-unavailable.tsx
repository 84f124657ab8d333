import { CloudOff } from "lucide-react";

/**
 * The server could not say whether the walker is signed in (offline or failing). Sending them to
 * sign in would fail the same way, so they are offered a retry instead.
 */
export function AuthUnavailable({ onRetry }: { onRetry: () => void }) {
  return (
    <div className="mx-auto w-full max-w-md px-4 py-10">
      <section className="card p-6 text-center" aria-labelledby="auth-unavailable-title">
        <CloudOff aria-hidden="true" className="mx-auto mb-4 size-10 text-muted" />
        <h1 id="auth-unavailable-title" className="text-xl font-bold">
          Can't reach Charity Steps
        </h1>
        <p className="mt-2 text-muted">Check your connection and try again.</p>
        <button type="button" className="btn-primary mt-6 w-full" onClick={onRetry}>
          Try Again
        </button>
      </section>
    </div>
  );
}
