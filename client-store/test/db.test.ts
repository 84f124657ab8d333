import "fake-indexeddb/auto";
import { Dexie } from "dexie";
import { beforeEach, describe, expect, it } from "vitest";
import { CharityStepsDatabase, DATABASE_NAME, db, getDeviceId, getMeta, setMeta } from "../src/db";
import { bestCount } from "../src/local-steps";
import { freshDatabase } from "./helpers";

beforeEach(freshDatabase);

describe("the device database", () => {
  it("is one database named charity-steps with the five tables", () => {
    expect(db.name).toBe(DATABASE_NAME);
    expect(db.name).toBe("charity-steps");
    expect(db.verno).toBe(3);
    expect(db.tables.map((table) => table.name).sort()).toEqual([
      "days",
      "deadLetters",
      "meta",
      "months",
      "outbox",
    ]);
  });

  it("keeps a day's counters after the database is closed and opened again, as after a reload", async () => {
    await db.days.put({
      day: "2026-05-02",
      motion: 1200,
      synced: 0,
      updatedAt: 1,
    });
    db.close();
    const reopened = new CharityStepsDatabase();
    expect(await reopened.days.get("2026-05-02")).toMatchObject({ motion: 1200 });
    reopened.close();
    await db.open();
  });

  it("makes the device id once and gives the same id afterwards, even to callers racing", async () => {
    const [first, second] = await Promise.all([getDeviceId(), getDeviceId()]);
    expect(first).toMatch(/^[A-Za-z0-9_-]{1,64}$/);
    expect(second).toBe(first);
    expect(await getDeviceId()).toBe(first);
    expect(await getMeta("deviceId")).toBe(first);
  });

  it("stores typed meta values by key", async () => {
    await setMeta("healthConnection", "device_motion");
    await setMeta("joinDates", { "12": "2026-05-01T10:00:00.000Z" });
    await setMeta("cachedUserId", "walker-1");
    expect(await getMeta("healthConnection")).toBe("device_motion");
    expect(await getMeta("joinDates")).toEqual({ "12": "2026-05-01T10:00:00.000Z" });
    expect(await getMeta("cachedUserId")).toBe("walker-1");
    expect(await getMeta("lastDailyReset")).toBeUndefined();
  });

  it("allows only one pending outbox action per key", async () => {
    const action = {
      type: "step_sync" as const,
      key: "2026-05-02|dev|motion",
      deviceId: "dev",
      body: { steps: 10, date: "2026-05-02", source: "device_motion" as const },
      createdAt: 1,
      updatedAt: 1,
      attempts: 0,
    };
    await db.outbox.add(action);
    await expect(db.outbox.add({ ...action })).rejects.toThrow();
    expect(await db.outbox.count()).toBe(1);
  });
});

describe("a device still on the first version of the database", () => {
  it("keeps every day's measured count through each upgrade, and keeps the other tables", async () => {
    const name = "charity-steps-version-1";
    await Dexie.delete(name);
    // The first version's schema and rows exactly as that version of the app wrote them.
    const old = new Dexie(name);
    old.version(1).stores({
      days: "day",
      months: "month",
      meta: "key",
      outbox: "++id, &key",
      deadLetters: "++id, key",
    });
    await old.table("days").bulkPut([
      // What the app wrote: the detector's count in `real`, the background estimate beside it.
      { day: "2026-05-01", local: 0, real: 4200, background: 300, backup: 0, synced: 4000, updatedAt: 11 },
      { day: "2026-05-02", local: 0, real: 100, background: 2500, backup: 0, synced: 0, updatedAt: 12 },
      // `local` and `backup` only ever held test data, but a count there still counts.
      { day: "2026-05-03", local: 6000, real: 10, background: 0, backup: 7000, synced: 0, updatedAt: 13 },
      // A corrupt value counted as nothing before and still does.
      { day: "2026-05-04", local: -3, real: 90_000, background: 1.5, backup: 50, synced: 0, updatedAt: 14 },
    ]);
    await old.table("months").put({ month: "2026-05", steps: 13_750, updatedAt: 14 });
    await old.table("meta").put({ key: "deviceId", value: "device-from-version-1" });
    await old.table("outbox").add({
      type: "step_sync",
      key: "2026-05-02|device-from-version-1|motion",
      deviceId: "device-from-version-1",
      body: { steps: 2500, date: "2026-05-02", source: "background_device_motion" },
      createdAt: 12,
      updatedAt: 12,
      attempts: 0,
    });
    old.close();

    const upgraded = new CharityStepsDatabase(name);
    await upgraded.open();
    expect(upgraded.verno).toBe(3);
    const days = await upgraded.days.orderBy("day").toArray();
    // The counts under the old names are kept; the background estimates go (none was acknowledged
    // beyond what the detector counted).
    expect(days).toEqual([
      { day: "2026-05-01", motion: 4200, synced: 4000, updatedAt: 11 },
      { day: "2026-05-02", motion: 100, synced: 0, updatedAt: 12 },
      { day: "2026-05-03", motion: 7000, synced: 0, updatedAt: 13 },
      { day: "2026-05-04", motion: 50, synced: 0, updatedAt: 14 },
    ]);
    expect(days.map(bestCount)).toEqual([4200, 100, 7000, 50]);
    // The month's total on the device never shrinks: what was shown stays shown.
    expect(await upgraded.months.get("2026-05")).toMatchObject({ steps: 13_750 });
    expect(await upgraded.meta.get("deviceId")).toMatchObject({ value: "device-from-version-1" });
    // The queued estimate is never sent.
    expect(await upgraded.outbox.toArray()).toEqual([]);
    upgraded.close();
    await Dexie.delete(name);
  });
});

describe("a device that added background estimates (version 2)", () => {
  it("keeps what the server acknowledged, drops what it never had, and never sends a queued estimate", async () => {
    const name = "charity-steps-version-2";
    await Dexie.delete(name);
    const old = new Dexie(name);
    old.version(2).stores({
      days: "day",
      months: "month",
      meta: "key",
      outbox: "++id, &key",
      deadLetters: "++id, key",
    });
    await old.table("days").bulkPut([
      // The estimate reached the server: the device keeps that count, so it agrees with the server.
      { day: "2026-05-10", motion: 1000, background: 1500, synced: 1500, updatedAt: 1 },
      // Partly acknowledged: the device keeps what the server has, not the unsent rest.
      { day: "2026-05-11", motion: 1000, background: 1600, synced: 1200, updatedAt: 2 },
      // Never sent: only the measured steps stay.
      { day: "2026-05-12", motion: 500, background: 900, synced: 0, updatedAt: 3 },
    ]);
    const queued = { deviceId: "dev", createdAt: 3, updatedAt: 3, attempts: 0, type: "step_sync" };
    await old.table("outbox").bulkAdd([
      {
        ...queued,
        key: "2026-05-12|dev|motion",
        body: { steps: 900, date: "2026-05-12", source: "background_device_motion" },
      },
      {
        ...queued,
        key: "2026-05-12|dev|apple_health",
        body: { steps: 4000, date: "2026-05-12", source: "apple_health" },
      },
    ]);
    old.close();

    const upgraded = new CharityStepsDatabase(name);
    await upgraded.open();
    expect((await upgraded.days.orderBy("day").toArray()).map((day) => [day.day, day.motion])).toEqual([
      ["2026-05-10", 1500],
      ["2026-05-11", 1200],
      ["2026-05-12", 500],
    ]);
    expect((await upgraded.days.toArray()).some((day) => "background" in day)).toBe(false);
    expect((await upgraded.outbox.toArray()).map((action) => action.body.source)).toEqual(["apple_health"]);
    upgraded.close();
    await Dexie.delete(name);
  });
});
