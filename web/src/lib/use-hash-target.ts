import { useEffect } from "react";
import { useLocation } from "react-router-dom";

/** How long a page may take to show the part a link's #fragment names (a part loaded on demand). */
const WAIT_FOR_TARGET_MS = 5_000;

/**
 * Brings the part of the page the address's #fragment names into view and gives it focus, once it
 * has rendered: the browser's own jump happens before the app has drawn anything. The installed
 * app's shortcuts ("Start a walk", "Add steps") open the dashboard this way.
 */
export function useHashTarget(): void {
  const { hash } = useLocation();
  useEffect(() => {
    const id = decodeURIComponent(hash.slice(1));
    if (!id) return;
    const until = Date.now() + WAIT_FOR_TARGET_MS;
    let frame = 0;
    const look = () => {
      const target = document.getElementById(id);
      if (target) {
        target.scrollIntoView({ block: "start" });
        target.focus({ preventScroll: true });
        return;
      }
      if (Date.now() < until) frame = requestAnimationFrame(look);
    };
    frame = requestAnimationFrame(look);
    return () => cancelAnimationFrame(frame);
  }, [hash]);
}
