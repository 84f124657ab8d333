/** What the walker is told about step tracking, as toasts. */
import { toast } from "../../lib/toast-store";
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

/** The Test Movement result: whether any motion reading arrived in the 3 s. */
export function toastMovementTest(events: number, permission: MotionPermission): void {
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
}
