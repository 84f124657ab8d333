import { afterEach, describe, expect, it, vi } from "vitest";
import {
  HEARTBEAT_STALL_MS,
  MotionTracker,
  requestMotionPermission,
} from "../../../src/features/tracking/motion-tracker";

/** A `devicemotion` event as a phone sends it: acceleration including gravity, at `timeStamp` ms. */
function motionEvent(t: number, z: number): Event {
  const event = new Event("devicemotion");
  Object.defineProperty(event, "timeStamp", { value: t });
  Object.defineProperty(event, "accelerationIncludingGravity", { value: { x: 0.2, y: 0.1, z } });
  return event;
}

/** Walking at 1.8 steps a second for `seconds`, sampled at 60 Hz, starting at `from` ms. */
function walk(target: EventTarget, from: number, seconds: number) {
  for (let i = 0; i < seconds * 60; i++) {
    const t = from + (i * 1000) / 60;
    target.dispatchEvent(motionEvent(t, 9.81 + 3 * Math.sin(2 * Math.PI * 1.8 * (t / 1000))));
  }
}

describe("counting steps from devicemotion", () => {
  afterEach(() => vi.useRealTimers());

  it("counts a 20-second walk at 1.8 steps a second, and nothing once stopped", () => {
    const counted: number[] = [];
    const tracker = new MotionTracker({ onSteps: (steps) => counted.push(steps), target: window });
    tracker.start();
    walk(window, 0, 20);
    const total = counted.reduce((sum, steps) => sum + steps, 0);
    expect(total).toBeGreaterThanOrEqual(34);
    expect(total).toBeLessThanOrEqual(37);

    tracker.stop();
    walk(window, 30_000, 10);
    expect(counted.reduce((sum, steps) => sum + steps, 0)).toBe(total);
  });

  it("listens again when motion events stop for 30 s (the heartbeat)", () => {
    vi.useFakeTimers();
    const add = vi.spyOn(window, "addEventListener");
    const tracker = new MotionTracker({ onSteps: () => {}, target: window });
    tracker.start();
    expect(add).toHaveBeenCalledTimes(1);
    vi.advanceTimersByTime(HEARTBEAT_STALL_MS - 10_000);
    expect(add).toHaveBeenCalledTimes(1);
    vi.advanceTimersByTime(10_000);
    expect(add).toHaveBeenCalledTimes(2);
    tracker.stop();
    add.mockRestore();
  });

  it("asks iOS for motion permission and reports a refusal", async () => {
    const ask = (answer: "granted" | "denied") =>
      ({ DeviceMotionEvent: { requestPermission: async () => answer } }) as unknown as Window;
    expect(await requestMotionPermission(ask("granted"))).toBe("granted");
    expect(await requestMotionPermission(ask("denied"))).toBe("denied");
    expect(await requestMotionPermission({} as Window)).toBe("unavailable");
    expect(await requestMotionPermission({ DeviceMotionEvent: {} } as unknown as Window)).toBe("granted");
  });
});
