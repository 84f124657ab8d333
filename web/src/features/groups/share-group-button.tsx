import { groupJoinLink } from "@charity-steps/shared-types";
import { Share2 } from "lucide-react";
import { toast } from "../../lib/toast-store";
import { useClipboard } from "../../lib/use-clipboard";

/** The words a shared join link goes with. */
export function shareText(name: string): string {
  return `Walk with me in ${name} on Charity Steps: open the link to join.`;
}

/**
 * Shares the group's join link through the phone's share sheet (the Web Share API), or copies it
 * where the browser has none. A share the walker closes is not an error.
 */
export function ShareGroupButton({ name, joinCode }: { name: string; joinCode: string }) {
  const { copy } = useClipboard();
  const url = groupJoinLink(window.location.origin, joinCode);
  const share = async () => {
    const data = { title: `Join ${name}`, text: shareText(name), url };
    if (typeof navigator.share === "function" && (navigator.canShare?.(data) ?? true)) {
      try {
        await navigator.share(data);
        return;
      } catch (error) {
        if (error instanceof DOMException && error.name === "AbortError") return;
        toast({ title: "Could not share", description: "The link is copied instead." });
      }
    }
    await copy(url, {
      done: { title: "Link copied", description: "Send it to anyone you want to walk with." },
      refused: { title: "Could not copy", description: `The link is ${url}` },
    });
  };
  return (
    <button type="button" className="btn-secondary min-h-9 px-3 py-1 text-sm" onClick={() => void share()}>
      <Share2 aria-hidden="true" className="size-4" />
      Share
    </button>
  );
}
