import { COPY_INDICATOR_MS } from "@charity-steps/shared-types";
import { useCallback, useEffect, useState } from "react";
import { type ToastOptions, toast } from "./toast-store";

type Message = Pick<ToastOptions, "title" | "description">;

/**
 * Copies text to the clipboard and says so: `copied` is true for a moment after a copy (for a
 * check mark), and a toast tells the walker it worked or, where the browser refuses the clipboard
 * (an old iOS, a page not in focus), what to do instead.
 */
export function useClipboard(): {
  copied: boolean;
  copy: (value: string, messages: { done: Message; refused: Message }) => Promise<void>;
} {
  const [copied, setCopied] = useState(false);
  useEffect(() => {
    if (!copied) return;
    const timer = setTimeout(() => setCopied(false), COPY_INDICATOR_MS);
    return () => clearTimeout(timer);
  }, [copied]);

  const copy = useCallback(async (value: string, messages: { done: Message; refused: Message }) => {
    try {
      await navigator.clipboard.writeText(value);
      setCopied(true);
      toast({ ...messages.done, duration: COPY_INDICATOR_MS });
    } catch {
      toast({ ...messages.refused, variant: "destructive" });
    }
  }, []);

  return { copied, copy };
}
