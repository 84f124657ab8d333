import { type ReactNode, startTransition, useEffect, useState } from "react";
import { afterPaint } from "../lib/after-paint";

/**
 * Draws `children` once the screen above them has been painted, in a transition: React then draws
 * them in short slices, letting the phone paint and answer a tap in between, where drawing the whole
 * page at once was one long task before the walker could do anything. For parts below a phone's
 * first screen, whose code is already loaded (`LoadLater` is for code loaded on demand). Until then a
 * screen's height of space keeps the footer where it will be, so nothing visible moves.
 */
export function AfterFirstScreen({ children }: { children: ReactNode }) {
  const [shown, setShown] = useState(false);
  useEffect(() => afterPaint(() => startTransition(() => setShown(true))), []);
  return shown ? (
    children
  ) : (
    <div className="min-h-screen" aria-hidden="true" data-testid="after-first-screen" />
  );
}
