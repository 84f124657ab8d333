import { randomUUID } from "node:crypto";
import type { FastifyInstance } from "fastify";
import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { buildApp } from "../../src/app.js";
import { buildTestApp, createSignedInWalker, dialects, type TestApp, testConfig } from "../helper.js";
import { TEST_TODAY, useTestClock } from "../support/clock.js";
import { manualForm, photo, stepsClient } from "../support/steps.js";

/** Shuffles in place (Fisher–Yates), so arrival order differs from sending order. */
function shuffle<T>(items: T[]): T[] {
  for (let i = items.length - 1; i > 0; i--) {
    const j = Math.floor(Math.random() * (i + 1));
    [items[i], items[j]] = [items[j] as T, items[i] as T];
  }
  return items;
}

useTestClock();

// Two API processes' worth of apps on one database: on PostgreSQL each has its own pool of
// connections, so the writes below really run in parallel; on SQLite they contend for the file lock.
describe.each(dialects)("simultaneous syncs for one walker and day (%s)", (dialect) => {
  let testApp: TestApp;
  let second: FastifyInstance;
  beforeAll(async () => {
    testApp = await buildTestApp(dialect);
    second = await buildApp(testConfig({ DATABASE_URL: testApp.database.url }), { logger: false });
    await second.ready();
  });
  afterAll(async () => {
    await second.close();
    await testApp.close();
  });

  it("end at the largest count of each device, never lower, whatever order they land in", async () => {
    const { cookie } = await createSignedInWalker(testApp.app);
    const apis = [stepsClient(testApp.app, cookie), stepsClient(second, cookie)];
    const today = TEST_TODAY;
    const devices = ["phone", "watch", "tablet"];
    const counts = devices.flatMap((device, d) =>
      Array.from({ length: 40 }, (_, i) => ({ device, steps: 1_000 * (d + 1) + i * 37 })),
    );

    const answers = await Promise.all(
      shuffle(counts).map(({ device, steps }, i) =>
        (apis[i % 2] as ReturnType<typeof stepsClient>).sync(
          { steps, date: today, source: "device_motion" },
          device,
        ),
      ),
    );

    const expected = devices
      .map((device) => Math.max(...counts.filter((c) => c.device === device).map((c) => c.steps)))
      .reduce((sum, steps) => sum + steps, 0);
    expect(answers.map((answer) => answer.statusCode)).toEqual(Array(counts.length).fill(200));
    expect(Math.max(...answers.map((answer) => answer.json().daySteps))).toBe(expected);
    expect((await apis[0]?.get("/api/steps/today"))?.json().steps).toBe(expected);
    const counters = await testApp.app.database.db
      .selectFrom("step_counters")
      .select(["counter_id", "steps"])
      .execute();
    expect(Object.fromEntries(counters.map((c) => [c.counter_id, c.steps]))).toEqual({
      "device:phone": 1_000 + 39 * 37,
      "device:watch": 2_000 + 39 * 37,
      "device:tablet": 3_000 + 39 * 37,
    });
  });

  it("lose no device's count when many devices of one walker sync the same day at once", async () => {
    const { cookie } = await createSignedInWalker(testApp.app);
    const apis = [stepsClient(testApp.app, cookie), stepsClient(second, cookie)];
    const today = TEST_TODAY;
    const devices = Array.from({ length: 60 }, (_, i) => ({ device: `device-${i}`, steps: 100 + i }));

    const answers = await Promise.all(
      devices.map(({ device, steps }, i) =>
        (apis[i % 2] as ReturnType<typeof stepsClient>).sync(
          { steps, date: today, source: "local_tracker" },
          device,
        ),
      ),
    );

    expect(answers.map((answer) => answer.statusCode)).toEqual(Array(devices.length).fill(200));
    const sum = devices.reduce((total, { steps }) => total + steps, 0);
    expect((await apis[1]?.get("/api/steps/today"))?.json().steps).toBe(sum);
  });

  it("count every manual entry once while syncs for the same day race them", async () => {
    const { cookie } = await createSignedInWalker(testApp.app);
    const apis = [stepsClient(testApp.app, cookie), stepsClient(second, cookie)];
    const today = TEST_TODAY;
    const png = await photo("png", 8, 8);
    const entries = Array.from({ length: 6 }, () => ({ key: randomUUID(), steps: 500 }));

    // Photos are processed a few at a time: a busy server answers 503, and the entry is sent again.
    const addManualUntilTaken = async (api: ReturnType<typeof stepsClient>, key: string, steps: number) => {
      for (;;) {
        const answer = await api.addManual(
          manualForm({ steps: String(steps), date: today }, { bytes: png }),
          key,
        );
        if (answer.statusCode !== 503) return answer;
        await new Promise((resolve) => setTimeout(resolve, 50));
      }
    };
    const requests = shuffle([
      ...entries.flatMap(({ key, steps }) =>
        [0, 1].map((copy) => ({ kind: "manual" as const, key, steps, copy })),
      ),
      ...Array.from({ length: 20 }, (_, i) => ({ kind: "sync" as const, steps: 100 * (i + 1) })),
    ]);
    const answers = await Promise.all(
      requests.map((request, i) => {
        const api = apis[i % 2] as ReturnType<typeof stepsClient>;
        return request.kind === "manual"
          ? addManualUntilTaken(api, request.key, request.steps)
          : api.sync({ steps: request.steps, date: today, source: "device_motion" }, "phone");
      }),
    );

    expect(answers.filter((answer) => answer.statusCode >= 300)).toEqual([]);
    expect((await apis[1]?.get("/api/steps/today"))?.json().steps).toBe(2_000 + 6 * 500);
  });
});

// On PostgreSQL a counter's row is locked by whichever write raises it, until its transaction ends.
describe.each(dialects.filter((dialect) => dialect === "postgres"))("a replayed sync on %s", (dialect) => {
  let testApp: TestApp;
  beforeAll(async () => {
    testApp = await buildTestApp(dialect);
  });
  afterAll(async () => {
    await testApp.close();
  });

  it("answers at once while another write holds its counter, and changes nothing", async () => {
    const { cookie } = await createSignedInWalker(testApp.app);
    const api = stepsClient(testApp.app, cookie);
    const reading = { steps: 5_000, date: TEST_TODAY, source: "device_motion" } as const;
    expect((await api.sync(reading, "phone")).json().daySteps).toBe(5_000);

    const other = new pg.Client({ connectionString: testApp.database.url });
    await other.connect();
    // The counter's row version and last raise: a write of any kind would change the first.
    const counterRow = async () =>
      (
        await other.query(
          "select xmin::text as version, updated_at from step_counters where counter_id = 'device:phone'",
        )
      ).rows;
    const before = await counterRow();
    expect(before).toHaveLength(1);
    try {
      await other.query("begin");
      const locked = await other.query(
        "select steps from step_counters where counter_id = 'device:phone' for update",
      );
      expect(locked.rows).toEqual([{ steps: 5_000 }]);
      let timer: NodeJS.Timeout | undefined;
      const waited = new Promise<"waited">((resolve) => {
        timer = setTimeout(() => resolve("waited"), 3_000);
      });
      const answers = Promise.all([
        api.sync(reading, "phone"),
        api.sync({ ...reading, steps: 4_000 }, "phone"),
      ]);
      const first = await Promise.race([answers, waited]);
      clearTimeout(timer);
      expect(first).not.toBe("waited");
      expect((await answers).map((answer) => [answer.statusCode, answer.json().daySteps])).toEqual([
        [200, 5_000],
        [200, 5_000],
      ]);
      await other.query("rollback");
      expect(await counterRow()).toEqual(before);
    } finally {
      // Closing the connection also ends its transaction when an expectation above failed.
      await other.end();
    }
    expect((await api.get("/api/steps/today")).json().steps).toBe(5_000);
  });
});
