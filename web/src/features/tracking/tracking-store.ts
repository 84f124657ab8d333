/**
 * The step tracking state every screen reads: what the walker chose, whether this tab counts, and
 * the actions of the tracking card. The one-tab-counts lock, the messages between tabs and the
 * toasts each live in a module of their own.
 */
import { getMeta, type HealthConnection, setMeta } from "@charity-steps/client-store/db";
import { create } from "zustand";
import { acquireMotionLock, releaseMotionLock } from "./motion-lock";
import { MotionTracker, requestMotionPermission } from "./motion-tracker";
import { backgroundEstimate, createRealtimeSync, recordSteps } from "./step-recorder";
import { listenToOtherTabs, tellOtherTabs } from "./tracking-channel";
import {
  toastBackgroundSteps,
  toastConnected,
  toastConnectionError,
  toastDisconnected,
  toastMovementTest,
  toastPermissionRefused,
  toastStepsCounted,
} from "./tracking-toasts";

export type TrackingChoice = Exclude<HealthConnection, "disconnected">;

interface TrackingState {
  /** What the walker chose (remembered across visits): disconnected, or counting. */
  connection: HealthConnection;
  /** This tab is counting motion now. */
  live: boolean;
  /** Tracking is on but another tab holds the motion sensors. */
  waitingForOtherTab: boolean;
  /** Loads the remembered choice and resumes counting where the browser allows it without a tap. */
  restore: () => Promise<void>;
  /** From the Enable button's click (iOS asks for permission only from a tap). */
  enable: (choice: TrackingChoice) => Promise<void>;
  disconnect: () => Promise<void>;
  /** Stops counting in this tab (the walker signed out or the app is closing). */
  stop: () => void;
  /** Listens for 3 s and says whether the motion sensors answer. */
  testMovement: () => Promise<void>;
  /** The app went to the background: remember when, so the estimate survives the tab being unloaded. */
  noteHidden: (now?: number) => Promise<void>;
  /** The app is in front again: add the estimate for the time away. */
  applyBackgroundEstimate: (now?: number) => Promise<void>;
}

let onServerStepsChanged: () => void = () => {};
const realtime = createRealtimeSync({ onSent: () => onServerStepsChanged() });

/** Called after a real-time sync the server took, so the screens refresh their server totals. */
export function setServerStepsListener(listener: () => void): void {
  onServerStepsChanged = listener;
}

async function onSteps(steps: number): Promise<void> {
  const now = Date.now();
  await recordSteps("motion", steps, now);
  toastStepsCounted(steps);
  await realtime.stepsCounted(steps, now);
}

type SetState = (partial: Partial<TrackingState>) => void;

function startCounting(set: SetState, onStarted: () => Promise<void>): void {
  acquireMotionLock({
    stillWanted: async () => {
      if ((await getMeta("healthConnection")) !== "disconnected") return true;
      set({ connection: "disconnected", waitingForOtherTab: false });
      return false;
    },
    start: () => {
      const tracker = new MotionTracker({ onSteps: (steps) => void onSteps(steps) });
      tracker.start();
      set({ live: true, waitingForOtherTab: false });
      void onStarted();
      return () => tracker.stop();
    },
    waiting: (waitingForOtherTab) => set({ waitingForOtherTab }),
  });
}

function stopCounting(set: SetState): void {
  releaseMotionLock();
  set({ live: false, waitingForOtherTab: false });
}

export const useTracking = create<TrackingState>()((set, get) => {
  const started = () => get().applyBackgroundEstimate();
  listenToOtherTabs((message) => {
    if (message.type === "disconnected") {
      stopCounting(set);
      set({ connection: "disconnected" });
    } else {
      void getMeta("healthConnection").then((connection) => {
        if (!connection || connection === "disconnected") return;
        set({ connection });
        startCounting(set, started);
      });
    }
  });

  return {
    connection: "disconnected",
    live: false,
    waitingForOtherTab: false,

    restore: async () => {
      const connection = (await getMeta("healthConnection")) ?? "disconnected";
      set({ connection });
      if (connection === "disconnected") return;
      // Where the browser grants motion without a tap (Android, desktop) counting resumes at once;
      // iOS refuses a request that no tap started, and the card then asks for Enable again.
      const permission = await requestMotionPermission().catch(() => "denied" as const);
      if (permission === "granted" && get().connection !== "disconnected") startCounting(set, started);
    },

    enable: async (choice) => {
      try {
        const permission = await requestMotionPermission();
        if (permission !== "granted") {
          toastPermissionRefused();
          return;
        }
        await setMeta("healthConnection", choice);
        set({ connection: choice });
        startCounting(set, started);
        tellOtherTabs({ type: "enabled" });
        toastConnected(choice);
      } catch {
        toastConnectionError();
      }
    },

    disconnect: async () => {
      await setMeta("healthConnection", "disconnected");
      stopCounting(set);
      set({ connection: "disconnected" });
      tellOtherTabs({ type: "disconnected" });
      toastDisconnected();
    },

    stop: () => stopCounting(set),

    testMovement: async () => {
      const permission = await requestMotionPermission().catch(() => "denied" as const);
      let events = 0;
      const count = () => {
        events += 1;
      };
      window.addEventListener("devicemotion", count);
      await new Promise((resolve) => setTimeout(resolve, 3_000));
      window.removeEventListener("devicemotion", count);
      toastMovementTest(events, permission);
    },

    noteHidden: async (now = Date.now()) => {
      if (!get().live) return;
      await setMeta("backgroundFlags", { enabled: true, hiddenAt: now });
    },

    applyBackgroundEstimate: async (now = Date.now()) => {
      if (!get().live) return;
      const flags = await getMeta("backgroundFlags");
      if (!flags?.hiddenAt) return;
      await setMeta("backgroundFlags", { ...flags, hiddenAt: null });
      const estimate = backgroundEstimate(now - flags.hiddenAt);
      if (estimate === 0) return;
      await recordSteps("background", estimate, now);
      toastBackgroundSteps(estimate);
      await realtime.syncNow();
    },
  };
});
