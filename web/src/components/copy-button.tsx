import { Check, Copy } from "lucide-react";
import { useClipboard } from "../lib/use-clipboard";

/**
 * Copies `value` to the clipboard; a check shows for a moment. `label` names what is copied,
 * for the button's accessible name and the toasts ("Copy the web address").
 */
export function CopyButton({ value, label, what }: { value: string; label: string; what: string }) {
  const { copied, copy } = useClipboard();

  return (
    <button
      type="button"
      className="btn-secondary shrink-0 px-3 py-1.5 text-sm"
      aria-label={label}
      onClick={() =>
        copy(value, {
          done: { title: "Copied!", description: `${what} copied to clipboard` },
          // The text stays on screen and selectable.
          refused: {
            title: "Could not copy",
            description: `Select the ${what.toLowerCase()} and copy it by hand.`,
          },
        })
      }
    >
      {copied ? (
        <Check aria-hidden="true" className="size-4 text-brand-strong" />
      ) : (
        <Copy aria-hidden="true" className="size-4" />
      )}
      {copied ? "Copied" : "Copy"}
    </button>
  );
}

/**
 * A value to copy (a key to paste into the Shortcut, a draw's hash), in monospace, selectable, with
 * its Copy button.
 */
export function CopyableValue({
  value,
  label,
  what,
  testId,
}: {
  value: string;
  label: string;
  what: string;
  testId?: string;
}) {
  return (
    <div className="flex items-center gap-2 rounded-lg border border-line bg-page p-2">
      <code
        className="min-w-0 flex-1 font-mono text-sm [overflow-wrap:anywhere] select-all"
        data-testid={testId}
      >
        {value}
      </code>
      <CopyButton value={value} label={label} what={what} />
    </div>
  );
}
