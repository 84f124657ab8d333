import { db } from "@charity-steps/client-store/db";
import { addSteps, bestCount, getDay, readDeviceSteps } from "@charity-steps/client-store/local-steps";
import { pendingSyncs, replayOutbox } from "@charity-steps/client-store/outbox";
import { HttpResponse, http } from "msw";
import { beforeEach, describe, expect, it, vi } from "vitest";
import { createRealtimeSync, recordSteps } from "../../../src/features/tracking/step-recorder";
import { mergeHistory, mergeSteps } from "../../../src/lib/use-live-steps";
import { stepSyncTaken } from "../../support/handlers";
import { recordRequests, server } from "../../support/server";

const NOW = Date.parse("2026-11-21T12:00:00Z");
const TODAY = "2026-11-21";

beforeEach(async () => {
  await db.delete();
  await db.open();
});

describe("recording counted steps on the device", () => {
  it("adds counted steps to the day, and loses none added at the same moment", async () => {
    await recordSteps(40, NOW);
    await Promise.all([recordSteps(7, NOW), recordSteps(30, NOW)]);
    expect(bestCount(await getDay(TODAY))).toBe(77);
    expect((await pendingSyncs()).map((action) => action.body)).toEqual([
      { steps: 77, date: TODAY, source: "device_motion" },
    ]);
  });
});

/** The API's step sync taking every count; returns the syncs sent, each with its body. */
function syncServer() {
  server.use(stepSyncTaken);
  const requests = recordRequests();
  return { posts: () => requests.map(({ url, body }) => ({ url, body })) };
}

// Steps reach the server only through the outbox's replay: each test counts every sync sent.
describe("the real-time sync", () => {
  it("sends the 10th step by replaying the outbox: one POST, the outbox row gone, nothing sent twice", async () => {
    const api = syncServer();
    const onSent = vi.fn();
    const realtime = createRealtimeSync({ replay: { now: () => NOW }, onSent });
    const step = async (at: number) => {
      await recordSteps(1, at);
      return realtime.stepsCounted(1, at);
    };

    // The first step after the app starts goes at once (no real-time sync for over 60 s).
    await step(NOW);
    expect(api.posts()).toHaveLength(1);
    for (let count = 2; count <= 10; count += 1) expect(await step(NOW + count * 500)).toBeNull();
    expect(api.posts()).toHaveLength(1);
    expect((await pendingSyncs()).map((action) => action.body.steps)).toEqual([10]);

    // The 10th step since the last real-time sync.
    const summary = await step(NOW + 11 * 500);
    expect(summary).toMatchObject({ sent: 1, kept: 0 });
    expect(api.posts()).toEqual([
      { url: "/api/steps/sync", body: { steps: 1, date: TODAY, source: "device_motion" } },
      { url: "/api/steps/sync", body: { steps: 11, date: TODAY, source: "device_motion" } },
    ]);
    expect(await pendingSyncs()).toEqual([]);
    expect((await getDay(TODAY))?.synced).toBe(11);
    expect(onSent).toHaveBeenCalledTimes(2);

    // The page's sync engine and the service worker replay the same outbox: nothing is left to send.
    expect(await replayOutbox()).toMatchObject({ sent: 0, kept: 0 });
    expect(await realtime.syncNow()).toMatchObject({ sent: 0 });
    expect(api.posts()).toHaveLength(2);
  });

  it("also goes after more than 60 s, whatever the number of steps", async () => {
    const api = syncServer();
    const realtime = createRealtimeSync();
    await recordSteps(3, NOW);
    await realtime.stepsCounted(3, NOW);
    await recordSteps(2, NOW + 60_000);
    expect(await realtime.stepsCounted(2, NOW + 60_000)).toBeNull();
    await recordSteps(2, NOW + 60_001);
    await realtime.stepsCounted(2, NOW + 60_001);
    expect(api.posts().map((post) => post.body)).toMatchObject([{ steps: 3 }, { steps: 7 }]);
  });

  it("keeps the count queued in the outbox when the replay fails (offline or signed out)", async () => {
    const answers = [HttpResponse.error(), HttpResponse.json({ message: "Sign in first." }, { status: 401 })];
    server.use(http.post("/api/steps/sync", () => answers.shift()));
    const realtime = createRealtimeSync({ replay: { now: () => NOW } });
    await recordSteps(300, NOW);
    expect(await realtime.syncNow()).toMatchObject({ sent: 0, kept: 1, networkFailed: true });
    expect(await realtime.syncNow()).toMatchObject({ sent: 0, kept: 1, signedOut: true });
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
    await addSteps(TODAY, 1_000, NOW);
    await db.days.update(TODAY, { synced: 600 });
    await addSteps("2026-11-20", 2_000, NOW);
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
