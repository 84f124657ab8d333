import { randomUUID } from "node:crypto";
import { addDays } from "@charity-steps/shared-types";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { SESSION_TTL_MS } from "../../../../src/auth/sessions.js";
import { OTHER_WALKER_MESSAGE } from "../../../../src/routes/api/steps/index.js";
import { buildTestApp, createSignedInWalker, dialects, type TestApp } from "../../../helper.js";
import { stepsClient } from "../../../support/steps.js";

// Noon in London on Saturday 21 November 2026 (GMT).
const NOW = new Date("2026-11-21T12:00:00Z");
const TODAY = "2026-11-21";

describe.each(dialects)("step syncs and totals (%s)", (dialect) => {
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

  const newWalker = async () => {
    const walker = await createSignedInWalker(testApp.app);
    return { ...walker, api: stepsClient(testApp.app, walker.cookie) };
  };

  it("keeps the larger count of a device: lower, late and replayed syncs change nothing", async () => {
    const { api } = await newWalker();
    const sync = (steps: number) => api.sync({ steps, date: TODAY, source: "device_motion" }, "phone-1");

    const first = await sync(1_000);
    expect(first.statusCode).toBe(200);
    expect(first.json()).toEqual({
      ok: true,
      date: TODAY,
      daySteps: 1_000,
      todaySteps: 1_000,
      monthlySteps: 1_000,
    });
    expect((await sync(800)).json().daySteps).toBe(1_000);
    expect((await sync(1_000)).json().daySteps).toBe(1_000);
    expect((await sync(1_500)).json().daySteps).toBe(1_500);
    expect((await api.get("/api/steps/today")).json()).toEqual({ date: TODAY, steps: 1_500 });
  });

  it("adds up different devices, a missing device id being the 'default' device", async () => {
    const { api } = await newWalker();
    await api.sync({ steps: 3_000, date: TODAY, source: "device_motion" }, "phone");
    await api.sync({ steps: 2_000, date: TODAY, source: "background_device_motion" }, "tablet");
    const last = await api.sync({ steps: 500, date: TODAY, source: "local_tracker" });
    expect(last.json().daySteps).toBe(5_500);
    // The background estimate and live count of one device are one counter: its whole total.
    expect(
      (await api.sync({ steps: 3_200, date: TODAY, source: "background_device_motion" }, "phone")).json()
        .daySteps,
    ).toBe(5_700);
  });

  it("does not add a health source on top of the same walk counted by motion", async () => {
    const { api } = await newWalker();
    await api.sync({ steps: 5_000, date: TODAY, source: "device_motion" }, "phone");
    expect(
      (await api.sync({ steps: 4_000, date: TODAY, source: "apple_health" }, "phone")).json().daySteps,
    ).toBe(5_000);
    expect(
      (await api.sync({ steps: 7_000, date: TODAY, source: "apple_health" }, "other")).json().daySteps,
    ).toBe(7_000);
    expect((await api.sync({ steps: 6_000, date: TODAY, source: "google_fit" })).json().daySteps).toBe(7_000);
  });

  it("caps a day at 50,000 however the steps arrive", async () => {
    const { api } = await newWalker();
    await api.sync({ steps: 30_000, date: TODAY, source: "device_motion" }, "a");
    const capped = await api.sync({ steps: 30_000, date: TODAY, source: "device_motion" }, "b");
    expect(capped.json()).toMatchObject({ daySteps: 50_000, monthlySteps: 50_000 });
  });

  it("accepts today back to 30 days ago, refuses the future and older days with 422 and why", async () => {
    const { api } = await newWalker();
    const sync = (date: string) => api.sync({ steps: 100, date, source: "device_motion" });

    expect((await sync(addDays(TODAY, -30))).statusCode).toBe(200);
    const tomorrow = await sync(addDays(TODAY, 1));
    expect(tomorrow.statusCode).toBe(422);
    expect(tomorrow.json().message).toBe(
      "Sun, 22 Nov 2026 is in the future: steps can only be added for today or earlier.",
    );
    const old = await sync(addDays(TODAY, -31));
    expect(old.statusCode).toBe(422);
    expect(old.json().message).toBe(
      "Wed, 21 Oct 2026 is more than 30 days ago: steps can only be added for the last 30 days.",
    );
    const notADay = await sync("2026-02-30");
    expect(notADay.statusCode).toBe(400);
    expect(notADay.json().message).toBe("date 2026-02-30 is not a calendar date (YYYY-MM-DD).");
    expect(
      (await api.get("/api/steps/history")).json().days.every((d: { steps: number }) => d.steps === 0),
    ).toBe(true);
  });

  it("answers every malformed sync with 400 and a message naming the field, storing nothing", async () => {
    const { api } = await newWalker();
    const cases: [unknown, string][] = [
      [{ steps: -1, date: TODAY, source: "device_motion" }, "steps must be at least 0."],
      [{ steps: 50_001, date: TODAY, source: "device_motion" }, "steps must be at most 50,000."],
      [{ steps: 12.5, date: TODAY, source: "device_motion" }, "steps must be a whole number."],
      [{ steps: "5000", date: TODAY, source: "device_motion" }, "steps must be a whole number."],
      [{ date: TODAY, source: "device_motion" }, "steps is required."],
      [{ steps: 5, date: "21/11/2026", source: "device_motion" }, "date must be a date, YYYY-MM-DD."],
      [
        { steps: 5, date: TODAY, source: "fitbit" },
        "source must be one of: device_motion, background_device_motion, local_tracker, apple_health, google_fit.",
      ],
      [
        { steps: 5, date: TODAY, source: "manual_verified" },
        "source must be one of: device_motion, background_device_motion, local_tracker, apple_health, google_fit.",
      ],
      [
        { steps: 5, date: TODAY, source: "device_motion", bonus: 1 },
        "bonus is not a field this request takes.",
      ],
      // A long name of the caller's own is cut short, and never in the middle of a character.
      [
        { steps: 5, date: TODAY, source: "device_motion", [`a${"\u{1F6B6}".repeat(60)}`]: 1 },
        `a${"\u{1F6B6}".repeat(39)}… is not a field this request takes.`,
      ],
      [[1, 2], "The request body must be an object."],
    ];
    for (const [body, message] of cases) {
      const response = await api.post("/api/steps/sync", body);
      expect(response.statusCode, JSON.stringify(body)).toBe(400);
      expect(response.json().message, JSON.stringify(body)).toBe(message);
    }
    const broken = await api.post("/api/steps/sync", undefined, { "content-type": "application/json" });
    expect(broken.statusCode).toBe(400);
    const badDevice = await api.sync({ steps: 5, date: TODAY, source: "device_motion" }, "no spaces allowed");
    expect(badDevice.statusCode).toBe(400);
    expect(badDevice.json().message).toBe("x-device-id must be 1 to 64 letters, digits, _ or -.");
    expect((await api.get("/api/steps/today")).json().steps).toBe(0);
  });

  it("counts real-time steps on London today and answers the month's total", async () => {
    const { api } = await newWalker();
    await api.sync({ steps: 4_000, date: addDays(TODAY, -1), source: "device_motion" }, "phone");
    const response = await api.post(
      "/api/steps/realtime",
      { steps: 1_200, source: "device_motion" },
      { "x-device-id": "phone" },
    );
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual({ todaySteps: 1_200, monthlyTotal: 5_200 });
  });

  it("syncs stored background days like any other sync", async () => {
    const { api } = await newWalker();
    const response = await api.post(
      "/api/steps/sync-background",
      { date: addDays(TODAY, -2), steps: 900, source: "background_device_motion" },
      { "x-device-id": "phone" },
    );
    expect(response.statusCode).toBe(200);
    expect(response.json()).toMatchObject({ ok: true, daySteps: 900, todaySteps: 0, monthlySteps: 900 });
  });

  it("syncs local steps only for the signed-in walker: another walker's id is 403", async () => {
    const walker = await newWalker();
    const other = await newWalker();
    const body = { steps: 700, date: TODAY, source: "local_tracker" };

    const foreign = await walker.api.post("/api/steps/sync-local", { ...body, userId: other.user.id });
    expect(foreign.statusCode).toBe(403);
    expect(foreign.json().message).toBe(OTHER_WALKER_MESSAGE);
    expect((await other.api.get("/api/steps/today")).json().steps).toBe(0);
    expect((await walker.api.get("/api/steps/today")).json().steps).toBe(0);

    const own = await walker.api.post("/api/steps/sync-local", { ...body, userId: walker.user.id });
    expect(own.statusCode).toBe(200);
    expect(own.json().daySteps).toBe(700);
  });

  it("reports the month (London) and the last 30 days, oldest first, days without steps as 0", async () => {
    const { api } = await newWalker();
    await api.sync({ steps: 9_000, date: "2026-10-31", source: "device_motion" });
    await api.sync({ steps: 2_000, date: "2026-11-01", source: "device_motion" });
    await api.sync({ steps: 3_000, date: TODAY, source: "device_motion" });

    expect((await api.get("/api/steps/monthly")).json()).toEqual({ month: "2026-11", steps: 5_000 });
    const { days } = (await api.get("/api/steps/history")).json();
    expect(days).toHaveLength(30);
    expect(days[0]).toEqual({
      date: "2026-10-23",
      steps: 0,
      motionSteps: 0,
      healthSteps: 0,
      manualSteps: 0,
      goal: 10_000,
    });
    expect(days.at(-1)).toEqual({
      date: TODAY,
      steps: 3_000,
      motionSteps: 3_000,
      healthSteps: 0,
      manualSteps: 0,
      goal: 10_000,
    });
    expect(days.find((d: { date: string }) => d.date === "2026-10-31")).toEqual({
      date: "2026-10-31",
      steps: 9_000,
      motionSteps: 9_000,
      healthSteps: 0,
      manualSteps: 0,
      goal: 10_000,
    });
    expect(days.reduce((sum: number, d: { steps: number }) => sum + d.steps, 0)).toBe(14_000);
  });

  it("gives the dashboard its numbers in one answer: steps, goals, entries, charity, prize pool", async () => {
    const { api, user } = await newWalker();
    await api.sync({ steps: 20_000, date: "2026-11-20", source: "device_motion" });
    await api.sync({ steps: 5_500, date: TODAY, source: "device_motion" });
    // Ten paid months of £5.99 would put 30% of £59.90 in the pool; the beta has none of its own.
    const { db } = testApp.app.database;
    await db
      .insertInto("subscription_payments")
      .values(
        Array.from({ length: 10 }, () => ({
          id: randomUUID(),
          user_id: user.id,
          month: "2026-11",
          amount_pence: 599,
          created_at: Date.now(),
        })),
      )
      .execute();

    const response = await api.get("/api/dashboard/stats");
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual({
      date: TODAY,
      month: "2026-11",
      todaySteps: 5_500,
      monthlySteps: 25_500,
      dailyGoal: 10_000,
      // Today's 5,500 is short of the goal; yesterday's 20,000 reached it: a run of one, so far.
      todayOnGoal: false,
      streak: { current: 1, best: 1 },
      monthlyGoal: 100_000,
      monthlyStepsRemaining: 74_500,
      eligibleMonthSteps: 25_500,
      pendingMonthSteps: 0,
      prizeEntries: 2,
      stepsToNextEntry: 4_500,
      charityName: null,
      prizePool: 17.97,
      appleHealthLastImportAt: null,
    });
    await db.deleteFrom("subscription_payments").execute();
  });

  it("resets idempotently: expired records go, counted steps and past months stay", async () => {
    const { api, user } = await newWalker();
    await api.sync({ steps: 8_000, date: "2026-10-30", source: "device_motion" });
    await api.sync({ steps: 4_000, date: TODAY, source: "device_motion" });
    const { db } = testApp.app.database;
    const past = Date.now() - 1_000;
    await db
      .insertInto("idempotency_records")
      .values({
        user_id: user.id,
        key: "expired-key-1",
        request_hash: "h",
        status_code: 201,
        response_body: "{}",
        created_at: past - SESSION_TTL_MS,
        expires_at: past,
      })
      .execute();
    await db
      .insertInto("sessions")
      .values({
        id_hash: `expired-${user.id}`,
        user_id: user.id,
        created_at: past - SESSION_TTL_MS,
        expires_at: past,
        renewed_at: past,
      })
      .execute();

    const daily = await api.post("/api/daily-reset", undefined, { "content-type": "application/json" });
    expect(daily.statusCode).toBe(200);
    expect(daily.json()).toEqual({
      message: "Daily reset done: 2026-11-21 starts at 0 steps; earlier days are kept.",
      recordsDeleted: 2,
    });
    expect((await api.post("/api/daily-reset")).json().recordsDeleted).toBe(0);

    const monthly = await api.post("/api/monthly-reset");
    expect(monthly.statusCode).toBe(200);
    expect(monthly.json().message).toMatch(/^Monthly reset done: 2026-11/);
    expect((await api.post("/api/monthly-reset")).statusCode).toBe(200);

    expect((await api.get("/api/steps/today")).json().steps).toBe(4_000);
    const { days } = (await api.get("/api/steps/history")).json();
    expect(days.find((d: { date: string }) => d.date === "2026-10-30").steps).toBe(8_000);
  });

  it("answers every step call with 401 and a message when signed out, storing nothing", async () => {
    const calls: [string, string, unknown?][] = [
      ["POST", "/api/steps/sync", { steps: 5, date: TODAY, source: "device_motion" }],
      ["POST", "/api/steps/sync-background", { steps: 5, date: TODAY, source: "device_motion" }],
      ["POST", "/api/steps/sync-local", { userId: "x", steps: 5, date: TODAY, source: "device_motion" }],
      ["POST", "/api/steps/realtime", { steps: 5, source: "device_motion" }],
      ["POST", "/api/steps/add-manual-verified", { steps: "5" }],
      ["GET", "/api/steps/today"],
      ["GET", "/api/steps/monthly"],
      ["GET", "/api/steps/history"],
      ["GET", "/api/dashboard/stats"],
      ["POST", "/api/daily-reset"],
      ["POST", "/api/monthly-reset"],
    ];
    for (const cookie of [undefined, "cs_session=not-a-session"]) {
      for (const [method, url, body] of calls) {
        const response = await testApp.app.inject({
          method: method as "GET" | "POST",
          url,
          headers: { ...(cookie ? { cookie } : {}), ...(body ? { "content-type": "application/json" } : {}) },
          ...(body ? { payload: JSON.stringify(body) } : {}),
        });
        expect(response.statusCode, `${method} ${url}`).toBe(401);
        expect(response.json().message, `${method} ${url}`).toMatch(/sign in/);
      }
    }
    expect(
      await testApp.app.database.db
        .selectFrom("step_counters")
        .select("user_id")
        .where("user_id", "=", "x")
        .execute(),
    ).toEqual([]);
  });
});
