import { type ReactNode, useEffect, useRef, useState } from "react";

/** How long after the page shows a part below the first screen is loaded anyway. */
export const LOAD_LATER_MS = 4_000;
/** How near the screen's edge a part comes before it is loaded. */
const NEAR_SCREEN = "600px";

/**
 * Shows `children` (code loaded on demand) once the walker scrolls near them, once the address
 * names them (`#id`), or a few seconds after the page has shown, whichever comes first; until then
 * `placeholder` keeps their place. The first screen loads only what it shows. A part on the first
 * screen itself waits only for that screen to have shown: its code then loads after the screen's.
 */
export function LoadLater({
  id,
  placeholder,
  children,
}: {
  /** The part's #fragment, when a link can name it. */
  id?: string;
  placeholder: ReactNode;
  children: ReactNode;
}) {
  // Where the screen is cannot be known without IntersectionObserver: then everything loads at once.
  const [ready, setReady] = useState(
    () =>
      (id !== undefined && window.location.hash === `#${id}`) || typeof IntersectionObserver !== "function",
  );
  const spot = useRef<HTMLDivElement>(null);
  useEffect(() => {
    if (ready) return;
    const timer = setTimeout(() => setReady(true), LOAD_LATER_MS);
    const onHash = () => {
      if (id !== undefined && window.location.hash === `#${id}`) setReady(true);
    };
    window.addEventListener("hashchange", onHash);
    const observer = new IntersectionObserver(
      (entries) => entries.some((entry) => entry.isIntersecting) && setReady(true),
      { rootMargin: NEAR_SCREEN },
    );
    if (spot.current) observer.observe(spot.current);
    return () => {
      clearTimeout(timer);
      window.removeEventListener("hashchange", onHash);
      observer.disconnect();
    };
  }, [ready, id]);
  return ready ? children : <div ref={spot}>{placeholder}</div>;
}
