import "fake-indexeddb/auto";
import { beforeEach, describe, expect, it } from "vitest";
import { db, isValidDailySteps } from "../src/db";
import {
  addToBestCount,
  bestCount,
  cleanupOldSteps,
  emptyDay,
  getDay,
  markSynced,
  readDeviceSteps,
  unsyncedDays,
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
    await addToBestCount("2026-05-20", "motion", 4000, NOW);
    expect(await addToBestCount("2026-05-20", "motion", 0, NOW)).toBe(4000);
    await expect(addToBestCount("2026-05-20", "motion", -1500, NOW)).rejects.toThrow(RangeError);
    expect((await getDay("2026-05-20"))?.motion).toBe(4000);
    await addToBestCount("2026-05-20", "motion", 200, NOW);
    expect((await getDay("2026-05-20"))?.motion).toBe(4200);
  });

  it("caps a day at 50,000 and refuses negative or fractional steps", async () => {
    expect(await addToBestCount("2026-05-20", "motion", 70_000, NOW)).toBe(50_000);
    await expect(addToBestCount("2026-05-20", "background", -5, NOW)).rejects.toThrow(RangeError);
    await expect(addToBestCount("2026-05-20", "background", 10.5, NOW)).rejects.toThrow(RangeError);
    expect(await getDay("2026-05-20")).toMatchObject({ motion: 50_000, background: 0 });
  });

  it("adds steps on top of the day's best count, up to 50,000", async () => {
    await addToBestCount("2026-05-20", "motion", 10, NOW);
    await addToBestCount("2026-05-20", "motion", 15, NOW);
    expect((await getDay("2026-05-20"))?.motion).toBe(25);
    expect(await addToBestCount("2026-05-20", "background", 75, NOW)).toBe(100);
    expect(await addToBestCount("2026-05-20", "motion", 5, NOW)).toBe(105);
    expect(await addToBestCount("2026-05-20", "motion", 60_000, NOW)).toBe(50_000);
    await expect(addToBestCount("2026-05-20", "motion", -1, NOW)).rejects.toThrow(RangeError);
  });

  it("counts a day as the highest of its counters, ignoring corrupt values", () => {
    const day = { ...emptyDay("2026-05-20"), motion: 3000, background: 3500 };
    expect(bestCount(day)).toBe(3500);
    expect(bestCount({ ...day, background: 90_000 })).toBe(3000);
    expect(bestCount({ ...day, motion: Number.NaN, background: 2000 })).toBe(2000);
    expect(bestCount(undefined)).toBe(0);
  });
});

describe("today and this month on the device", () => {
  it("shows today's best count and the month's sum of best counts", async () => {
    await addToBestCount("2026-05-01", "motion", 8000, NOW);
    await addToBestCount("2026-05-01", "background", 1000, NOW);
    await addToBestCount("2026-05-19", "motion", 6000, NOW);
    await addToBestCount("2026-05-20", "motion", 1200, NOW);
    await addToBestCount("2026-05-20", "background", 300, NOW);
    await addToBestCount("2026-04-30", "motion", 7000, NOW);

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
    await addToBestCount("2026-05-18", "motion", 5000, NOW);
    await addToBestCount("2026-05-19", "motion", 4000, NOW);
    await addToBestCount("2026-05-20", "motion", 0, NOW);
    await markSynced("2026-05-19", 4000, NOW);
    await markSynced("2026-05-18", 3000, NOW);
    expect((await unsyncedDays(NOW)).map((day) => day.day)).toEqual(["2026-05-18"]);
    expect((await readDeviceSteps(NOW)).unsyncedToday).toBe(0);
  });
});

describe("cleanup at start", () => {
  it("removes days more than 30 days back and keeps the rest", async () => {
    await addToBestCount("2026-04-19", "motion", 100, NOW); // 31 days back
    await addToBestCount("2026-04-20", "motion", 200, NOW); // 30 days back: the server still takes it
    await addToBestCount("2026-05-20", "motion", 300, NOW);
    const result = await cleanupOldSteps(NOW);
    expect(result.daysRemoved).toBe(1);
    expect((await db.days.toArray()).map((day) => day.day)).toEqual(["2026-04-20", "2026-05-20"]);
    // The month totals outlive the days they were made from.
    expect((await db.months.get("2026-04"))?.steps).toBe(300);
  });

  it("clears background estimates older than 7 days once the server has them, never unsent ones", async () => {
    await addToBestCount("2026-05-12", "background", 900, NOW); // 8 days back, acknowledged
    await markSynced("2026-05-12", 900, NOW);
    await addToBestCount("2026-05-11", "background", 700, NOW); // 9 days back, never sent
    await addToBestCount("2026-05-14", "background", 500, NOW); // 6 days back
    await markSynced("2026-05-14", 500, NOW);

    const result = await cleanupOldSteps(NOW);
    expect(result.backgroundCleared).toBe(1);
    expect((await getDay("2026-05-12"))?.background).toBe(0);
    expect((await getDay("2026-05-11"))?.background).toBe(700);
    expect((await getDay("2026-05-14"))?.background).toBe(500);
  });
});
