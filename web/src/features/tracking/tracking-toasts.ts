/** What the walker is told about step tracking, as toasts. */
import { toast, whenNoToastIsOpen } from "../../lib/toast-store";
import type { MotionPermission } from "./motion-tracker";

const STEPS_TOAST_EVERY = 10;
let stepsSinceToast = 0;

/** A short encouragement every 10 counted steps. */
export function toastStepsCounted(steps: number): void {
  stepsSinceToast += steps;
  if (stepsSinceToast < STEPS_TOAST_EVERY) return;
  stepsSinceToast %= STEPS_TOAST_EVERY;
  toast({ title: "Steps Detected!", description: "Keep walking: every step counts.", duration: 2_000 });
}

export function toastPermissionRefused(): void {
  toast({
    title: "Connection Failed",
    description: "Unable to access device motion sensors. Please ensure permissions are granted.",
    variant: "destructive",
  });
}

export function toastConnected(): void {
  toast({ title: "Device Motion Connected!", description: "Your steps are now counted as you walk." });
}

/** What the walker is told when the device sent no motion reading: steps cannot be counted on it. */
const NO_READINGS = "This device isn't sending motion readings, so steps won't be counted here.";

/**
 * Enable heard no motion reading. It waits for a toast on screen (the steps just added, say) to
 * close rather than hide what it says; answers a cancel, for a reading that comes meanwhile.
 */
export function toastNoMotionReadings(): () => void {
  return whenNoToastIsOpen(() =>
    toast({ title: "No Motion Readings", description: NO_READINGS, variant: "destructive" }),
  );
}

export function toastConnectionError(): void {
  toast({
    title: "Connection Error",
    description: "An error occurred while connecting to device motion sensors.",
    variant: "destructive",
  });
}

export function toastDisconnected(): void {
  toast({ title: "Device Motion Disconnected", description: "Step counting is paused." });
}

/**
 * How much the strength of the phone's acceleration (gravity included) must swing for the readings
 * to show movement: a phone lying still varies by a few hundredths of 9.81 m/s², a step by metres a
 * second squared.
 */
export const MOVEMENT_SWING = 1.5;

/**
 * The Test Movement result, in two parts: whether motion readings arrived in the 3 s, and whether
 * they showed the phone moving (a still phone's sensors work too, and say so).
 */
export function toastMovementTest(readings: readonly number[], permission: MotionPermission): void {
  if (readings.length === 0) {
    toast({
      title: "No Readings Arrived",
      // A working sensor sends readings whether the phone moves or not (see the still phone below),
      // so none at all is no sensor, or none this page may use: moving the phone would not help.
      description:
        permission === "granted"
          ? NO_READINGS
          : "Motion sensors are not available here, or permission was not granted.",
      variant: "destructive",
    });
    return;
  }
  const swing = Math.max(...readings) - Math.min(...readings);
  toast(
    swing >= MOVEMENT_SWING
      ? { title: "Movement Detected", description: "Readings are arriving, and they show your phone moving." }
      : {
          title: "Readings Arriving, No Movement",
          description: "The sensors work, but your phone was still. Move it during the test to see movement.",
        },
  );
}
