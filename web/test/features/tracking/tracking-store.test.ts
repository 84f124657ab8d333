import { db, getMeta, setMeta } from "@charity-steps/client-store/db";
import { bestCount, getDay } from "@charity-steps/client-store/local-steps";
import { pendingSyncs } from "@charity-steps/client-store/outbox";
import { londonDay } from "@charity-steps/shared-types";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { FIRST_READING_WAIT_MS, useTracking } from "../../../src/features/tracking/tracking-store";
import { toast, useToastStore } from "../../../src/lib/toast-store";
import { fakeWakeLock } from "../../support/wake-lock";

const NOW = Date.parse("2026-11-21T20:00:00Z");
const HOUR = 60 * 60_000;

beforeEach(async () => {
  await db.delete();
  await db.open();
  useTracking.setState({ connection: "disconnected", live: false, pausedFor: null });
});

describe("time in the background", () => {
  it("adds nothing for an hour away, and says that counting paused", async () => {
    await setMeta("healthConnection", "device_motion");
    useTracking.setState({ connection: "device_motion", live: true });
    const { noteHidden, noteReturned } = useTracking.getState();

    await noteHidden(NOW);
    await noteReturned(NOW + HOUR);

    expect(bestCount(await getDay(londonDay(NOW)))).toBe(0);
    expect(await db.days.count()).toBe(0);
    expect(await pendingSyncs()).toEqual([]);
    expect(useTracking.getState().pausedFor).toBe(HOUR);
    expect((await getMeta("backgroundFlags"))?.hiddenAt).toBeNull();

    useTracking.getState().dismissPause();
    expect(useTracking.getState().pausedFor).toBeNull();
  });

  it("says nothing for a minute or less away, nor when the walker was not counting", async () => {
    useTracking.setState({ connection: "device_motion", live: true });
    await useTracking.getState().noteHidden(NOW);
    await useTracking.getState().noteReturned(NOW + 60_000);
    expect(useTracking.getState().pausedFor).toBeNull();

    useTracking.setState({ connection: "disconnected", live: false });
    await useTracking.getState().noteHidden(NOW);
    await useTracking.getState().noteReturned(NOW + HOUR);
    expect(useTracking.getState().pausedFor).toBeNull();
    expect(await pendingSyncs()).toEqual([]);
  });

  it("still says it after the tab was unloaded while hidden (the time is kept on the device)", async () => {
    await setMeta("healthConnection", "device_motion");
    await setMeta("backgroundFlags", { enabled: true, hiddenAt: Date.now() - 2 * HOUR });
    await useTracking.getState().restore();
    expect(useTracking.getState().pausedFor).toBeGreaterThanOrEqual(2 * HOUR);
    expect(await pendingSyncs()).toEqual([]);
    useTracking.getState().stop();
  });
});

describe("the screen kept on while counting", () => {
  it("is let go when counting stops, as it does at sign-out", async () => {
    const wakeLock = fakeWakeLock();
    // A browser with motion sensors that needs no tap to use them (Android, desktop).
    vi.stubGlobal("DeviceMotionEvent", class extends Event {});
    try {
      await setMeta("healthConnection", "device_motion");
      await useTracking.getState().restore();
      await vi.waitFor(() => expect(wakeLock.held()).toBe(1), { timeout: 5_000 });
      expect(useTracking.getState().live).toBe(true);

      // What the app's tracking does as the walker signs out (its effect's clean-up).
      useTracking.getState().stop();
      await vi.waitFor(() => expect(wakeLock.held()).toBe(0), { timeout: 5_000 });
      expect(useTracking.getState().live).toBe(false);
    } finally {
      Reflect.deleteProperty(navigator, "wakeLock");
      vi.unstubAllGlobals();
    }
  });
});

describe("the remembered choice", () => {
  it("carries on with motion where Apple Health or Google Fit was chosen before (they counted motion)", async () => {
    for (const old of ["apple_health", "google_fit"] as const) {
      await setMeta("healthConnection", old);
      await useTracking.getState().restore();
      expect(useTracking.getState().connection).toBe("device_motion");
      expect(await getMeta("healthConnection")).toBe("device_motion");
      useTracking.getState().stop();
    }
  });
});

/** A `devicemotion` event carrying `acceleration` (gravity included), as the browser fires it. */
function motion(acceleration: { x: number | null; y: number | null; z: number | null } | null): Event {
  const event = new Event("devicemotion");
  Object.defineProperty(event, "accelerationIncludingGravity", { value: acceleration });
  return event;
}

/** What desktop Chrome fires with no motion sensor: events, with no numbers in them. */
const sensorless = () => {
  window.dispatchEvent(motion(null));
  window.dispatchEvent(motion({ x: null, y: null, z: null }));
};

const shown = () => {
  const { title, description } = useToastStore.getState().current ?? {};
  return { title, description };
};

const NO_READINGS = "This device isn't sending motion readings, so steps won't be counted here.";

describe("motion readings on a device with no motion sensor", () => {
  beforeEach(() => {
    // A browser that needs no tap to use motion (Android, desktop).
    vi.stubGlobal("DeviceMotionEvent", class extends Event {});
    vi.useFakeTimers({ toFake: ["setTimeout", "clearTimeout", "setInterval", "clearInterval"] });
  });
  afterEach(() => {
    useTracking.getState().stop();
    vi.useRealTimers();
    vi.unstubAllGlobals();
  });

  it("Test Movement takes events without numbers for no readings at all", async () => {
    const testing = useTracking.getState().testMovement();
    await vi.advanceTimersByTimeAsync(0);
    sensorless();
    await vi.advanceTimersByTimeAsync(3_000);
    await testing;
    expect(shown()).toEqual({ title: "No Readings Arrived", description: NO_READINGS });

    // A phone lying still sends numbers, and they are readings.
    const onPhone = useTracking.getState().testMovement();
    await vi.advanceTimersByTimeAsync(0);
    window.dispatchEvent(motion({ x: 0.1, y: 0.2, z: 9.8 }));
    window.dispatchEvent(motion({ x: 0.1, y: 0.2, z: 9.81 }));
    await vi.advanceTimersByTimeAsync(3_000);
    await onPhone;
    expect(shown().title).toBe("Readings Arriving, No Movement");
  });

  it("Enable says the device sends no motion readings, not connected, when none arrive", async () => {
    await useTracking.getState().enable();
    sensorless();
    await vi.advanceTimersByTimeAsync(FIRST_READING_WAIT_MS - 1);
    expect(useToastStore.getState().current).toBeNull();

    await vi.advanceTimersByTimeAsync(1);
    expect(shown()).toEqual({ title: "No Motion Readings", description: NO_READINGS });
    // Still on: a phone whose first reading is only slow counts when it comes, and says so.
    expect(useTracking.getState().connection).toBe("device_motion");
    window.dispatchEvent(motion({ x: 0.1, y: 0.2, z: 9.8 }));
    expect(shown().title).toBe("Device Motion Connected!");
  });

  it("Enable says connected once the phone's first reading arrives, and nothing after", async () => {
    await useTracking.getState().enable();
    expect(useToastStore.getState().current).toBeNull();
    window.dispatchEvent(motion({ x: 0.1, y: 0.2, z: 9.8 }));
    expect(shown()).toEqual({
      title: "Device Motion Connected!",
      description: "Your steps are now counted as you walk.",
    });
    useToastStore.setState({ current: null });
    await vi.advanceTimersByTimeAsync(FIRST_READING_WAIT_MS);
    window.dispatchEvent(motion({ x: 0.1, y: 0.2, z: 9.81 }));
    expect(useToastStore.getState().current).toBeNull();
  });

  it("the warning waits for the toast on screen to close, and is not given once disconnected", async () => {
    await useTracking.getState().enable();
    const added = toast({ title: "Steps Added Successfully" });
    await vi.advanceTimersByTimeAsync(FIRST_READING_WAIT_MS);
    expect(shown().title).toBe("Steps Added Successfully");
    added.dismiss();
    expect(shown().title).toBe("No Motion Readings");

    await useTracking.getState().enable();
    await useTracking.getState().disconnect();
    await vi.advanceTimersByTimeAsync(FIRST_READING_WAIT_MS);
    window.dispatchEvent(motion({ x: 0.1, y: 0.2, z: 9.8 }));
    expect(shown().title).toBe("Device Motion Disconnected");
  });
});
