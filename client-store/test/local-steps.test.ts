import "fake-indexeddb/auto";
import { beforeEach, describe, expect, it } from "vitest";
import { db } from "../src/db";
import {
  addToBestCount,
  bestCount,
  cleanupOldSteps,
  emptyDay,
  getDay,
  isValidDailySteps,
  markSynced,
  readLocalTotals,
  setDaySteps,
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

  it("only ever raises a day's counter with set", async () => {
    await setDaySteps("2026-05-20", "local", 4000, NOW);
    expect(await setDaySteps("2026-05-20", "local", 2500, NOW)).toBe(4000);
    expect((await getDay("2026-05-20"))?.local).toBe(4000);
    await setDaySteps("2026-05-20", "local", 4200, NOW);
    expect((await getDay("2026-05-20"))?.local).toBe(4200);
  });

  it("caps a day at 50,000 and refuses negative or fractional steps", async () => {
    expect(await setDaySteps("2026-05-20", "local", 70_000, NOW)).toBe(50_000);
    await expect(setDaySteps("2026-05-20", "real", -5, NOW)).rejects.toThrow(RangeError);
    await expect(setDaySteps("2026-05-20", "real", 10.5, NOW)).rejects.toThrow(RangeError);
    expect(await getDay("2026-05-20")).toMatchObject({ local: 50_000, real: 0 });
  });

  it("adds steps on top of the day's best count, up to 50,000", async () => {
    await addToBestCount("2026-05-20", "local", 10, NOW);
    await addToBestCount("2026-05-20", "local", 15, NOW);
    expect((await getDay("2026-05-20"))?.local).toBe(25);
    await setDaySteps("2026-05-20", "background", 100, NOW);
    expect(await addToBestCount("2026-05-20", "local", 5, NOW)).toBe(105);
    expect(await addToBestCount("2026-05-20", "local", 60_000, NOW)).toBe(50_000);
    await expect(addToBestCount("2026-05-20", "local", -1, NOW)).rejects.toThrow(RangeError);
  });

  it("counts a day as the highest of its counters, ignoring corrupt values", () => {
    const day = { ...emptyDay("2026-05-20"), local: 3000, real: 2000, background: 3500, backup: 1000 };
    expect(bestCount(day)).toBe(3500);
    expect(bestCount({ ...day, backup: 90_000, background: Number.NaN })).toBe(3000);
    expect(bestCount(undefined)).toBe(0);
  });
});

describe("today and this month on the device", () => {
  it("shows today's best count and the month's sum of best counts", async () => {
    await setDaySteps("2026-05-01", "local", 8000, NOW);
    await setDaySteps("2026-05-01", "backup", 9000, NOW);
    await setDaySteps("2026-05-19", "local", 6000, NOW);
    await setDaySteps("2026-05-20", "local", 1200, NOW);
    await setDaySteps("2026-05-20", "background", 1500, NOW);
    await setDaySteps("2026-04-30", "local", 7000, NOW);

    const totals = await readLocalTotals(NOW);
    expect(totals).toMatchObject({
      day: "2026-05-20",
      month: "2026-05",
      todaySteps: 1500,
      monthSteps: 16_500,
    });
    expect(totals.unsyncedToday).toBe(1500);
    expect((await db.months.get("2026-04"))?.steps).toBe(7000);
  });

  it("shows zero on a device that has counted nothing", async () => {
    expect(await readLocalTotals(NOW)).toMatchObject({ todaySteps: 0, monthSteps: 0, unsyncedToday: 0 });
  });

  it("lists only days with steps the server has not acknowledged", async () => {
    await setDaySteps("2026-05-18", "local", 5000, NOW);
    await setDaySteps("2026-05-19", "local", 4000, NOW);
    await setDaySteps("2026-05-20", "local", 0, NOW);
    await markSynced("2026-05-19", 4000, NOW);
    await markSynced("2026-05-18", 3000, NOW);
    expect((await unsyncedDays(NOW)).map((day) => day.day)).toEqual(["2026-05-18"]);
    expect((await readLocalTotals(NOW)).unsyncedToday).toBe(0);
  });
});

describe("cleanup at start", () => {
  it("removes days more than 30 days back and keeps the rest", async () => {
    await setDaySteps("2026-04-19", "local", 100, NOW); // 31 days back
    await setDaySteps("2026-04-20", "local", 200, NOW); // 30 days back: the server still takes it
    await setDaySteps("2026-05-20", "local", 300, NOW);
    const result = await cleanupOldSteps(NOW);
    expect(result.daysRemoved).toBe(1);
    expect((await db.days.toArray()).map((day) => day.day)).toEqual(["2026-04-20", "2026-05-20"]);
    // The month totals outlive the days they were made from.
    expect((await db.months.get("2026-04"))?.steps).toBe(300);
  });

  it("clears background estimates older than 7 days once the server has them, never unsent ones", async () => {
    await setDaySteps("2026-05-12", "background", 900, NOW); // 8 days back, acknowledged
    await markSynced("2026-05-12", 900, NOW);
    await setDaySteps("2026-05-11", "background", 700, NOW); // 9 days back, never sent
    await setDaySteps("2026-05-14", "background", 500, NOW); // 6 days back
    await markSynced("2026-05-14", 500, NOW);

    const result = await cleanupOldSteps(NOW);
    expect(result.backgroundCleared).toBe(1);
    expect((await getDay("2026-05-12"))?.background).toBe(0);
    expect((await getDay("2026-05-11"))?.background).toBe(700);
    expect((await getDay("2026-05-14"))?.background).toBe(500);
  });
});
