import { useEffect, useRef, useState } from "react";
import { createPortal } from "react-dom";
import { formatSteps } from "../../lib/format";

/** How long a press must last to leave: a pocket brushes the screen, it does not hold it. */
export const POCKET_HOLD_MS = 1_500;

/**
 * Walk mode's pocket screen: the page goes black (an OLED screen then costs little battery) with
 * only the live count, and covers everything, so a pocket does not press buttons while the phone
 * keeps counting. Leaving takes a deliberate press and hold (or Escape on a keyboard).
 */
export function PocketScreen({ todaySteps, onLeave }: { todaySteps: number; onLeave: () => void }) {
  const [holding, setHolding] = useState(false);
  const holdTimer = useRef<ReturnType<typeof setTimeout> | null>(null);
  const surface = useRef<HTMLDivElement>(null);

  useEffect(() => {
    // Everything behind is out of reach of the keyboard and screen readers while the screen is up.
    const app = document.getElementById("root");
    if (app) app.inert = true;
    surface.current?.focus();
    void document.documentElement.requestFullscreen?.().catch(() => {});
    const onKey = (event: KeyboardEvent) => {
      if (event.key === "Escape") onLeave();
    };
    document.addEventListener("keydown", onKey);
    return () => {
      if (app) app.inert = false;
      document.removeEventListener("keydown", onKey);
      if (document.fullscreenElement) void document.exitFullscreen().catch(() => {});
    };
  }, [onLeave]);

  const startHold = () => {
    setHolding(true);
    holdTimer.current = setTimeout(onLeave, POCKET_HOLD_MS);
  };
  const endHold = () => {
    setHolding(false);
    if (holdTimer.current) clearTimeout(holdTimer.current);
    holdTimer.current = null;
  };
  // A hold still running when the screen closes must not fire afterwards.
  useEffect(
    () => () => {
      if (holdTimer.current) clearTimeout(holdTimer.current);
    },
    [],
  );

  return createPortal(
    <div
      ref={surface}
      role="dialog"
      aria-modal="true"
      aria-label="Pocket screen"
      aria-describedby="pocket-screen-hint"
      tabIndex={-1}
      data-testid="pocket-screen"
      className="fixed inset-0 z-50 flex touch-none flex-col items-center justify-center gap-6 bg-black text-neutral-400 select-none outline-none"
      onPointerDown={startHold}
      onPointerUp={endHold}
      onPointerLeave={endHold}
      onPointerCancel={endHold}
      onContextMenu={(event) => event.preventDefault()}
    >
      <p className="text-center">
        <span className="block text-6xl font-bold tabular-nums" data-testid="pocket-screen-steps">
          {formatSteps(todaySteps)}
        </span>
        <span className="text-lg">steps today</span>
      </p>
      <p id="pocket-screen-hint" className="max-w-xs px-6 text-center text-sm text-neutral-500">
        Still counting. Press and hold anywhere to leave{holding ? "…" : "."}
      </p>
      <div aria-hidden="true" className="h-1 w-40 overflow-hidden rounded-full bg-neutral-800">
        <div
          className="h-full bg-neutral-500"
          style={{
            width: holding ? "100%" : "0%",
            transition: holding ? `width ${POCKET_HOLD_MS}ms linear` : "none",
          }}
        />
      </div>
    </div>,
    document.body,
  );
}
