/**
 * Only one tab counts motion at a time (a Web Lock): two tabs counting the same walk would add it
 * twice. The others wait, show the same days from IndexedDB, and take over when the counting tab
 * closes or stops.
 */
export const MOTION_LOCK_NAME = "charity-steps-motion";

export interface MotionLockHandlers {
  /** Asked once this tab holds the lock: false when the walker disconnected (in any tab) meanwhile. */
  stillWanted: () => Promise<boolean>;
  /** This tab holds the lock: start counting, and return what stops it. */
  start: () => () => void;
  /** This tab waits for another one (true), or has stopped waiting without counting (false). */
  waiting: (waiting: boolean) => void;
}

let releaseLock: (() => void) | null = null;
let cancelWaiting: AbortController | null = null;

/** Counts in this tab once it holds the lock; does nothing while it already counts or waits. */
export function acquireMotionLock(handlers: MotionLockHandlers): void {
  if (releaseLock || cancelWaiting) return;
  const controller = new AbortController();
  const run = async () => {
    if (!(await handlers.stillWanted())) {
      // Not counting and no longer waiting: a later Enable must be able to ask again.
      if (cancelWaiting === controller) cancelWaiting = null;
      return;
    }
    await new Promise<void>((resolve) => {
      const stop = handlers.start();
      releaseLock = () => {
        stop();
        releaseLock = null;
        resolve();
      };
      cancelWaiting = null;
    });
  };
  const locks = typeof navigator !== "undefined" ? navigator.locks : undefined;
  if (!locks) {
    void run();
    return;
  }
  handlers.waiting(true);
  // Waits while another tab counts and takes over when that tab closes or stops; a disconnect
  // meanwhile withdraws the request.
  cancelWaiting = controller;
  void locks.request(MOTION_LOCK_NAME, { signal: controller.signal }, run).catch(() => {
    if (cancelWaiting === controller) cancelWaiting = null;
    handlers.waiting(false);
  });
}

/** Stops counting and lets the lock go to a waiting tab, or stops waiting for it. */
export function releaseMotionLock(): void {
  if (releaseLock) releaseLock();
  else cancelWaiting?.abort();
  cancelWaiting = null;
}
