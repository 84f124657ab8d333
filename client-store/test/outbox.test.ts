import "fake-indexeddb/auto";
import { beforeEach, describe, expect, it } from "vitest";
import { db, getDeviceId } from "../src/db";
import { addSteps, getDay, markSynced } from "../src/local-steps";
import { deadLetters, enqueueSync, enqueueUnsyncedDays, pendingSyncs, replayOutbox } from "../src/outbox";
import { fakeServer, freshDatabase } from "./helpers";

beforeEach(freshDatabase);

const NOW = Date.parse("2026-05-20T11:00:00Z");

describe("queueing syncs", () => {
  it("keeps one pending sync per day and device, with the larger count", async () => {
    await enqueueSync("2026-05-20", 100, "device_motion", NOW);
    await enqueueSync("2026-05-20", 250, "device_motion", NOW);
    await enqueueSync("2026-05-20", 180, "background_device_motion", NOW);
    await enqueueSync("2026-05-19", 4000, "device_motion", NOW);

    const pending = await pendingSyncs();
    expect(pending.map((action) => action.body)).toEqual([
      { steps: 250, date: "2026-05-20", source: "device_motion" },
      { steps: 4000, date: "2026-05-19", source: "device_motion" },
    ]);
  });

  it("keeps a health source's count apart from the motion count of the same day", async () => {
    await enqueueSync("2026-05-20", 300, "device_motion", NOW);
    await enqueueSync("2026-05-20", 5000, "google_fit", NOW);
    expect((await pendingSyncs()).map((action) => action.body.source)).toEqual([
      "device_motion",
      "google_fit",
    ]);
  });

  it("refuses counts outside 0..50,000 and dates that are not days", async () => {
    await expect(enqueueSync("2026-05-20", 50_001)).rejects.toThrow(RangeError);
    await expect(enqueueSync("2026-02-30", 10)).rejects.toThrow(RangeError);
    expect(await pendingSyncs()).toEqual([]);
  });

  it("queues each day whose best count is above 0 and above what the server has", async () => {
    await addSteps("2026-05-18", 3000, NOW);
    await markSynced("2026-05-18", 3000, NOW);
    await addSteps("2026-05-19", 900, NOW);
    await addSteps("2026-05-20", 0, NOW);
    await addSteps("2026-05-20", 0, NOW);
    await addSteps("2026-05-21", 50, NOW); // tomorrow in London: the server would refuse it

    expect(await enqueueUnsyncedDays(NOW)).toBe(1);
    expect((await pendingSyncs()).map((action) => action.body)).toEqual([
      { steps: 900, date: "2026-05-19", source: "device_motion" },
    ]);
  });
});

describe("replaying the outbox", () => {
  it("sends each pending day once with the device id, and empties the outbox after a 2xx", async () => {
    const server = fakeServer();
    await addSteps("2026-05-20", 1234, NOW);
    await enqueueSync("2026-05-20", 1234, "device_motion", NOW);
    await enqueueSync("2026-05-19", 8000, "device_motion", NOW);

    const summary = await replayOutbox({ fetch: server.fetch });

    expect(summary).toMatchObject({
      sent: 2,
      kept: 0,
      deadLettered: 0,
      signedOut: false,
      networkFailed: false,
    });
    expect(server.requests).toHaveLength(2);
    const [first] = server.requests;
    expect(first).toMatchObject({ url: "/api/steps/sync", method: "POST", credentials: "include" });
    expect(first?.body).toEqual({ steps: 1234, date: "2026-05-20", source: "device_motion" });
    expect(first?.headers.get("X-Device-Id")).toBe(await getDeviceId());
    expect(first?.headers.get("Content-Type")).toBe("application/json");
    expect(await pendingSyncs()).toEqual([]);
    // The day now knows the server has its steps, so the next run does not send it again.
    expect((await getDay("2026-05-20"))?.synced).toBe(1234);
    expect(summary.acknowledged[0]?.response?.daySteps).toBe(1234);
  });

  it("keeps everything on a network failure and sends it when the network is back", async () => {
    await enqueueSync("2026-05-20", 700, "device_motion", NOW);
    await enqueueSync("2026-05-19", 800, "device_motion", NOW);

    const offline = fakeServer([], "network-error");
    const failed = await replayOutbox({ fetch: offline.fetch });
    expect(failed).toMatchObject({ sent: 0, kept: 2, networkFailed: true });
    // It stops at the first failure rather than trying every action against a dead network.
    expect(offline.requests).toHaveLength(1);
    expect((await pendingSyncs())[0]?.attempts).toBe(1);

    const online = fakeServer();
    expect(await replayOutbox({ fetch: online.fetch })).toMatchObject({ sent: 2, kept: 0 });
    expect(online.requests.map((request) => request.body)).toEqual([
      { steps: 700, date: "2026-05-20", source: "device_motion" },
      { steps: 800, date: "2026-05-19", source: "device_motion" },
    ]);
  });

  it("stops and keeps everything on a 401 until the walker signs in again", async () => {
    await enqueueSync("2026-05-20", 700, "device_motion", NOW);
    await enqueueSync("2026-05-19", 800, "device_motion", NOW);
    const server = fakeServer([{ status: 401, body: { message: "Sign in first" } }]);

    const summary = await replayOutbox({ fetch: server.fetch });

    expect(summary).toMatchObject({ sent: 0, kept: 2, deadLettered: 0, signedOut: true });
    expect(server.requests).toHaveLength(1);
    expect(await deadLetters()).toEqual([]);
  });

  it.each([408, 429, 500, 503])("keeps the action when the server answers %i", async (status) => {
    await enqueueSync("2026-05-20", 700, "device_motion", NOW);
    const server = fakeServer([{ status, body: { message: "Try later" } }]);

    const summary = await replayOutbox({ fetch: server.fetch });

    expect(summary).toMatchObject({ sent: 0, kept: 1, deadLettered: 0, serverFailed: true });
    const [kept] = await pendingSyncs();
    expect(kept?.body.steps).toBe(700);
    expect(kept?.lastError).toBe(`${status}: Try later`);
    expect(await deadLetters()).toEqual([]);
  });

  it.each([400, 403, 422])(
    "moves the action to dead letters with the server's message on %i",
    async (status) => {
      await enqueueSync("2026-03-01", 700, "device_motion", NOW);
      await enqueueSync("2026-05-20", 900, "device_motion", NOW);
      const message = "2026-03-01 is more than 30 days ago: steps can only be added for the last 30 days.";
      const server = fakeServer([{ status, body: { message } }]);

      const summary = await replayOutbox({ fetch: server.fetch });

      // The refused day does not block the next one.
      expect(summary).toMatchObject({ sent: 1, kept: 0, deadLettered: 1 });
      expect(server.requests).toHaveLength(2);
      expect(await pendingSyncs()).toEqual([]);
      const [dead] = await deadLetters();
      expect(dead).toMatchObject({
        status,
        message,
        body: { steps: 700, date: "2026-03-01", source: "device_motion" },
      });
    },
  );

  it("does not lose a larger count queued while the smaller one was on its way", async () => {
    await enqueueSync("2026-05-20", 100, "device_motion", NOW);
    const server = fakeServer();
    const slowFetch = async (url: string, init: RequestInit) => {
      // The walker keeps walking while the request is out.
      await enqueueSync("2026-05-20", 180, "device_motion", NOW);
      return server.fetch(url, init);
    };

    const first = await replayOutbox({ fetch: slowFetch });
    expect(first).toMatchObject({ sent: 1, kept: 1 });
    expect((await pendingSyncs()).map((action) => action.body.steps)).toEqual([180]);

    await replayOutbox({ fetch: server.fetch });
    expect(server.requests.map((request) => (request.body as { steps: number }).steps)).toEqual([100, 180]);
    expect(await pendingSyncs()).toEqual([]);
  });

  it("keeps the action when a 200 comes from something other than the API, like a wifi sign-in page", async () => {
    await enqueueSync("2026-05-20", 300, "device_motion", NOW);
    const portal = async () => new Response("<html>Accept the terms</html>", { status: 200 });

    const summary = await replayOutbox({ fetch: portal });

    expect(summary).toMatchObject({ sent: 0, kept: 1, networkFailed: true });
    expect((await pendingSyncs()).map((action) => action.body.steps)).toEqual([300]);
    expect((await getDay("2026-05-20"))?.synced ?? 0).toBe(0);
  });

  it("runs one replay at a time: a second call joins the running one", async () => {
    await enqueueSync("2026-05-20", 100, "device_motion", NOW);
    const server = fakeServer();
    const [a, b] = await Promise.all([
      replayOutbox({ fetch: server.fetch }),
      replayOutbox({ fetch: server.fetch }),
    ]);
    expect(server.requests).toHaveLength(1);
    expect(a).toBe(b);
    expect(a.sent).toBe(1);
  });

  it("leaves the outbox as it was when there is nothing to send", async () => {
    const server = fakeServer();
    expect(await replayOutbox({ fetch: server.fetch })).toMatchObject({ sent: 0, kept: 0, deadLettered: 0 });
    expect(server.requests).toEqual([]);
    expect(await db.outbox.count()).toBe(0);
  });
});
