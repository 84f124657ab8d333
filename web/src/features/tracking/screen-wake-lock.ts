/**
 * Walk mode's screen: a web page sees the phone's motion only while it is open with the screen on,
 * so while this tab counts it asks the browser to keep the screen on (Screen Wake Lock). The
 * browser drops the lock whenever the page is hidden; it is taken again when the page is back.
 */

/** What the screen does while counting: kept on, off (not counting), or the browser cannot keep it on. */
export type ScreenState = "kept-on" | "off" | "unsupported" | "refused";

export interface ScreenKeeper {
  /** Settles once the browser has answered the first request for the lock. */
  taken: Promise<void>;
  /** Lets the screen turn off again (counting stopped: Disconnect, sign-out, another tab counts). */
  letSleep: () => Promise<void>;
}

export function wakeLockSupported(): boolean {
  return typeof navigator !== "undefined" && "wakeLock" in navigator && navigator.wakeLock !== undefined;
}

/**
 * Keeps the screen on while counting, and takes the lock again each time the page becomes visible,
 * until `letSleep`. `onChange` hears every change, for the tracking card's words.
 */
export function keepScreenOn(onChange: (state: ScreenState) => void): ScreenKeeper {
  let sentinel: WakeLockSentinel | null = null;
  let wanted = true;

  const request = async (): Promise<void> => {
    if (!wanted || sentinel || document.visibilityState !== "visible") return;
    if (!wakeLockSupported()) {
      onChange("unsupported");
      return;
    }
    try {
      const taken = await navigator.wakeLock.request("screen");
      if (!wanted) {
        await taken.release();
        return;
      }
      sentinel = taken;
      taken.addEventListener("release", () => {
        if (sentinel === taken) sentinel = null;
        onChange("off");
      });
      onChange("kept-on");
    } catch {
      // Refused: battery saver, a browser policy, or the page lost visibility while asking.
      onChange("refused");
    }
  };

  const onVisibility = () => {
    // Hidden, the browser releases the lock itself; letting it go here as well keeps one rule on
    // every browser. Back in front, the lock is asked for again.
    if (document.visibilityState === "visible") void request();
    else void sentinel?.release();
  };
  document.addEventListener("visibilitychange", onVisibility);

  return {
    taken: request(),
    letSleep: async () => {
      wanted = false;
      document.removeEventListener("visibilitychange", onVisibility);
      const held = sentinel;
      sentinel = null;
      onChange("off");
      await held?.release();
    },
  };
}
