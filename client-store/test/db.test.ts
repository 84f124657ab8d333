import "fake-indexeddb/auto";
import { beforeEach, describe, expect, it } from "vitest";
import { CharityStepsDatabase, DATABASE_NAME, db, getDeviceId, getMeta, setMeta } from "../src/db";
import { freshDatabase } from "./helpers";

beforeEach(freshDatabase);

describe("the device database", () => {
  it("is one database named charity-steps with the five tables", () => {
    expect(db.name).toBe(DATABASE_NAME);
    expect(db.name).toBe("charity-steps");
    expect(db.verno).toBe(1);
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
      local: 1200,
      real: 0,
      background: 300,
      backup: 0,
      synced: 0,
      updatedAt: 1,
    });
    db.close();
    const reopened = new CharityStepsDatabase();
    expect(await reopened.days.get("2026-05-02")).toMatchObject({ local: 1200, background: 300 });
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
