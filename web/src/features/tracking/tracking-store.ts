/**
 * The step tracking state every screen reads: whether the walker counts with this phone's motion,
 * whether this tab counts, the screen kept on while it does, and the actions of the tracking card.
 * The one-tab-counts lock, the screen's wake lock, the messages between tabs and the toasts each
 * live in a module of their own.
 */
import { getMeta, type HealthConnection, setMeta } from "@charity-steps/client-store/db";
import { create } from "zustand";
import { acquireMotionLock, releaseMotionLock } from "./motion-lock";
import { MotionTracker, motionReading, requestMotionPermission } from "./motion-tracker";
import { keepScreenOn, type ScreenState } from "./screen-wake-lock";
import { createRealtimeSync, recordSteps } from "./step-recorder";
import { listenToOtherTabs, tellOtherTabs } from "./tracking-channel";
import {
  toastConnected,
  toastConnectionError,
  toastDisconnected,
  toastMovementTest,
  toastNoMotionReadings,
  toastPermissionRefused,
  toastStepsCounted,
} from "./tracking-toasts";

/** Away for longer than this while counting, the card says that counting paused. */
export const PAUSE_NOTICE_AFTER_MS = 60_000;

/**
 * The only counting a web page can do itself is with the motion sensors. Devices that chose Apple
 * Health or Google Fit before these became their own routes counted motion all along, so they carry
 * on with motion.
 */
function normalised(connection: HealthConnection | undefined): "disconnected" | "device_motion" {
  return connection === undefined || connection === "disconnected" ? "disconnected" : "device_motion";
}

interface TrackingState {
  /** What the walker chose (remembered across visits): disconnected, or counting with motion. */
  connection: "disconnected" | "device_motion";
  /** This tab is counting motion now. */
  live: boolean;
  /** Tracking is on but another tab holds the motion sensors. */
  waitingForOtherTab: boolean;
  /** Whether the screen is kept on while this tab counts. */
  screen: ScreenState;
  /** Milliseconds the app was last away while counting (nothing was counted then), until dismissed. */
  pausedFor: number | null;
  /** Loads the remembered choice and resumes counting where the browser allows it without a tap. */
  restore: () => Promise<void>;
  /** From the Enable button's click (iOS asks for permission only from a tap). */
  enable: () => Promise<void>;
  disconnect: () => Promise<void>;
  /** Stops counting in this tab (the walker signed out or the app is closing). */
  stop: () => void;
  /** Listens for 3 s and says whether the motion sensors answer. */
  testMovement: () => Promise<void>;
  /** The app went to the background: remember when, even if the tab is unloaded meanwhile. */
  noteHidden: (now?: number) => Promise<void>;
  /**
   * The app is in front again. Nothing is added for the time away (no step is counted that nobody
   * saw walked); away for more than a minute, the card says counting paused and how to count all day.
   */
  noteReturned: (now?: number) => Promise<void>;
  dismissPause: () => void;
  /**
   * How many times the server has taken steps this tab sent as they were counted. Each time it
   * grows the server's totals changed, and the screens that show them ask again.
   */
  stepsTakenByServer: number;
}

type SetState = (partial: Partial<TrackingState>) => void;
type CountSteps = (steps: number) => Promise<void>;

function startCounting(set: SetState, countSteps: CountSteps): void {
  acquireMotionLock({
    stillWanted: async () => {
      if ((await getMeta("healthConnection")) !== "disconnected") return true;
      set({ connection: "disconnected", waitingForOtherTab: false });
      return false;
    },
    start: () => {
      const tracker = new MotionTracker({ onSteps: (steps) => void countSteps(steps) });
      tracker.start();
      set({ live: true, waitingForOtherTab: false });
      const screen = keepScreenOn((state) => set({ screen: state }));
      return () => {
        tracker.stop();
        void screen.letSleep();
      };
    },
    waiting: (waitingForOtherTab) => set({ waitingForOtherTab }),
  });
}

/**
 * How long Enable waits for the first motion reading before saying that none came. A phone sends
 * readings many times a second once allowed; a few seconds leaves room for one slow to start.
 */
export const FIRST_READING_WAIT_MS = 5_000;

let stopAwaitingReading: (() => void) | null = null;

/**
 * Says "connected" once a reading with real numbers arrives, not on permission alone: a desktop
 * browser grants motion and fires `devicemotion` with no sensor behind it (null readings), and
 * nothing would ever be counted there. With no reading within the wait, the walker is told so.
 * Tracking stays on all the same, so a phone whose first reading is only slow keeps counting, and
 * says "connected" when that reading comes. Listens on the window rather than through the tracker:
 * this tab may still be waiting for the motion lock, and the readings reach it anyway.
 */
function confirmWhenReadingsArrive(): void {
  stopAwaitingReading?.();
  let cancelWarning = () => {};
  const onMotion = (event: Event) => {
    if (!motionReading(event)) return;
    stop();
    toastConnected();
  };
  const warning = setTimeout(() => {
    cancelWarning = toastNoMotionReadings();
  }, FIRST_READING_WAIT_MS);
  const stop = () => {
    window.removeEventListener("devicemotion", onMotion);
    clearTimeout(warning);
    cancelWarning();
    stopAwaitingReading = null;
  };
  window.addEventListener("devicemotion", onMotion);
  stopAwaitingReading = stop;
}

function stopCounting(set: SetState): void {
  // Stopped (disconnected, signed out), neither "connected" nor "no readings" is news any more.
  stopAwaitingReading?.();
  releaseMotionLock();
  set({ live: false, waitingForOtherTab: false });
}

export const useTracking = create<TrackingState>()((set, get) => {
  const realtime = createRealtimeSync({
    onSent: () => set((state) => ({ stepsTakenByServer: state.stepsTakenByServer + 1 })),
  });
  const countSteps: CountSteps = async (steps) => {
    const now = Date.now();
    await recordSteps(steps, now);
    toastStepsCounted(steps);
    await realtime.stepsCounted(steps, now);
  };

  listenToOtherTabs((message) => {
    if (message.type === "disconnected") {
      stopCounting(set);
      set({ connection: "disconnected" });
    } else {
      void getMeta("healthConnection").then((connection) => {
        if (normalised(connection) === "disconnected") return;
        set({ connection: "device_motion" });
        startCounting(set, countSteps);
      });
    }
  });

  return {
    connection: "disconnected",
    live: false,
    waitingForOtherTab: false,
    screen: "off",
    pausedFor: null,
    stepsTakenByServer: 0,

    restore: async () => {
      const stored = await getMeta("healthConnection");
      const connection = normalised(stored);
      if (stored !== undefined && stored !== connection) await setMeta("healthConnection", connection);
      set({ connection });
      if (connection === "disconnected") return;
      // The tab may have been unloaded while hidden: the time away is still said.
      await get().noteReturned();
      // Where the browser grants motion without a tap (Android, desktop) counting resumes at once;
      // iOS refuses a request that no tap started, and the card then asks for Enable again.
      const permission = await requestMotionPermission().catch(() => "denied" as const);
      if (permission === "granted" && get().connection !== "disconnected") startCounting(set, countSteps);
    },

    enable: async () => {
      try {
        const permission = await requestMotionPermission();
        if (permission !== "granted") {
          toastPermissionRefused();
          return;
        }
        await setMeta("healthConnection", "device_motion");
        set({ connection: "device_motion", pausedFor: null });
        startCounting(set, countSteps);
        tellOtherTabs({ type: "enabled" });
        confirmWhenReadingsArrive();
      } catch {
        toastConnectionError();
      }
    },

    disconnect: async () => {
      await setMeta("healthConnection", "disconnected");
      stopCounting(set);
      set({ connection: "disconnected", pausedFor: null });
      tellOtherTabs({ type: "disconnected" });
      toastDisconnected();
    },

    stop: () => stopCounting(set),

    testMovement: async () => {
      const permission = await requestMotionPermission().catch(() => "denied" as const);
      const readings: number[] = [];
      // Only events with numbers are readings: with no sensor, desktop Chrome still fires events,
      // with nulls, and taking those for 0 would say that readings arrive.
      const note = (event: Event) => {
        const reading = motionReading(event);
        if (reading) readings.push(Math.hypot(reading.x, reading.y, reading.z));
      };
      window.addEventListener("devicemotion", note);
      await new Promise((resolve) => setTimeout(resolve, 3_000));
      window.removeEventListener("devicemotion", note);
      toastMovementTest(readings, permission);
    },

    noteHidden: async (now = Date.now()) => {
      if (!get().live) return;
      await setMeta("backgroundFlags", { enabled: true, hiddenAt: now });
    },

    noteReturned: async (now = Date.now()) => {
      const flags = await getMeta("backgroundFlags");
      if (!flags?.hiddenAt) return;
      await setMeta("backgroundFlags", { ...flags, hiddenAt: null });
      const away = now - flags.hiddenAt;
      if (get().connection !== "disconnected" && away > PAUSE_NOTICE_AFTER_MS) set({ pausedFor: away });
    },

    dismissPause: () => set({ pausedFor: null }),
  };
});
