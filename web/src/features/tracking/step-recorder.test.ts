import { db } from "@charity-steps/client-store/db";
import { bestCount, getDay, readDeviceSteps } from "@charity-steps/client-store/local-steps";
import { pendingSyncs } from "@charity-steps/client-store/outbox";
import { beforeEach, describe, expect, it, vi } from "vitest";
import { mergeHistory, mergeSteps } from "../../lib/use-live-steps";
import { addToDay, backgroundEstimate, sendRealtime } from "./step-recorder";

const NOW = Date.parse("2026-11-21T12:00:00Z");
const TODAY = "2026-11-21";

beforeEach(async () => {
  await db.delete();
  await db.open();
});

describe("recording counted steps on the device", () => {
  it("adds live and background steps on top of the day's best count", async () => {
    await addToDay(TODAY, "motion", 40, NOW);
    await addToDay(TODAY, "background", 120, NOW);
    await addToDay(TODAY, "motion", 10, NOW);
    expect(bestCount(await getDay(TODAY))).toBe(170);
  });

  it("loses nothing when live steps and a background estimate are added at the same moment", async () => {
    await addToDay(TODAY, "motion", 100, NOW);
    await Promise.all([addToDay(TODAY, "motion", 7, NOW), addToDay(TODAY, "background", 30, NOW)]);
    expect(bestCount(await getDay(TODAY))).toBe(137);
  });

  it("estimates 1.5–4.5 steps a minute away, and nothing for a minute or less", () => {
    expect(backgroundEstimate(60_000, () => 0.5)).toBe(0);
    expect(backgroundEstimate(10 * 60_000, () => 0)).toBe(15);
    expect(backgroundEstimate(10 * 60_000, () => 1)).toBe(45);
  });

  it("sends today's count with its London date and marks it synced when the server takes it", async () => {
    await addToDay(TODAY, "motion", 250, NOW);
    const answer = { ok: true, date: TODAY, daySteps: 250, todaySteps: 250, monthlySteps: 9_250 };
    const fetchMock = vi.fn(async () => Response.json(answer));
    expect(await sendRealtime("device_motion", NOW, fetchMock)).toEqual(answer);
    const [url, init] = fetchMock.mock.calls[0] as unknown as [string, RequestInit];
    expect(url).toBe("/api/steps/sync");
    expect(JSON.parse(init.body as string)).toEqual({ steps: 250, date: TODAY, source: "device_motion" });
    expect((await getDay(TODAY))?.synced).toBe(250);
    expect(await pendingSyncs()).toEqual([]);
  });

  it("queues the count in the outbox when the real-time sync fails (offline or signed out)", async () => {
    await addToDay(TODAY, "motion", 300, NOW);
    await sendRealtime(
      "device_motion",
      NOW,
      vi.fn(async () => Promise.reject(new TypeError("Failed to fetch"))),
    );
    await sendRealtime(
      "device_motion",
      NOW,
      vi.fn(async () => new Response("{}", { status: 401 })),
    );
    const queued = await pendingSyncs();
    expect(queued.map((action) => action.body)).toEqual([
      { steps: 300, date: TODAY, source: "device_motion" },
    ]);
    expect((await getDay(TODAY))?.synced).toBe(0);
  });
});

describe("the dashboard's numbers", () => {
  it("add this device's unsynced steps to the server's totals, never showing less than the device counted", async () => {
    vi.useFakeTimers({ toFake: ["Date"] });
    vi.setSystemTime(NOW);
    await addToDay(TODAY, "motion", 1_000, NOW);
    await db.days.update(TODAY, { synced: 600 });
    await addToDay("2026-11-20", "motion", 2_000, NOW);
    const device = await readDeviceSteps(NOW);
    expect(device).toMatchObject({
      todaySteps: 1_000,
      monthSteps: 3_000,
      unsyncedToday: 400,
      unsyncedMonth: 2_400,
    });
    // The chart adds the unsynced days to the server's history.
    const history = [
      { date: "2026-11-19", steps: 7_000 },
      { date: "2026-11-20", steps: 500 },
      { date: TODAY, steps: 5_600 },
    ];
    expect(mergeHistory(history, device)).toEqual([
      { date: "2026-11-19", steps: 7_000 },
      { date: "2026-11-20", steps: 2_500 },
      { date: TODAY, steps: 6_000 },
    ]);
    // The server has the 600 synced steps plus 5,000 from another phone and a manual entry.
    expect(mergeSteps({ todaySteps: 5_600, monthlySteps: 20_600 }, device)).toEqual({
      todaySteps: 6_000,
      monthSteps: 23_000,
    });
    // Offline with nothing from the server: the device's own counts.
    expect(mergeSteps(null, device)).toEqual({ todaySteps: 1_000, monthSteps: 3_000 });
    vi.useRealTimers();
  });
});
