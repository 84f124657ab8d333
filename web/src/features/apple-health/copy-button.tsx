import { COPY_INDICATOR_MS } from "@charity-steps/shared-types";
import { Check, Copy } from "lucide-react";
import { useEffect, useState } from "react";
import { toast } from "../../lib/toast-store";

/**
 * Copies `value` to the clipboard; a check shows for a moment. `label` names what is copied,
 * for the button's accessible name and the toasts ("Copy the web address").
 */
export function CopyButton({ value, label, what }: { value: string; label: string; what: string }) {
  const [copied, setCopied] = useState(false);
  useEffect(() => {
    if (!copied) return;
    const timer = setTimeout(() => setCopied(false), COPY_INDICATOR_MS);
    return () => clearTimeout(timer);
  }, [copied]);

  return (
    <button
      type="button"
      className="btn-secondary shrink-0 px-3 py-1.5 text-sm"
      aria-label={label}
      onClick={async () => {
        try {
          await navigator.clipboard.writeText(value);
          setCopied(true);
          toast({
            title: "Copied!",
            description: `${what} copied to clipboard`,
            duration: COPY_INDICATOR_MS,
          });
        } catch {
          // Some browsers refuse the clipboard (an old iOS, a page not in focus): the text stays selectable.
          toast({
            title: "Could not copy",
            description: `Select the ${what.toLowerCase()} and copy it by hand.`,
            variant: "destructive",
          });
        }
      }}
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

/** A value to paste into the Shortcut, in monospace, selectable, with its Copy button. */
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
      <code className="min-w-0 flex-1 break-all font-mono text-sm select-all" data-testid={testId}>
        {value}
      </code>
      <CopyButton value={value} label={label} what={what} />
    </div>
  );
}
