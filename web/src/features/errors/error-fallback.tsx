import { TriangleAlert } from "lucide-react";
import { reloadPage } from "../../lib/browser-location";

/** Shown when a screen fails to render. */
export function ErrorFallback() {
  return (
    <div className="mx-auto w-full max-w-md px-4 py-10">
      <section role="alert" className="card p-6 text-center">
        <TriangleAlert aria-hidden="true" className="mx-auto mb-4 size-10 text-destructive" />
        <h1 className="text-xl font-bold">Something went wrong</h1>
        <p className="mt-2 text-muted">Reloading usually fixes it. Your saved steps are not affected.</p>
        <button type="button" className="btn-primary mt-6 w-full" onClick={reloadPage}>
          Reload Page
        </button>
      </section>
    </div>
  );
}
