import "fake-indexeddb/auto";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { db, getMeta, setMeta } from "../src/db";
import { addSteps, bestCount, getDay, readDeviceSteps } from "../src/local-steps";
import { enqueueSync, pendingSyncs } from "../src/outbox";
import {
  checkDailyReset,
  checkMonthlyReset,
  postDailyReset,
  postMonthlyReset,
  startResetChecks,
} from "../src/resets";
import { fakeServer, freshDatabase } from "./helpers";

beforeEach(freshDatabase);
afterEach(() => {
  vi.useRealTimers();
});

describe("the London daily reset", () => {
  it("resets on the first run and then not again the same day", async () => {
    const server = fakeServer();
    const callServer = postDailyReset(server.fetch);
    const first = await checkDailyReset({ now: Date.parse("2026-05-20T08:00:00Z"), callServer });
    expect(first).toMatchObject({ type: "dailyReset", day: "2026-05-20", previousDay: null });
    expect(first?.server).toEqual({ message: "Daily reset done", recordsDeleted: 0 });
    expect(await checkDailyReset({ now: Date.parse("2026-05-20T21:00:00Z"), callServer })).toBeNull();
    expect(server.requests.map((request) => [request.method, request.url])).toEqual([
      ["POST", "/api/daily-reset"],
    ]);
    expect(server.requests[0]?.headers.get("Content-Type")).toBe("application/json");
    expect(server.requests[0]?.body).toBeUndefined();
    expect(await getMeta("lastDailyReset")).toBe("2026-05-20");
  });

  it("starts the new day from 0 at London midnight and keeps yesterday's unsent steps", async () => {
    const callServer = vi.fn(async () => ({ message: "ok", recordsDeleted: 2 }));
    await checkDailyReset({ now: Date.parse("2026-05-20T08:00:00Z"), callServer });
    await addSteps("2026-05-20", 9000, Date.parse("2026-05-20T20:00:00Z"));
    await enqueueSync("2026-05-20", 9000, "device_motion", Date.parse("2026-05-20T20:00:00Z"));

    // 23:59 BST: still the 20th in London.
    expect(await checkDailyReset({ now: Date.parse("2026-05-20T22:59:00Z"), callServer })).toBeNull();
    // 00:00 BST on the 21st, though it is still the 20th in UTC.
    const reset = await checkDailyReset({ now: Date.parse("2026-05-20T23:00:00Z"), callServer });

    expect(reset).toMatchObject({ day: "2026-05-21", previousDay: "2026-05-20" });
    expect(callServer).toHaveBeenCalledTimes(2);
    expect(bestCount(await getDay("2026-05-21"))).toBe(0);
    const totals = await readDeviceSteps(Date.parse("2026-05-20T23:00:00Z"));
    expect(totals).toMatchObject({ todaySteps: 0, monthSteps: 9000 });
    expect((await getDay("2026-05-20"))?.motion).toBe(9000);
    expect((await pendingSyncs()).map((action) => action.body)).toEqual([
      { steps: 9000, date: "2026-05-20", source: "device_motion" },
    ]);
  });

  it("treats 2026-03-29T23:30Z as 30 March, the first night of British Summer Time", async () => {
    const callServer = vi.fn(async () => ({ message: "ok", recordsDeleted: 0 }));
    await setMeta("lastDailyReset", "2026-03-29");
    const reset = await checkDailyReset({ now: Date.parse("2026-03-29T23:30:00Z"), callServer });
    expect(reset).toMatchObject({ day: "2026-03-30", previousDay: "2026-03-29" });
    // In winter London is on UTC: 23:30Z on 15 January is still the 15th.
    await setMeta("lastDailyReset", "2026-01-15");
    expect(await checkDailyReset({ now: Date.parse("2026-01-15T23:30:00Z"), callServer })).toBeNull();
  });

  it("still resets locally when the server reset fails", async () => {
    const server = fakeServer([{ status: 500, body: { message: "down" } }]);
    const warn = vi.spyOn(console, "warn").mockImplementation(() => {});
    await setMeta("lastDailyReset", "2026-05-19");
    const reset = await checkDailyReset({
      now: Date.parse("2026-05-20T08:00:00Z"),
      callServer: postDailyReset(server.fetch),
    });
    expect(reset).toMatchObject({ day: "2026-05-20", server: null });
    expect(await getMeta("lastDailyReset")).toBe("2026-05-20");
    expect(warn).toHaveBeenCalled();

    const offline = await checkDailyReset({
      now: Date.parse("2026-05-21T08:00:00Z"),
      callServer: postDailyReset(fakeServer([], "network-error").fetch),
    });
    expect(offline).toMatchObject({ day: "2026-05-21", server: null });
  });

  it("keeps steps walked after midnight before the check ran, but zeroes a stale row", async () => {
    const callServer = async () => ({ message: "ok", recordsDeleted: 0 });
    await setMeta("lastDailyReset", "2026-05-20");
    await addSteps("2026-05-21", 40, Date.parse("2026-05-20T23:00:30Z")); // 00:00:30 BST
    await checkDailyReset({ now: Date.parse("2026-05-20T23:01:00Z"), callServer });
    expect((await getDay("2026-05-21"))?.motion).toBe(40);

    // A row for the 23rd written on the 22nd (a clock that jumped) is not the new day's walking.
    await addSteps("2026-05-23", 500, Date.parse("2026-05-22T10:00:00Z"));
    await checkDailyReset({ now: Date.parse("2026-05-23T08:00:00Z"), callServer });
    expect((await getDay("2026-05-23"))?.motion).toBe(0);
  });
});

describe("the London monthly reset", () => {
  it("resets on the 1st in London, keeping last month's steps", async () => {
    const server = fakeServer();
    const callServer = postMonthlyReset(server.fetch);
    await checkMonthlyReset({ now: Date.parse("2026-05-10T08:00:00Z"), callServer });
    await addSteps("2026-05-31", 12_000, Date.parse("2026-05-31T12:00:00Z"));

    expect(await checkMonthlyReset({ now: Date.parse("2026-05-31T22:59:00Z"), callServer })).toBeNull();
    const reset = await checkMonthlyReset({ now: Date.parse("2026-05-31T23:00:00Z"), callServer });

    expect(reset).toMatchObject({ type: "monthlyReset", month: "2026-06", previousMonth: "2026-05" });
    expect(reset?.server).toEqual({ message: "Monthly reset done" });
    expect(server.requests.map((request) => request.url)).toEqual([
      "/api/monthly-reset",
      "/api/monthly-reset",
    ]);
    expect((await db.months.get("2026-05"))?.steps).toBe(12_000);
    expect((await db.months.get("2026-06"))?.steps).toBe(0);
    expect((await readDeviceSteps(Date.parse("2026-05-31T23:00:00Z"))).monthSteps).toBe(0);
    expect(await getMeta("lastMonthlyReset")).toBe("2026-06");
  });

  it("still resets locally when the server monthly reset fails", async () => {
    vi.spyOn(console, "warn").mockImplementation(() => {});
    await setMeta("lastMonthlyReset", "2026-05");
    const reset = await checkMonthlyReset({
      now: Date.parse("2026-06-01T08:00:00Z"),
      callServer: postMonthlyReset(fakeServer([{ status: 503 }]).fetch),
    });
    expect(reset).toMatchObject({ month: "2026-06", server: null });
    expect(await getMeta("lastMonthlyReset")).toBe("2026-06");
  });
});

describe("the reset checks every 60 s", () => {
  it("notices London midnight and the new month within a minute", async () => {
    vi.useFakeTimers({ toFake: ["setInterval", "clearInterval", "Date"] });
    vi.setSystemTime(Date.parse("2026-05-31T22:59:30Z")); // 23:59:30 BST on 31 May
    const server = fakeServer();
    const daily = vi.fn();
    const monthly = vi.fn();
    const stop = startResetChecks({ fetch: server.fetch, onDailyReset: daily, onMonthlyReset: monthly });

    await vi.waitFor(() => expect(monthly).toHaveBeenCalledTimes(1));
    expect(daily).toHaveBeenLastCalledWith(expect.objectContaining({ day: "2026-05-31" }));

    await vi.advanceTimersByTimeAsync(60_000);
    await vi.waitFor(() => expect(daily).toHaveBeenCalledTimes(2));
    expect(daily).toHaveBeenLastCalledWith(
      expect.objectContaining({ day: "2026-06-01", previousDay: "2026-05-31" }),
    );
    await vi.waitFor(() => expect(monthly).toHaveBeenCalledTimes(2));
    expect(monthly).toHaveBeenLastCalledWith(
      expect.objectContaining({ month: "2026-06", previousMonth: "2026-05" }),
    );

    stop();
    await vi.advanceTimersByTimeAsync(5 * 60_000);
    expect(daily).toHaveBeenCalledTimes(2);
    expect(server.requests.map((request) => request.url)).toEqual([
      "/api/daily-reset",
      "/api/monthly-reset",
      "/api/daily-reset",
      "/api/monthly-reset",
    ]);
  });

  it("stopped during a check, sends nothing more and reports nothing", async () => {
    vi.useFakeTimers({ toFake: ["setInterval", "clearInterval", "Date"] });
    vi.setSystemTime(Date.parse("2026-05-31T22:59:30Z"));
    const server = fakeServer();
    const daily = vi.fn();
    const monthly = vi.fn();
    const warn = vi.spyOn(console, "warn");
    warn.mockClear();
    // Stopped at once: the first check is still in its local transaction, before any request.
    startResetChecks({ fetch: server.fetch, onDailyReset: daily, onMonthlyReset: monthly })();

    // The local reset it had begun still lands.
    await vi.waitFor(async () => expect(await getMeta("lastDailyReset")).toBe("2026-05-31"));
    await vi.advanceTimersByTimeAsync(5 * 60_000);
    expect(server.requests).toEqual([]);
    expect(daily).not.toHaveBeenCalled();
    expect(monthly).not.toHaveBeenCalled();
    expect(await getMeta("lastMonthlyReset")).toBeUndefined();
    expect(warn).not.toHaveBeenCalled();
  });

  it("stopped while the server's reset is on its way, abandons it without a warning", async () => {
    vi.setSystemTime(Date.parse("2026-05-20T08:00:00Z"));
    let sent!: () => void;
    const reached = new Promise<void>((resolve) => {
      sent = resolve;
    });
    // A server that never answers: only the abort ends the request.
    const hanging = vi.fn(
      (_url: string, init: RequestInit) =>
        new Promise<Response>((_resolve, reject) => {
          sent();
          init.signal?.addEventListener("abort", () => reject(init.signal?.reason));
        }),
    );
    const daily = vi.fn();
    const monthly = vi.fn();
    const warn = vi.spyOn(console, "warn");
    warn.mockClear();
    const stop = startResetChecks({ fetch: hanging, onDailyReset: daily, onMonthlyReset: monthly });
    await reached;
    stop();

    await vi.waitFor(() => expect(hanging.mock.calls[0]?.[1].signal?.aborted).toBe(true));
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(hanging).toHaveBeenCalledTimes(1);
    expect(hanging.mock.calls[0]?.[0]).toBe("/api/daily-reset");
    expect(daily).not.toHaveBeenCalled();
    expect(monthly).not.toHaveBeenCalled();
    expect(warn).not.toHaveBeenCalled();
  });
});
