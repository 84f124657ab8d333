import { getMeta, type HealthConnection, setMeta } from "@charity-steps/client-store/db";
import { enqueueSync } from "@charity-steps/client-store/outbox";
import { londonDay } from "@charity-steps/shared-types";
import { create } from "zustand";
import { toast } from "../../lib/toast-store";
import { MotionTracker, requestMotionPermission } from "./motion-tracker";
import {
  addToDay,
  backgroundEstimate,
  REALTIME_EVERY_MS,
  REALTIME_EVERY_STEPS,
  sendRealtime,
} from "./step-recorder";

/** Only one tab counts motion at a time (DESIGN §7); the others read the same days from IndexedDB. */
export const MOTION_LOCK_NAME = "charity-steps-motion";
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
  /** Listens for 3 s and says whether the motion sensors answer. */
  testMovement: () => Promise<void>;
  /** The tab was hidden at `hiddenAt` and is visible again: add the background estimate. */
  returnFromBackground: (hiddenAt: number, now?: number) => Promise<void>;
}

let tracker: MotionTracker | null = null;
let releaseLock: (() => void) | null = null;
let cancelWaiting: AbortController | null = null;
let stepsSinceToast = 0;
let stepsSinceRealtime = 0;
let lastRealtimeAt = 0;

async function onSteps(steps: number): Promise<void> {
  const now = Date.now();
  const day = londonDay(now);
  const total = await addToDay(day, "real", steps, now);
  // The outbox always holds the day's latest count (one entry per day and device, newest wins), so
  // steps counted just before the app closes still reach the server through the service worker.
  await enqueueSync(day, total, "device_motion", now);
  stepsSinceToast += steps;
  if (stepsSinceToast >= STEPS_TOAST_EVERY) {
    stepsSinceToast %= STEPS_TOAST_EVERY;
    toast({ title: "Steps Detected!", description: "Keep walking: every step counts.", duration: 2_000 });
  }
  stepsSinceRealtime += steps;
  if (stepsSinceRealtime >= REALTIME_EVERY_STEPS || now - lastRealtimeAt > REALTIME_EVERY_MS) {
    stepsSinceRealtime = 0;
    lastRealtimeAt = now;
    await sendRealtime("device_motion", now);
  }
}

function startCounting(set: (partial: Partial<TrackingState>) => void): void {
  if (tracker || releaseLock || cancelWaiting) return;
  const run = () =>
    new Promise<void>((resolve) => {
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
    });
  const locks = typeof navigator !== "undefined" ? navigator.locks : undefined;
  if (!locks) {
    void run();
    return;
  }
  set({ waitingForOtherTab: true });
  // Waits while another tab counts and takes over when that tab closes or stops; a disconnect
  // meanwhile withdraws the request.
  cancelWaiting = new AbortController();
  void locks.request(MOTION_LOCK_NAME, { signal: cancelWaiting.signal }, run).catch(() => {
    cancelWaiting = null;
    set({ waitingForOtherTab: false });
  });
}

function stopCounting(): void {
  if (releaseLock) releaseLock();
  else cancelWaiting?.abort();
  cancelWaiting = null;
}

export const useTracking = create<TrackingState>()((set, get) => ({
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
    if (permission === "granted") startCounting(set);
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
      startCounting(set);
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
    stopCounting();
    await setMeta("healthConnection", "disconnected");
    set({ connection: "disconnected", live: false, waitingForOtherTab: false });
    toast({ title: "Device Motion Disconnected", description: "Step counting is paused." });
  },

  testMovement: async () => {
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
            description: "No motion readings arrived. Enable tracking, then move your phone and try again.",
            variant: "destructive",
          },
    );
  },

  returnFromBackground: async (hiddenAt, now = Date.now()) => {
    if (!get().live) return;
    const estimate = backgroundEstimate(now - hiddenAt);
    if (estimate === 0) return;
    await addToDay(londonDay(now), "background", estimate, now);
    toast({
      title: "Background Steps Added",
      description: `${estimate} estimated steps while the app was away.`,
    });
    await sendRealtime("background_device_motion", now);
  },
}));
