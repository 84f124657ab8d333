import "fake-indexeddb/auto";
import { beforeEach, describe, expect, it, vi } from "vitest";
import { API_CACHE_NAME } from "../src/api-cache";
import { db, getMeta } from "../src/db";
import { addSteps, bestCount, getDay } from "../src/local-steps";
import { deadLetters, enqueueSync, pendingSyncs } from "../src/outbox";
import { claimDeviceFor, OTHER_WALKER_MESSAGE } from "../src/walker";
import { freshDatabase } from "./helpers";

const DAY = "2026-11-21";

describe("a second walker signing in on the same device", () => {
  beforeEach(freshDatabase);

  it("keeps the first walker's queued syncs aside and starts the new walker from zero", async () => {
    expect(await claimDeviceFor("walker-a")).toBe(false);
    await addSteps(DAY, 4_000);
    await enqueueSync(DAY, 4_000, "device_motion");

    expect(await claimDeviceFor("walker-b")).toBe(true);
    expect(await pendingSyncs()).toEqual([]);
    expect((await deadLetters()).map((letter) => [letter.body.steps, letter.message])).toEqual([
      [4_000, OTHER_WALKER_MESSAGE],
    ]);
    expect(bestCount(await getDay(DAY))).toBe(0);
    expect(await getMeta("cachedUserId")).toBe("walker-b");
    expect(await db.months.count()).toBe(0);
  });

  it("empties the last walker's screens kept for offline when another walker signs in, not for the same one", async () => {
    // The browser's Cache Storage, as far as the store uses it: which caches were emptied.
    const emptied: string[] = [];
    vi.stubGlobal("caches", {
      delete: async (name: string) => {
        emptied.push(name);
        return true;
      },
    });
    try {
      await claimDeviceFor("walker-a");
      await claimDeviceFor("walker-a");
      expect(emptied).toEqual([]);
      await claimDeviceFor("walker-b");
      expect(emptied).toEqual([API_CACHE_NAME]);
    } finally {
      vi.unstubAllGlobals();
    }
  });

  it("changes nothing when the same walker signs in again", async () => {
    await claimDeviceFor("walker-a");
    await addSteps(DAY, 1_500);
    await enqueueSync(DAY, 1_500, "device_motion");
    expect(await claimDeviceFor("walker-a")).toBe(false);
    expect(await pendingSyncs()).toHaveLength(1);
    expect(bestCount(await getDay(DAY))).toBe(1_500);
  });
});
