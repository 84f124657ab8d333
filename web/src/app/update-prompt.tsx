import { RefreshCw, X } from "lucide-react";
import { useServiceWorkerUpdate } from "../lib/service-worker";

/** "New version available" banner; the new service worker waits until the walker says Reload. */
export function UpdatePrompt() {
  const { updateAvailable, reload, dismiss } = useServiceWorkerUpdate();
  if (!updateAvailable) return null;

  return (
    <div
      role="status"
      className="fixed inset-x-0 bottom-[calc(var(--tab-bar-height)+env(safe-area-inset-bottom)+0.75rem)] z-40 mx-auto flex w-[calc(100%-2rem)] max-w-md flex-wrap items-center gap-3 rounded-xl border border-line bg-surface p-3 shadow-lg"
    >
      <RefreshCw aria-hidden="true" className="size-5 shrink-0 text-brand" />
      {/* The sentence keeps a readable width; at large text the buttons move under it. */}
      <p className="min-w-0 flex-[1_1_10rem] text-sm">A new version of Charity Steps is available.</p>
      <button type="button" className="btn-primary px-3 py-1.5 text-sm" onClick={() => void reload()}>
        Reload
      </button>
      <button
        type="button"
        aria-label="Dismiss"
        className="rounded-md p-1 text-muted hover:text-ink"
        onClick={dismiss}
      >
        <X aria-hidden="true" className="size-4" />
      </button>
    </div>
  );
}
