import { db, getMeta, setMeta } from "@charity-steps/client-store/db";
import { bestCount, getDay } from "@charity-steps/client-store/local-steps";
import { pendingSyncs } from "@charity-steps/client-store/outbox";
import { londonDay } from "@charity-steps/shared-types";
import { beforeEach, describe, expect, it, vi } from "vitest";
import { useTracking } from "../../../src/features/tracking/tracking-store";
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
