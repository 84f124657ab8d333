import { Check, Copy } from "lucide-react";
import { useClipboard } from "../../lib/use-clipboard";

/** Copies a group's join code; a check shows for 2 s. */
export function JoinCodeButton({ code }: { code: string }) {
  const { copied, copy } = useClipboard();

  return (
    <button
      type="button"
      className="inline-flex items-center gap-1 rounded-md border border-line bg-surface px-2 py-1 font-mono text-sm"
      aria-label={`Copy join code ${code}`}
      onClick={() =>
        copy(code, {
          done: { title: "Copied!", description: "Join code copied to clipboard" },
          refused: { title: "Error", description: `Could not copy. The code is ${code}.` },
        })
      }
    >
      {code}
      {copied ? (
        <Check aria-hidden="true" className="size-4 text-brand-strong" data-testid="copied-check" />
      ) : (
        <Copy aria-hidden="true" className="size-4 text-muted" />
      )}
    </button>
  );
}
