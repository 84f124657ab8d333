import { COPY_INDICATOR_MS } from "@charity-steps/shared-types";
import { Check, Copy } from "lucide-react";
import { useEffect, useState } from "react";
import { toast } from "../../lib/toast-store";

/** Copies a group's join code; a check shows for 2 s. */
export function JoinCodeButton({ code }: { code: string }) {
  const [copied, setCopied] = useState(false);
  useEffect(() => {
    if (!copied) return;
    const timer = setTimeout(() => setCopied(false), COPY_INDICATOR_MS);
    return () => clearTimeout(timer);
  }, [copied]);

  return (
    <button
      type="button"
      className="inline-flex items-center gap-1 rounded-md border border-line bg-white px-2 py-1 font-mono text-sm"
      aria-label={`Copy join code ${code}`}
      onClick={async () => {
        try {
          await navigator.clipboard.writeText(code);
          setCopied(true);
          toast({
            title: "Copied!",
            description: "Join code copied to clipboard",
            duration: COPY_INDICATOR_MS,
          });
        } catch {
          toast({
            title: "Error",
            description: `Could not copy. The code is ${code}.`,
            variant: "destructive",
          });
        }
      }}
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
