import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { buildTestApp, createSignedInWalker, dialects, type TestApp } from "../../../helper.js";
import { stepsClient } from "../../../support/steps.js";

// Each instant (UTC) and the London day it belongs to. Clocks go forward at 01:00 GMT on Sunday
// 29 March 2026 and back at 01:00 GMT (02:00 BST) on Sunday 25 October 2026.
const NIGHTS = {
  "clocks go forward (last Sunday of March)": [
    ["2026-03-28T23:30:00Z", "2026-03-28"], // 23:30 GMT
    ["2026-03-29T00:30:00Z", "2026-03-29"], // 00:30 GMT
    ["2026-03-29T22:30:00Z", "2026-03-29"], // 23:30 BST
    ["2026-03-29T23:30:00Z", "2026-03-30"], // 00:30 BST, still the 29th in UTC
  ],
  "clocks go back (last Sunday of October)": [
    ["2026-10-24T22:30:00Z", "2026-10-24"], // 23:30 BST
    ["2026-10-24T23:30:00Z", "2026-10-25"], // 00:30 BST, still the 24th in UTC
    ["2026-10-25T23:30:00Z", "2026-10-25"], // 23:30 GMT
    ["2026-10-26T00:30:00Z", "2026-10-26"], // 00:30 GMT
  ],
  "the end of a summer month": [
    ["2026-04-30T22:30:00Z", "2026-04-30"], // 23:30 BST
    ["2026-04-30T23:30:00Z", "2026-05-01"], // 00:30 BST on 1 May, still April in UTC
  ],
  "the end of a winter month": [
    ["2026-10-31T23:30:00Z", "2026-10-31"], // 23:30 GMT
    ["2026-11-01T00:30:00Z", "2026-11-01"], // 00:30 GMT
  ],
} as const;

describe.each(dialects)("London days around midnight (%s)", (dialect) => {
  let testApp: TestApp;
  beforeAll(async () => {
    vi.useFakeTimers({ toFake: ["Date"] });
    testApp = await buildTestApp(dialect);
  });
  afterAll(async () => {
    await testApp.close();
    vi.useRealTimers();
  });

  it.each(Object.entries(NIGHTS))(
    "counts each sync on its London day on the night %s",
    async (_, instants) => {
      vi.setSystemTime(new Date(instants[0][0]));
      const { cookie } = await createSignedInWalker(testApp.app);
      const api = stepsClient(testApp.app, cookie);

      // Each instant adds 1,000 × (its number) live steps and 1 synced step on its own device.
      const byDay = new Map<string, number>();
      for (const [index, [instant, londonDay]] of instants.entries()) {
        vi.setSystemTime(new Date(instant));
        const steps = 1_000 * (index + 1);
        const before = byDay.get(londonDay) ?? 0;
        // A real-time count lands on the server's London today…
        const live = await api.post(
          "/api/steps/realtime",
          { steps, source: "device_motion" },
          { "x-device-id": `live-${index}` },
        );
        expect(live.statusCode, instant).toBe(200);
        expect((await api.get("/api/steps/today")).json(), instant).toEqual({
          date: londonDay,
          steps: before + steps,
        });
        // …and a client's sync for its London today is accepted, not taken for a future date.
        const synced = await api.sync(
          { steps: 1, date: londonDay, source: "device_motion" },
          `sync-${index}`,
        );
        expect(synced.statusCode, instant).toBe(200);
        expect(synced.json().daySteps, instant).toBe(before + steps + 1);
        byDay.set(londonDay, before + steps + 1);
        expect((await api.get("/api/steps/monthly")).json().month, instant).toBe(londonDay.slice(0, 7));
      }

      const { days } = (await api.get("/api/steps/history")).json() as {
        days: { date: string; steps: number }[];
      };
      for (const [day, steps] of byDay) expect(days.find((d) => d.date === day)?.steps, day).toBe(steps);
      const lastMonth = (instants.at(-1) as readonly [string, string])[1].slice(0, 7);
      const monthSteps = [...byDay]
        .filter(([day]) => day.startsWith(lastMonth))
        .reduce((sum, [, s]) => sum + s, 0);
      expect((await api.get("/api/steps/monthly")).json().steps).toBe(monthSteps);
    },
  );

  it("refuses tomorrow in London even when it is still today in UTC", async () => {
    vi.setSystemTime(new Date("2026-03-29T23:30:00Z")); // 00:30 BST on the 30th
    const { cookie } = await createSignedInWalker(testApp.app);
    const api = stepsClient(testApp.app, cookie);
    expect((await api.sync({ steps: 10, date: "2026-03-30", source: "device_motion" })).statusCode).toBe(200);
    const tomorrow = await api.sync({ steps: 10, date: "2026-03-31", source: "device_motion" });
    expect(tomorrow.statusCode).toBe(422);
    expect(tomorrow.json().message).toMatch(/^Tue, 31 Mar 2026 is in the future/);
  });
});
