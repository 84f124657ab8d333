import "fake-indexeddb/auto";
import { db } from "@charity-steps/client-store/db";
import { addSteps, bestCount, getDay } from "@charity-steps/client-store/local-steps";
import { pendingSyncs } from "@charity-steps/client-store/outbox";
import { fakeServer } from "@charity-steps/client-store/test-helpers";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { createSyncEngine, startSyncEngine } from "../../../src/features/tracking/sync-engine";

const TODAY = "2026-05-20";
const quietLog = { info: vi.fn(), warn: vi.fn() };
let online = true;
let visibility: DocumentVisibilityState = "visible";
let stop: (() => void) | undefined;

beforeEach(async () => {
  vi.useFakeTimers({ toFake: ["setTimeout", "clearTimeout", "setInterval", "clearInterval", "Date"] });
  vi.setSystemTime(Date.parse("2026-05-20T11:00:00Z"));
  online = true;
  visibility = "visible";
  vi.spyOn(navigator, "onLine", "get").mockImplementation(() => online);
  vi.spyOn(document, "visibilityState", "get").mockImplementation(() => visibility);
  quietLog.info.mockClear();
  quietLog.warn.mockClear();
  db.close();
  await db.delete({ disableAutoOpen: false });
  await db.open();
});

afterEach(() => {
  stop?.();
  stop = undefined;
  vi.useRealTimers();
  Reflect.deleteProperty(navigator, "serviceWorker");
});

/**
 * Waits, without moving the fake clock (vi.waitFor would advance it), until `check` passes; the
 * engine's IndexedDB work runs on real setImmediate turns.
 */
async function until(check: () => unknown): Promise<void> {
  let failure: unknown;
  for (let turn = 0; turn < 2_000; turn += 1) {
    try {
      await check();
      return;
    } catch (error) {
      failure = error;
    }
    await new Promise((resolve) => setImmediate(resolve));
  }
  throw failure;
}

/** The device has counted `total` steps on `day` so far, as the motion detector adds them. */
async function walkedSoFar(day: string, total: number): Promise<void> {
  await addSteps(day, total - bestCount(await getDay(day)));
}

/** Gives a run that was (wrongly) started a chance to reach the fake server before we look. */
async function settle(): Promise<void> {
  for (let turn = 0; turn < 200; turn += 1) await new Promise((resolve) => setImmediate(resolve));
}

describe("the page's step sync", () => {
  it("sends today's steps at start, marks them synced and tells the page to refresh", async () => {
    await walkedSoFar(TODAY, 1234);
    const server = fakeServer();
    const onSynced = vi.fn();

    stop = startSyncEngine({ fetch: server.fetch, onSynced, log: quietLog });

    await until(() => expect(onSynced).toHaveBeenCalledTimes(1));
    expect(server.requests).toMatchObject([
      { url: "/api/steps/sync", body: { steps: 1234, date: TODAY, source: "device_motion" } },
    ]);
    expect(onSynced.mock.calls[0]?.[0]).toMatchObject({ sent: 1, kept: 0 });
    await until(async () => expect((await getDay(TODAY))?.synced).toBe(1234));
    expect(await pendingSyncs()).toEqual([]);
  });

  it("does not resend what the server has, and does not call onSynced when nothing was sent", async () => {
    await walkedSoFar(TODAY, 500);
    const server = fakeServer();
    const onSynced = vi.fn();
    const engine = createSyncEngine({ fetch: server.fetch, onSynced, log: quietLog });

    expect(await engine.syncNow()).toMatchObject({ status: "done" });
    vi.advanceTimersByTime(10_000);
    expect(await engine.syncNow()).toMatchObject({ status: "done", summary: { sent: 0 } });
    expect(server.steps()).toEqual([500]);
    expect(onSynced).toHaveBeenCalledTimes(1);
  });

  it("skips a run under 10 s after the last one, then sends the new count", async () => {
    await walkedSoFar(TODAY, 100);
    const server = fakeServer();
    const engine = createSyncEngine({ fetch: server.fetch, log: quietLog });
    engine.start();
    stop = engine.stop;
    await until(() => expect(server.steps()).toEqual([100]));

    await walkedSoFar(TODAY, 160);
    vi.advanceTimersByTime(9_000);
    expect(await engine.syncNow("focus")).toEqual({ status: "skipped", reason: "throttled" });
    window.dispatchEvent(new Event("focus"));
    vi.advanceTimersByTime(1_000);
    await settle();
    expect(server.steps()).toEqual([100]);

    window.dispatchEvent(new Event("focus"));
    await until(() => expect(server.steps()).toEqual([100, 160]));
  });

  it("sends a return online under 10 s after the last run once the 10 s have passed, not at the next trigger", async () => {
    await walkedSoFar(TODAY, 100);
    const server = fakeServer();
    const engine = createSyncEngine({ fetch: server.fetch, log: quietLog });
    engine.start();
    stop = engine.stop;
    await until(() => expect(server.steps()).toEqual([100]));

    // A few seconds without signal, steps walked meanwhile, and the signal is back.
    online = false;
    await walkedSoFar(TODAY, 180);
    vi.advanceTimersByTime(4_000);
    online = true;
    window.dispatchEvent(new Event("online"));
    await settle();
    expect(server.steps()).toEqual([100]);
    vi.advanceTimersByTime(6_000);
    await until(() => expect(server.steps()).toEqual([100, 180]));
  });

  it("skips a run while one is running", async () => {
    await walkedSoFar(TODAY, 100);
    const server = fakeServer();
    const engine = createSyncEngine({ fetch: server.fetch, log: quietLog });
    const [first, second] = await Promise.all([engine.syncNow(), engine.syncNow()]);
    expect(first.status).toBe("done");
    expect(second).toEqual({ status: "skipped", reason: "running" });
    expect(server.steps()).toEqual([100]);
  });

  it("retries 3 times, 2 s, 4 s and 6 s apart, then gives up keeping the steps queued", async () => {
    await walkedSoFar(TODAY, 700);
    const server = fakeServer(["network-error", "network-error", "network-error", "network-error"]);
    const engine = createSyncEngine({ fetch: server.fetch, log: quietLog });
    const result = engine.syncNow();

    const waitForRetryTimer = () => until(() => expect(vi.getTimerCount()).toBe(1));
    await waitForRetryTimer();
    expect(server.requests).toHaveLength(1);
    await vi.advanceTimersByTimeAsync(1_999);
    await settle();
    expect(server.requests).toHaveLength(1);
    await vi.advanceTimersByTimeAsync(1);
    await until(() => expect(server.requests).toHaveLength(2));

    await waitForRetryTimer();
    await vi.advanceTimersByTimeAsync(3_999);
    await settle();
    expect(server.requests).toHaveLength(2);
    await vi.advanceTimersByTimeAsync(1);
    await until(() => expect(server.requests).toHaveLength(3));

    await waitForRetryTimer();
    await vi.advanceTimersByTimeAsync(5_999);
    await settle();
    expect(server.requests).toHaveLength(3);
    await vi.advanceTimersByTimeAsync(1);

    expect(await result).toMatchObject({ status: "gave-up" });
    expect(server.requests).toHaveLength(4);
    expect((await pendingSyncs()).map((action) => action.body.steps)).toEqual([700]);
    expect(quietLog.warn).toHaveBeenCalled();
  });

  it("succeeds on a retry after a server error", async () => {
    await walkedSoFar(TODAY, 800);
    const server = fakeServer([{ status: 503, body: { message: "busy" } }]);
    const onSynced = vi.fn();
    const engine = createSyncEngine({ fetch: server.fetch, onSynced, log: quietLog });
    const result = engine.syncNow();

    await until(() => expect(vi.getTimerCount()).toBe(1));
    await vi.advanceTimersByTimeAsync(2_000);

    expect(await result).toMatchObject({ status: "done", summary: { sent: 1 } });
    expect(server.steps()).toEqual([800, 800]);
    expect(onSynced).toHaveBeenCalledTimes(1);
    expect(await pendingSyncs()).toEqual([]);
  });

  it("does not retry when signed out: the steps wait for sign-in", async () => {
    await walkedSoFar(TODAY, 900);
    const server = fakeServer([{ status: 401, body: { message: "Unauthorized" } }]);
    const engine = createSyncEngine({ fetch: server.fetch, log: quietLog });

    expect(await engine.syncNow()).toMatchObject({ status: "signed-out" });
    expect(vi.getTimerCount()).toBe(0);
    expect(server.requests).toHaveLength(1);
    expect((await pendingSyncs()).map((action) => action.body.steps)).toEqual([900]);
  });

  it("only logs a pause offline, then syncs and tells the service worker when back online", async () => {
    await walkedSoFar(TODAY, 2500);
    const postMessage = vi.fn();
    Object.defineProperty(navigator, "serviceWorker", {
      configurable: true,
      value: { controller: { postMessage }, getRegistration: async () => undefined },
    });
    online = false;
    const server = fakeServer();
    stop = startSyncEngine({ fetch: server.fetch, log: quietLog });

    await vi.advanceTimersByTimeAsync(60_000);
    await settle();
    expect(server.requests).toEqual([]);
    expect(quietLog.info).toHaveBeenCalledWith(expect.stringMatching(/paused while offline/));

    online = true;
    window.dispatchEvent(new Event("online"));

    expect(postMessage).toHaveBeenCalledWith({ type: "ONLINE" });
    await until(() => expect(server.steps()).toEqual([2500]));
  });

  it("syncs every 5 minutes while visible and online, and not while hidden", async () => {
    await walkedSoFar(TODAY, 10);
    const server = fakeServer();
    stop = startSyncEngine({ fetch: server.fetch, log: quietLog });
    await until(() => expect(server.steps()).toEqual([10]));

    await walkedSoFar(TODAY, 20);
    await vi.advanceTimersByTimeAsync(5 * 60_000 - 1);
    await settle();
    expect(server.steps()).toEqual([10]);
    await vi.advanceTimersByTimeAsync(1);
    await until(() => expect(server.steps()).toEqual([10, 20]));

    await walkedSoFar(TODAY, 30);
    visibility = "hidden";
    await vi.advanceTimersByTimeAsync(5 * 60_000);
    await settle();
    expect(server.steps()).toEqual([10, 20]);

    visibility = "visible";
    document.dispatchEvent(new Event("visibilitychange"));
    await until(() => expect(server.steps()).toEqual([10, 20, 30]));
  });

  it("sends yesterday's unsynced steps too, and stops listening once stopped", async () => {
    await walkedSoFar("2026-05-19", 6000);
    await walkedSoFar(TODAY, 40);
    const server = fakeServer();
    const stopEngine = startSyncEngine({ fetch: server.fetch, log: quietLog });
    await until(() => expect(server.requests).toHaveLength(2));
    expect(server.requests.map((request) => (request.body as { date: string }).date).sort()).toEqual([
      "2026-05-19",
      TODAY,
    ]);

    stopEngine();
    await walkedSoFar(TODAY, 90);
    vi.advanceTimersByTime(60_000);
    window.dispatchEvent(new Event("focus"));
    window.dispatchEvent(new Event("online"));
    await vi.advanceTimersByTimeAsync(10 * 60_000);
    await settle();
    expect(server.requests).toHaveLength(2);
    expect(vi.getTimerCount()).toBe(0);
  });
});
