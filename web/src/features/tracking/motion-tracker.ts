import { createStepDetector, type StepDetector } from "@charity-steps/step-detector";

/** The heartbeat looks every 10 s and restarts motion tracking after 30 s without events. */
export const HEARTBEAT_CHECK_MS = 10_000;
export const HEARTBEAT_STALL_MS = 30_000;

export type MotionPermission = "granted" | "denied" | "unavailable";

interface DeviceMotionEventWithPermission {
  requestPermission?: () => Promise<"granted" | "denied">;
}

/**
 * Asks for motion sensor access where the browser wants a permission (iOS Safari: only from a
 * tap, so call this from the Enable button's click), and says whether motion events exist at all.
 */
export async function requestMotionPermission(target: Window = window): Promise<MotionPermission> {
  const DeviceMotion = (target as Window & { DeviceMotionEvent?: DeviceMotionEventWithPermission })
    .DeviceMotionEvent;
  if (!DeviceMotion) return "unavailable";
  if (typeof DeviceMotion.requestPermission !== "function") return "granted";
  return (await DeviceMotion.requestPermission()) === "granted" ? "granted" : "denied";
}

/** The acceleration a `devicemotion` event carries, gravity included (m/s²). */
export interface MotionReading {
  x: number;
  y: number;
  z: number;
}

const isReal = (value: number | null | undefined): value is number =>
  typeof value === "number" && Number.isFinite(value);

/**
 * The reading a `devicemotion` event carries, or null when it carries none: a browser with no motion
 * sensor behind it (desktop Chrome) still fires the event, with null acceleration or null x, y and z,
 * and that is no reading at all, not a phone lying still.
 */
export function motionReading(event: Event): MotionReading | null {
  const { x, y, z } = (event as DeviceMotionEvent).accelerationIncludingGravity ?? {};
  return isReal(x) && isReal(y) && isReal(z) ? { x, y, z } : null;
}

export interface MotionTrackerOptions {
  /** Called with the steps the detector confirmed (several at once when a walk starts). */
  onSteps: (steps: number) => void;
  target?: Window;
  now?: () => number;
}

/**
 * Counts steps from `devicemotion` (acceleration including gravity) with the step detector. A
 * heartbeat re-attaches the listener when events stop for 30 s (some browsers drop it after the
 * screen locks or the page is frozen).
 */
export class MotionTracker {
  private detector: StepDetector = createStepDetector();
  private heartbeat: ReturnType<typeof setInterval> | null = null;
  private lastEventAt = 0;
  private readonly target: Window;
  private readonly now: () => number;

  constructor(private readonly options: MotionTrackerOptions) {
    this.target = options.target ?? window;
    this.now = options.now ?? Date.now;
  }

  get running(): boolean {
    return this.heartbeat !== null;
  }

  /** When the last motion event arrived (ms), 0 before any. */
  get lastMotionAt(): number {
    return this.lastEventAt;
  }

  start(): void {
    if (this.running) return;
    this.lastEventAt = this.now();
    this.target.addEventListener("devicemotion", this.onMotion);
    this.heartbeat = setInterval(() => this.checkHeartbeat(), HEARTBEAT_CHECK_MS);
  }

  stop(): void {
    this.target.removeEventListener("devicemotion", this.onMotion);
    if (this.heartbeat) clearInterval(this.heartbeat);
    this.heartbeat = null;
  }

  private checkHeartbeat(): void {
    if (this.now() - this.lastEventAt < HEARTBEAT_STALL_MS) return;
    this.target.removeEventListener("devicemotion", this.onMotion);
    this.target.addEventListener("devicemotion", this.onMotion);
    // A stalled stream's half-seen step must not join the next one.
    this.detector = createStepDetector();
    this.lastEventAt = this.now();
  }

  private readonly onMotion = (event: Event) => {
    this.lastEventAt = this.now();
    const reading = motionReading(event);
    if (!reading) return;
    const steps = this.detector.push({ t: event.timeStamp, ...reading });
    if (steps > 0) this.options.onSteps(steps);
  };
}
