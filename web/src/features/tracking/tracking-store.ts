import { getMeta, type HealthConnection, setMeta } from "@charity-steps/client-store/db";
import { create } from "zustand";
import { toast } from "../../lib/toast-store";
import { MotionTracker, requestMotionPermission } from "./motion-tracker";
import { backgroundEstimate, createRealtimeSync, recordSteps } from "./step-recorder";

/** Only one tab counts motion at a time; the others read the same days from IndexedDB. */
export const MOTION_LOCK_NAME = "charity-steps-motion";
/** Tabs tell each other when the walker enables or disconnects tracking. */
const TRACKING_CHANNEL = "charity-steps-tracking";
const STEPS_TOAST_EVERY = 10;

export type TrackingChoice = Exclude<HealthConnection, "disconnected">;

export const HEALTH_FALLBACK_MESSAGES: Record<"apple_health" | "google_fit", string> = {
  apple_health:
    "Apple Health cannot be read from a web app, so this phone's motion sensors count your steps instead.",
  google_fit:
    "Google Fit's web access is being shut down, so this phone's motion sensors count your steps instead.",
};

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

let tracker: MotionTracker | null = null;
let releaseLock: (() => void) | null = null;
let cancelWaiting: AbortController | null = null;
let stepsSinceToast = 0;
let onServerStepsChanged: () => void = () => {};
const realtime = createRealtimeSync({ onSent: () => onServerStepsChanged() });

/** Called after a real-time sync the server took, so the screens refresh their server totals. */
export function setServerStepsListener(listener: () => void): void {
  onServerStepsChanged = listener;
}

async function onSteps(steps: number): Promise<void> {
  const now = Date.now();
  await recordSteps("motion", steps, now);
  stepsSinceToast += steps;
  if (stepsSinceToast >= STEPS_TOAST_EVERY) {
    stepsSinceToast %= STEPS_TOAST_EVERY;
    toast({ title: "Steps Detected!", description: "Keep walking: every step counts.", duration: 2_000 });
  }
  await realtime.stepsCounted(steps, now);
}

type SetState = (partial: Partial<TrackingState>) => void;

function startCounting(set: SetState, onStarted: () => Promise<void>): void {
  if (tracker || releaseLock || cancelWaiting) return;
  const run = async () => {
    // The walker may have disconnected (in any tab) while this tab waited for the sensors.
    if ((await getMeta("healthConnection")) === "disconnected") {
      set({ connection: "disconnected", waitingForOtherTab: false });
      return;
    }
    await new Promise<void>((resolve) => {
      tracker = new MotionTracker({ onSteps: (steps) => void onSteps(steps) });
      tracker.start();
      releaseLock = () => {
        tracker?.stop();
        tracker = null;
        releaseLock = null;
        resolve();
      };
      cancelWaiting = null;
      set({ live: true, waitingForOtherTab: false });
      void onStarted();
    });
  };
  const locks = typeof navigator !== "undefined" ? navigator.locks : undefined;
  if (!locks) {
    void run();
    return;
  }
  set({ waitingForOtherTab: true });
  // Waits while another tab counts and takes over when that tab closes or stops; a disconnect
  // meanwhile withdraws the request.
  const controller = new AbortController();
  cancelWaiting = controller;
  void locks.request(MOTION_LOCK_NAME, { signal: controller.signal }, run).catch(() => {
    if (cancelWaiting === controller) cancelWaiting = null;
    set({ waitingForOtherTab: false });
  });
}

function stopCounting(set: SetState): void {
  if (releaseLock) releaseLock();
  else cancelWaiting?.abort();
  cancelWaiting = null;
  set({ live: false, waitingForOtherTab: false });
}

const channel = typeof BroadcastChannel === "undefined" ? null : new BroadcastChannel(TRACKING_CHANNEL);

export const useTracking = create<TrackingState>()((set, get) => {
  const started = () => get().applyBackgroundEstimate();
  channel?.addEventListener("message", (event: MessageEvent<{ type: "enabled" | "disconnected" }>) => {
    if (event.data.type === "disconnected") {
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
          toast({
            title: "Connection Failed",
            description: "Unable to access device motion sensors. Please ensure permissions are granted.",
            variant: "destructive",
          });
          return;
        }
        await setMeta("healthConnection", choice);
        set({ connection: choice });
        startCounting(set, started);
        channel?.postMessage({ type: "enabled" });
        toast({
          title: "Device Motion Connected!",
          description:
            choice === "device_motion"
              ? "Your steps are now counted as you walk."
              : HEALTH_FALLBACK_MESSAGES[choice],
        });
      } catch {
        toast({
          title: "Connection Error",
          description: "An error occurred while connecting to device motion sensors.",
          variant: "destructive",
        });
      }
    },

    disconnect: async () => {
      await setMeta("healthConnection", "disconnected");
      stopCounting(set);
      set({ connection: "disconnected" });
      channel?.postMessage({ type: "disconnected" });
      toast({ title: "Device Motion Disconnected", description: "Step counting is paused." });
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
      toast(
        events > 0
          ? { title: "Movement Detected", description: "Your phone's motion sensors are working." }
          : {
              title: "No Movement Detected",
              description:
                permission === "granted"
                  ? "No motion readings arrived. Move your phone and try again."
                  : "Motion sensors are not available here, or permission was not granted.",
              variant: "destructive",
            },
      );
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
      toast({
        title: "Background Steps Added",
        description: `${estimate} estimated steps while the app was away.`,
      });
      await realtime.syncNow();
    },
  };
});
