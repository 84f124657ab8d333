import "fake-indexeddb/auto";
import { beforeEach, describe, expect, it, vi } from "vitest";
import { db, isValidDailySteps } from "../src/db";
import {
  addSteps,
  bestCount,
  cleanupOldSteps,
  emptyDay,
  getDay,
  markSynced,
  readDeviceSteps,
  unsyncedDays,
  watchDeviceSteps,
} from "../src/local-steps";
import { freshDatabase } from "./helpers";

beforeEach(freshDatabase);

// 2026-05-20 12:00 in London (BST).
const NOW = Date.parse("2026-05-20T11:00:00Z");

describe("daily step values", () => {
  it("accepts only whole numbers from 0 to 50,000", () => {
    expect([0, 1, 50_000].map(isValidDailySteps)).toEqual([true, true, true]);
    expect([-1, 50_001, 1.5, Number.NaN, "10"].map(isValidDailySteps)).toEqual([
      false,
      false,
      false,
      false,
      false,
    ]);
  });

  it("only ever raises a day's counter", async () => {
    await addSteps("2026-05-20", 4000, NOW);
    expect(await addSteps("2026-05-20", 0, NOW)).toBe(4000);
    await expect(addSteps("2026-05-20", -1500, NOW)).rejects.toThrow(RangeError);
    expect((await getDay("2026-05-20"))?.motion).toBe(4000);
    await addSteps("2026-05-20", 200, NOW);
    expect((await getDay("2026-05-20"))?.motion).toBe(4200);
  });

  it("caps a day at 50,000 and refuses negative or fractional steps", async () => {
    expect(await addSteps("2026-05-20", 70_000, NOW)).toBe(50_000);
    await expect(addSteps("2026-05-20", -5, NOW)).rejects.toThrow(RangeError);
    await expect(addSteps("2026-05-20", 10.5, NOW)).rejects.toThrow(RangeError);
    expect(await getDay("2026-05-20")).toMatchObject({ motion: 50_000 });
  });

  it("adds steps on top of the day's best count, up to 50,000", async () => {
    await addSteps("2026-05-20", 10, NOW);
    await addSteps("2026-05-20", 15, NOW);
    expect((await getDay("2026-05-20"))?.motion).toBe(25);
    expect(await addSteps("2026-05-20", 75, NOW)).toBe(100);
    expect(await addSteps("2026-05-20", 5, NOW)).toBe(105);
    expect(await addSteps("2026-05-20", 60_000, NOW)).toBe(50_000);
    await expect(addSteps("2026-05-20", -1, NOW)).rejects.toThrow(RangeError);
  });

  it("counts a day as its motion count, a corrupt value as nothing", () => {
    const day = { ...emptyDay("2026-05-20"), motion: 3000 };
    expect(bestCount(day)).toBe(3000);
    expect(bestCount({ ...day, motion: 90_000 })).toBe(0);
    expect(bestCount({ ...day, motion: Number.NaN })).toBe(0);
    expect(bestCount(undefined)).toBe(0);
  });
});

describe("today and this month on the device", () => {
  it("shows today's best count and the month's sum of best counts", async () => {
    await addSteps("2026-05-01", 8000, NOW);
    await addSteps("2026-05-01", 1000, NOW);
    await addSteps("2026-05-19", 6000, NOW);
    await addSteps("2026-05-20", 1200, NOW);
    await addSteps("2026-05-20", 300, NOW);
    await addSteps("2026-04-30", 7000, NOW);

    const totals = await readDeviceSteps(NOW);
    expect(totals).toMatchObject({ todaySteps: 1500, monthSteps: 16_500, unsyncedToday: 1500 });
    expect(totals.days.get("2026-05-01")).toEqual({ steps: 9000, unsynced: 9000 });
    expect((await db.months.get("2026-05"))?.steps).toBe(16_500);
    expect((await db.months.get("2026-04"))?.steps).toBe(7000);
  });

  it("shows zero on a device that has counted nothing", async () => {
    expect(await readDeviceSteps(NOW)).toMatchObject({ todaySteps: 0, monthSteps: 0, unsyncedToday: 0 });
  });

  it("lists only days with steps the server has not acknowledged", async () => {
    await addSteps("2026-05-18", 5000, NOW);
    await addSteps("2026-05-19", 4000, NOW);
    await addSteps("2026-05-20", 0, NOW);
    await markSynced("2026-05-19", 4000, NOW);
    await markSynced("2026-05-18", 3000, NOW);
    expect((await unsyncedDays(NOW)).map((day) => day.day)).toEqual(["2026-05-18"]);
    expect((await readDeviceSteps(NOW)).unsyncedToday).toBe(0);
  });
});

describe("watching this device's steps", () => {
  it("tells of them at once and after every write, until unsubscribed", async () => {
    vi.useFakeTimers({ toFake: ["Date"], now: NOW });
    try {
      const today: number[] = [];
      const watch = watchDeviceSteps(
        (steps) => today.push(steps.todaySteps),
        (error) => {
          throw error;
        },
      );
      await vi.waitFor(() => expect(today).toEqual([0]));
      await addSteps("2026-05-20", 1200, NOW);
      await vi.waitFor(() => expect(today.at(-1)).toBe(1200));
      watch.unsubscribe();
      const told = today.length;
      await addSteps("2026-05-20", 300, NOW);
      expect((await readDeviceSteps(NOW)).todaySteps).toBe(1500);
      expect(today).toHaveLength(told);
    } finally {
      vi.useRealTimers();
    }
  });
});

describe("cleanup at start", () => {
  it("removes days more than 30 days back and keeps the rest", async () => {
    await addSteps("2026-04-19", 100, NOW); // 31 days back
    await addSteps("2026-04-20", 200, NOW); // 30 days back: the server still takes it
    await addSteps("2026-05-20", 300, NOW);
    const result = await cleanupOldSteps(NOW);
    expect(result.daysRemoved).toBe(1);
    expect((await db.days.toArray()).map((day) => day.day)).toEqual(["2026-04-20", "2026-05-20"]);
    // The month totals outlive the days they were made from.
    expect((await db.months.get("2026-04"))?.steps).toBe(300);
  });
});
