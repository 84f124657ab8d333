import "fake-indexeddb/auto";
import { db } from "@charity-steps/client-store/db";
import { enqueueSync, pendingSyncs } from "@charity-steps/client-store/outbox";
import { fakeServer } from "@charity-steps/client-store/test-helpers";
import { beforeEach, describe, expect, it, vi } from "vitest";
import { Queue } from "workbox-background-sync";
import { registerStepSync } from "../src/step-sync";
import { installFakeWorker } from "./support/fake-worker";

// Workbox reads the worker's global `self` when it loads and when a Queue is made; Node has none.
vi.hoisted(() => {
  Object.assign(globalThis, { self: globalThis, __WB_DISABLE_DEV_LOGS: true });
});

/** The Background Sync tag workbox-background-sync gives the outbox's Queue. */
const SYNC_TAG = "workbox-background-sync:step_sync";

/**
 * Enough of a service worker's global scope to deliver events, installed as `self`; with a
 * Background Sync manager unless `backgroundSync` is false (Firefox, Safari).
 */
function fakeWorker({ backgroundSync = true } = {}) {
  const syncRegister = vi.fn(async (_tag: string) => {});
  const registration = backgroundSync ? { sync: { register: syncRegister } } : {};
  const { dispatch } = installFakeWorker({ registration });
  return { dispatch, syncRegister };
}

// A fixed moment: what is queued and sent does not depend on the day the tests run.
const NOW = Date.parse("2026-05-20T11:00:00Z");
const today = new Intl.DateTimeFormat("en-CA", { timeZone: "Europe/London" }).format(NOW);

beforeEach(async () => {
  // Each test starts a new worker; Workbox allows one Queue of a name per worker.
  Queue._queueNames.clear();
  db.close();
  await db.delete({ disableAutoOpen: false });
  await db.open();
});

describe("the service worker's step sync", () => {
  it("replays the outbox on its Background Sync event, and rejects so the browser retries while offline", async () => {
    const server = fakeServer(["network-error"]);
    const worker = fakeWorker();
    registerStepSync({ fetch: server.fetch });
    await enqueueSync(today, 900, "device_motion", NOW);

    await expect(worker.dispatch("sync", { tag: SYNC_TAG, lastChance: false })).rejects.toThrow(
      /retrying later/,
    );
    expect(await pendingSyncs()).toHaveLength(1);

    await expect(worker.dispatch("sync", { tag: SYNC_TAG, lastChance: false })).resolves.toBeUndefined();
    expect(server.requests).toMatchObject([
      {
        url: "/api/steps/sync",
        body: { steps: 900, date: today, source: "device_motion" },
      },
      {
        url: "/api/steps/sync",
        body: { steps: 900, date: today, source: "device_motion" },
      },
    ]);
    // Each names the device it counted on.
    for (const request of server.requests) expect(request.headers.get("X-Device-Id")).toMatch(/\S/);
    expect(await pendingSyncs()).toEqual([]);
  });

  it("ignores sync events with other tags", async () => {
    const server = fakeServer();
    const worker = fakeWorker();
    registerStepSync({ fetch: server.fetch });
    await enqueueSync(today, 900, "device_motion", NOW);

    expect(await worker.dispatch("sync", { tag: "something-else" })).toBe("not extended");
    expect(server.requests).toEqual([]);
    expect(await pendingSyncs()).toHaveLength(1);
  });

  it("does not make the browser retry when the walker is signed out: the steps wait for sign-in", async () => {
    const server = fakeServer([{ status: 401, body: { message: "Sign in" } }]);
    const worker = fakeWorker();
    registerStepSync({ fetch: server.fetch });
    await enqueueSync(today, 900, "device_motion", NOW);

    await expect(worker.dispatch("sync", { tag: SYNC_TAG, lastChance: false })).resolves.toBeUndefined();
    expect((await pendingSyncs()).map((action) => action.body.steps)).toEqual([900]);
  });

  it("replays when the page reports it is online, and asks for a Background Sync if that fails", async () => {
    const server = fakeServer([{ status: 503 }]);
    const worker = fakeWorker();
    registerStepSync({ fetch: server.fetch });
    await enqueueSync(today, 1500, "device_motion", NOW);

    await worker.dispatch("message", { data: { type: "ONLINE" } });
    expect(await pendingSyncs()).toHaveLength(1);
    expect(worker.syncRegister).toHaveBeenCalledWith(SYNC_TAG);

    await worker.dispatch("message", { data: { type: "ONLINE" } });
    expect(await pendingSyncs()).toEqual([]);
    expect(server.requests).toHaveLength(2);
  });

  it("registers a Background Sync when the page's own replay could not finish, sending nothing itself", async () => {
    const server = fakeServer();
    const worker = fakeWorker();
    registerStepSync({ fetch: server.fetch });
    await enqueueSync(today, 10, "device_motion", NOW);

    await worker.dispatch("message", { data: { type: "STEP_SYNC_LATER" } });
    expect(worker.syncRegister).toHaveBeenCalledWith(SYNC_TAG);
    expect(server.requests).toEqual([]);
  });

  it("leaves other messages to their own listeners", async () => {
    const server = fakeServer();
    const worker = fakeWorker();
    registerStepSync({ fetch: server.fetch });
    await enqueueSync(today, 10, "device_motion", NOW);

    expect(await worker.dispatch("message", { data: { type: "SKIP_WAITING" } })).toBe("not extended");
    expect(server.requests).toEqual([]);
  });

  it("moves a refused action to dead letters with the server's message instead of dropping it", async () => {
    const server = fakeServer([{ status: 422, body: { message: "2020-01-01 is more than 30 days ago" } }]);
    const worker = fakeWorker();
    registerStepSync({ fetch: server.fetch });
    await enqueueSync("2020-01-01", 10, "device_motion", NOW);

    await expect(worker.dispatch("sync", { tag: SYNC_TAG, lastChance: false })).resolves.toBeUndefined();
    expect(await pendingSyncs()).toEqual([]);
    expect(await db.deadLetters.toArray()).toMatchObject([
      {
        status: 422,
        message: "2020-01-01 is more than 30 days ago",
        body: { steps: 10, date: "2020-01-01" },
      },
    ]);
  });
});

describe("where the browser has no Background Sync (Firefox, Safari)", () => {
  it("replays the outbox as soon as the worker starts", async () => {
    await enqueueSync(today, 4321, "device_motion", NOW);
    const server = fakeServer();
    fakeWorker({ backgroundSync: false });

    registerStepSync({ fetch: server.fetch });

    await vi.waitFor(async () => expect(await pendingSyncs()).toEqual([]));
    expect(server.requests).toMatchObject([
      {
        url: "/api/steps/sync",
        body: { steps: 4321, date: today, source: "device_motion" },
      },
    ]);
    // Each names the device it counted on.
    for (const request of server.requests) expect(request.headers.get("X-Device-Id")).toMatch(/\S/);
  });

  it("keeps the steps when that replay fails, without an unhandled rejection", async () => {
    await enqueueSync(today, 50, "device_motion", NOW);
    const server = fakeServer(["network-error"]);
    const warn = vi.spyOn(console, "warn").mockImplementation(() => {});
    fakeWorker({ backgroundSync: false });

    registerStepSync({ fetch: server.fetch });

    await vi.waitFor(() =>
      expect(warn).toHaveBeenCalledWith("Step sync replay at start failed", expect.any(Error)),
    );
    expect((await pendingSyncs()).map((action) => action.body.steps)).toEqual([50]);
    warn.mockRestore();
  });
});
