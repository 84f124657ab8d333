import { addDays, MAX_IMPORT_DAYS, stepDateOutOfRange } from "@charity-steps/shared-types";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { buildTestApp, dialects, type TestApp } from "../../../helper.js";
import { healthWalker, importCall } from "../../../support/apple-health.js";

// Noon in London on Saturday 21 November 2026 (GMT).
const NOW = new Date("2026-11-21T12:00:00Z");
const TODAY = "2026-11-21";

describe.each(dialects)("importing Apple Health steps (%s)", (dialect) => {
  let testApp: TestApp;
  beforeAll(async () => {
    vi.useFakeTimers({ toFake: ["Date"] });
    vi.setSystemTime(NOW);
    testApp = await buildTestApp(dialect);
  });
  afterAll(async () => {
    await testApp.close();
    vi.useRealTimers();
  });

  /** A walker with a key, and their Shortcut's call. */
  const shortcut = async () => {
    const walker = await healthWalker(testApp.app);
    const { id, key } = await walker.newKey();
    return { ...walker, keyId: id, key, send: (body: unknown) => importCall(testApp.app, body, { key }) };
  };

  /** The walker's counters as the ledger holds them. */
  const counters = (userId: string) =>
    testApp.app.database.db
      .selectFrom("step_counters")
      .select(["day", "counter_id", "kind", "source", "steps"])
      .where("user_id", "=", userId)
      .orderBy("day")
      .orderBy("counter_id")
      .execute();

  it("records one day as the walker's Apple Health counter", async () => {
    const walker = await shortcut();
    const response = await walker.send({ date: TODAY, steps: 8_234 });
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual({
      days: [{ date: TODAY, steps: 8_234, daySteps: 8_234 }],
      todaySteps: 8_234,
      monthlySteps: 8_234,
    });
    expect(await counters(walker.user.id)).toEqual([
      { day: TODAY, counter_id: "health:apple_health", kind: "health", source: "apple_health", steps: 8_234 },
    ]);
    expect((await walker.account.dashboard()).json().todaySteps).toBe(8_234);
  });

  it("takes a missing date as today in London", async () => {
    const walker = await shortcut();
    const response = await walker.send({ steps: 4_000 });
    expect(response.statusCode).toBe(200);
    expect(response.json().days).toEqual([{ date: TODAY, steps: 4_000, daySteps: 4_000 }]);

    // Half past midnight in London on 2 July is still 1 July in UTC: the London day is the one.
    vi.setSystemTime(new Date("2026-07-01T23:30:00Z"));
    try {
      const summer = await walker.send({ steps: 1_200 });
      expect(summer.statusCode).toBe(200);
      expect(summer.json().days[0].date).toBe("2026-07-02");
    } finally {
      vi.setSystemTime(NOW);
    }
  });

  it("records several days at once, and answers each day's totals", async () => {
    const walker = await shortcut();
    const days = [
      { date: addDays(TODAY, -2), steps: 5_000 },
      { date: addDays(TODAY, -1), steps: 7_500 },
      { date: TODAY, steps: 3_000 },
    ];
    const response = await walker.send({ days });
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual({
      days: days.map((day) => ({ ...day, daySteps: day.steps })),
      todaySteps: 3_000,
      monthlySteps: 15_500,
    });
    expect((await counters(walker.user.id)).map((row) => [row.day, row.steps])).toEqual(
      days.map((day) => [day.date, day.steps]),
    );
  });

  it("asks for a look at the walker's badges for the days an import raised, and none when it raised nothing", async () => {
    const walker = await shortcut();
    const yesterday = addDays(TODAY, -1);
    expect((await walker.send({ days: [{ date: yesterday, steps: 5_000 }] })).statusCode).toBe(200);
    const looks = vi.spyOn(testApp.app.services.badges, "soon");
    try {
      // Yesterday again as it was, and today new: only today's steps arrived.
      const days = [
        { date: yesterday, steps: 5_000 },
        { date: TODAY, steps: 2_000 },
      ];
      expect((await walker.send({ days })).statusCode).toBe(200);
      expect(looks.mock.calls.map(([userId, , looked]) => [userId, looked])).toEqual([
        [walker.user.id, [TODAY]],
      ]);
      // The same import again changes nothing.
      expect((await walker.send({ days })).statusCode).toBe(200);
      expect(looks).toHaveBeenCalledTimes(1);
    } finally {
      looks.mockRestore();
    }
  });

  it(`takes up to ${MAX_IMPORT_DAYS} days, the oldest 30 days back`, async () => {
    const walker = await shortcut();
    const days = Array.from({ length: MAX_IMPORT_DAYS }, (_, back) => ({
      date: addDays(TODAY, -back),
      steps: 1_000,
    }));
    const response = await walker.send({ days });
    expect(response.statusCode).toBe(200);
    expect(response.json().days).toHaveLength(MAX_IMPORT_DAYS);
    expect(await counters(walker.user.id)).toHaveLength(MAX_IMPORT_DAYS);
  });

  it("counts a day as the larger of motion and Apple Health, never lowering what it holds", async () => {
    const walker = await shortcut();
    const yesterday = addDays(TODAY, -1);
    // Motion 6,000, then Health 8,000: the same walk seen twice counts 8,000.
    expect((await walker.account.sync(6_000, TODAY)).statusCode).toBe(200);
    const higher = await walker.send({ date: TODAY, steps: 8_000 });
    expect(higher.json().days).toEqual([{ date: TODAY, steps: 8_000, daySteps: 8_000 }]);

    // Health 3,000 after motion 6,000: the day keeps 6,000.
    expect((await walker.account.sync(6_000, yesterday)).statusCode).toBe(200);
    const lower = await walker.send({ date: yesterday, steps: 3_000 });
    expect(lower.json().days).toEqual([{ date: yesterday, steps: 3_000, daySteps: 6_000 }]);

    // A later, lower Health count (a Shortcut run on another phone) does not lower the one held.
    const later = await walker.send({ date: TODAY, steps: 5_000 });
    expect(later.statusCode).toBe(200);
    expect(later.json().days).toEqual([{ date: TODAY, steps: 8_000, daySteps: 8_000 }]);
    expect(later.json()).toMatchObject({ todaySteps: 8_000, monthlySteps: 14_000 });
    expect(await counters(walker.user.id)).toEqual([
      { day: yesterday, counter_id: "device:default", kind: "motion", source: "device_motion", steps: 6_000 },
      {
        day: yesterday,
        counter_id: "health:apple_health",
        kind: "health",
        source: "apple_health",
        steps: 3_000,
      },
      { day: TODAY, counter_id: "device:default", kind: "motion", source: "device_motion", steps: 6_000 },
      { day: TODAY, counter_id: "health:apple_health", kind: "health", source: "apple_health", steps: 8_000 },
    ]);
  });

  it("accepts what a Shortcut sends as text, and a count with a zero fraction", async () => {
    const walker = await shortcut();
    const forms: [string, number][] = [
      ['{"steps": "1234"}', 1_234],
      ['{"steps": 2345.0}', 2_345],
      ['{"steps": "3456.0"}', 3_456],
      ['{"steps": " 4567 "}', 4_567],
      [`{"days": [{"date": "${addDays(TODAY, -3)}", "steps": "0"}]}`, 0],
    ];
    for (const [body, steps] of forms) {
      const response = await importCall(testApp.app, body, { key: walker.key });
      expect(response.statusCode, body).toBe(200);
      expect(response.json().days[0].steps, body).toBe(steps);
    }
    // The largest of them is what today holds.
    expect((await counters(walker.user.id)).find((row) => row.day === TODAY)?.steps).toBe(4_567);
  });

  it("refuses a body that is not steps, and records nothing of it", async () => {
    const walker = await shortcut();
    const days = (count: number) =>
      Array.from({ length: count }, (_, back) => ({ date: addDays(TODAY, -back), steps: 100 }));
    const cases: [unknown, string][] = [
      [{ steps: -1 }, "steps must be at least 0."],
      [{ steps: 50_001 }, "steps must be at most 50,000."],
      [{ steps: "50001" }, "steps must be at most 50,000."],
      [{ steps: "abc" }, "steps must be a whole number."],
      [{ steps: 1.5 }, "steps must be a whole number."],
      [{ steps: "1.5" }, "steps must be a whole number."],
      [{ steps: "" }, "steps must be a whole number."],
      [{ steps: null }, "steps must be a whole number."],
      [{ date: TODAY }, "steps is required (or days, to send several days at once)."],
      [{}, "steps is required (or days, to send several days at once)."],
      [{ date: "21/11/2026", steps: 10 }, "date must be a date, YYYY-MM-DD."],
      [{ date: "2026-02-30", steps: 10 }, "date 2026-02-30 is not a calendar date (YYYY-MM-DD)."],
      [{ days: [] }, "days must hold at least 1 item."],
      [{ days: days(MAX_IMPORT_DAYS + 1) }, "days must hold at most 31 items."],
      [
        {
          days: [
            { date: TODAY, steps: 10 },
            { date: TODAY, steps: 20 },
          ],
        },
        `days has ${TODAY} more than once: send each day once.`,
      ],
      [{ days: [{ date: TODAY, steps: -5 }] }, "days.0.steps must be at least 0."],
      [{ days: [{ date: TODAY }] }, "days.0.steps is required."],
      [
        { steps: 10, days: [{ date: TODAY, steps: 10 }] },
        "Send either steps (with an optional date) or days, not both.",
      ],
      [{ steps: 10, source: "google_fit" }, "source is not a field this request takes."],
    ];
    for (const [body, message] of cases) {
      const response = await walker.send(body);
      expect(response.statusCode, JSON.stringify(body).slice(0, 80)).toBe(400);
      expect(response.json().message, JSON.stringify(body).slice(0, 80)).toBe(message);
    }
    expect(await counters(walker.user.id)).toEqual([]);
  });

  it("refuses days outside the window with the ledger's message, and records none of the import", async () => {
    const walker = await shortcut();
    const tomorrow = addDays(TODAY, 1);
    const tooOld = addDays(TODAY, -31);
    const future = await walker.send({ date: tomorrow, steps: 100 });
    expect(future.statusCode).toBe(422);
    expect(future.json().message).toBe(stepDateOutOfRange(tomorrow, TODAY));
    const old = await walker.send({ date: tooOld, steps: 100 });
    expect(old.statusCode).toBe(422);
    expect(old.json().message).toBe(stepDateOutOfRange(tooOld, TODAY));

    // Good days before a bad one are not recorded either.
    const mixed = await walker.send({
      days: [
        { date: TODAY, steps: 1_000 },
        { date: addDays(TODAY, -1), steps: 2_000 },
        { date: tooOld, steps: 3_000 },
      ],
    });
    expect(mixed.statusCode).toBe(422);
    expect(mixed.json().message).toBe(stepDateOutOfRange(tooOld, TODAY));
    expect(await counters(walker.user.id)).toEqual([]);
    expect((await walker.account.dashboard()).json().appleHealthLastImportAt).toBeNull();
  });

  it("records when each key last imported, and shows the latest on the dashboard", async () => {
    const walker = await shortcut();
    expect((await walker.account.dashboard()).json().appleHealthLastImportAt).toBeNull();
    const ipad = await walker.newKey("Ana's iPad");

    expect((await walker.send({ steps: 100 })).statusCode).toBe(200);
    let keys = (await walker.account.listKeys()).json();
    const phone = keys.find((key: { id: string }) => key.id === walker.keyId);
    expect(phone.lastUsedAt).toBe(NOW.toISOString());
    expect(keys.find((key: { id: string }) => key.id === ipad.id).lastUsedAt).toBeNull();
    expect((await walker.account.dashboard()).json().appleHealthLastImportAt).toBe(NOW.toISOString());

    const later = new Date(NOW.getTime() + 6 * 60 * 60_000);
    vi.setSystemTime(later);
    try {
      expect((await importCall(testApp.app, { steps: 200 }, { key: ipad.key })).statusCode).toBe(200);
      keys = (await walker.account.listKeys()).json();
      expect(keys.find((key: { id: string }) => key.id === ipad.id).lastUsedAt).toBe(later.toISOString());
      expect((await walker.account.dashboard()).json().appleHealthLastImportAt).toBe(later.toISOString());
      // A removed key's imports are no longer shown.
      expect((await walker.account.revokeKey(ipad.id)).statusCode).toBe(204);
      expect((await walker.account.dashboard()).json().appleHealthLastImportAt).toBe(NOW.toISOString());
    } finally {
      vi.setSystemTime(NOW);
    }
  });

  it("leaves another walker's days alone", async () => {
    const ana = await shortcut();
    const ben = await shortcut();
    await ana.send({ steps: 9_000 });
    expect((await ben.account.dashboard()).json().todaySteps).toBe(0);
    expect(await counters(ben.user.id)).toEqual([]);
  });
});
