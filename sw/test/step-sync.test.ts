import "fake-indexeddb/auto";
import { db } from "@charity-steps/client-store/db";
import { enqueueSync, pendingSyncs } from "@charity-steps/client-store/outbox";
import { beforeEach, describe, expect, it, vi } from "vitest";
import { registerStepSync } from "../src/step-sync";

type Answer = { status: number; body?: unknown } | "network-error";

/** A stand-in for the API: records each request and gives the next queued answer (200 when none left). */
function fakeServer(answers: Answer[] = []) {
  const requests: Array<{ url: string; body: unknown; deviceId: string | null }> = [];
  const fetch = async (url: string, init: RequestInit = {}): Promise<Response> => {
    const body = JSON.parse(String(init.body)) as { steps: number; date: string };
    requests.push({ url, body, deviceId: new Headers(init.headers).get("X-Device-Id") });
    const answer = answers.shift() ?? { status: 200 };
    if (answer === "network-error") throw new TypeError("Failed to fetch");
    const payload = answer.body ?? {
      ok: true,
      date: body.date,
      daySteps: body.steps,
      todaySteps: 0,
      monthlySteps: 0,
    };
    return new Response(JSON.stringify(payload), { status: answer.status });
  };
  return { fetch, requests };
}

/** Enough of a service worker's global scope to deliver events, with a Background Sync manager. */
function fakeWorker() {
  const target = new EventTarget();
  const syncRegister = vi.fn(async (_tag: string) => {});
  const scope = Object.assign(target, { registration: { sync: { register: syncRegister } } });
  const dispatch = (type: string, extra: Record<string, unknown>): Promise<unknown> => {
    let waited: Promise<unknown> = Promise.resolve("not extended");
    const event = Object.assign(new Event(type), extra, {
      waitUntil(promise: Promise<unknown>) {
        waited = promise;
      },
    });
    target.dispatchEvent(event);
    return waited;
  };
  return { scope: scope as unknown as ServiceWorkerGlobalScope, dispatch, syncRegister };
}

const NOW = Date.now();
const today = new Intl.DateTimeFormat("en-CA", { timeZone: "Europe/London" }).format(NOW);

beforeEach(async () => {
  db.close();
  await db.delete({ disableAutoOpen: false });
  await db.open();
});

describe("the service worker's step sync", () => {
  it("replays the outbox as soon as the worker starts", async () => {
    await enqueueSync(today, 4321, "device_motion", NOW);
    const server = fakeServer();
    const worker = fakeWorker();

    const summary = await registerStepSync(worker.scope, { fetch: server.fetch });

    expect(summary).toMatchObject({ sent: 1, kept: 0 });
    expect(server.requests).toEqual([
      {
        url: "/api/steps/sync",
        body: { steps: 4321, date: today, source: "device_motion" },
        deviceId: expect.any(String),
      },
    ]);
    expect(await pendingSyncs()).toEqual([]);
  });

  it("replays on the step_sync Background Sync event, and rejects so the browser retries while offline", async () => {
    const server = fakeServer(["network-error"]);
    const worker = fakeWorker();
    await registerStepSync(worker.scope, { fetch: server.fetch });
    await enqueueSync(today, 900, "device_motion", NOW);

    await expect(worker.dispatch("sync", { tag: "step_sync" })).rejects.toThrow(/retrying later/);
    expect(await pendingSyncs()).toHaveLength(1);

    await expect(worker.dispatch("sync", { tag: "step_sync" })).resolves.toBeUndefined();
    expect(server.requests.map((request) => request.body)).toEqual([
      { steps: 900, date: today, source: "device_motion" },
      { steps: 900, date: today, source: "device_motion" },
    ]);
    expect(await pendingSyncs()).toEqual([]);
  });

  it("ignores sync events with other tags", async () => {
    const server = fakeServer();
    const worker = fakeWorker();
    await registerStepSync(worker.scope, { fetch: server.fetch });
    await enqueueSync(today, 900, "device_motion", NOW);

    expect(await worker.dispatch("sync", { tag: "something-else" })).toBe("not extended");
    expect(server.requests).toEqual([]);
    expect(await pendingSyncs()).toHaveLength(1);
  });

  it("does not make the browser retry when the walker is signed out: the steps wait for sign-in", async () => {
    const server = fakeServer([{ status: 401, body: { message: "Sign in" } }]);
    const worker = fakeWorker();
    await registerStepSync(worker.scope, { fetch: server.fetch });
    await enqueueSync(today, 900, "device_motion", NOW);

    await expect(worker.dispatch("sync", { tag: "step_sync" })).resolves.toBeUndefined();
    expect((await pendingSyncs()).map((action) => action.body.steps)).toEqual([900]);
  });

  it("replays when the page reports it is online, and asks for a Background Sync if that fails", async () => {
    const server = fakeServer([{ status: 503 }]);
    const worker = fakeWorker();
    await registerStepSync(worker.scope, { fetch: server.fetch });
    await enqueueSync(today, 1500, "device_motion", NOW);

    await worker.dispatch("message", { data: { type: "ONLINE" } });
    expect(await pendingSyncs()).toHaveLength(1);
    expect(worker.syncRegister).toHaveBeenCalledWith("step_sync");

    await worker.dispatch("message", { data: { type: "ONLINE" } });
    expect(await pendingSyncs()).toEqual([]);
    expect(server.requests).toHaveLength(2);
  });

  it("leaves other messages to their own listeners", async () => {
    const server = fakeServer();
    const worker = fakeWorker();
    await registerStepSync(worker.scope, { fetch: server.fetch });
    await enqueueSync(today, 10, "device_motion", NOW);

    expect(await worker.dispatch("message", { data: { type: "SKIP_WAITING" } })).toBe("not extended");
    expect(server.requests).toEqual([]);
  });

  it("moves a refused action to dead letters with the server's message instead of dropping it", async () => {
    const server = fakeServer([{ status: 422, body: { message: "2020-01-01 is more than 30 days ago" } }]);
    const worker = fakeWorker();
    await registerStepSync(worker.scope, { fetch: server.fetch });
    await enqueueSync("2020-01-01", 10, "device_motion", NOW);

    await expect(worker.dispatch("sync", { tag: "step_sync" })).resolves.toBeUndefined();
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
