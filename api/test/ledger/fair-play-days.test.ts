import {
  addDays,
  DAY_PRIZE_CEILING_STEPS,
  FAIR_PLAY_MESSAGES,
  LATE_DAY_STEPS_AT_ONCE,
  LATE_DAYS_AT_ONCE_PER_MONTH,
  lateDayAfter,
  NEW_DEVICES_PER_DAY_MAX,
  OPERATOR_AUDIT_LOG_PATH,
  OPERATOR_REVIEW_WALKERS_PATH,
  OPERATOR_REVIEWS_PATH,
  operatorDrawOutliersPath,
  operatorReviewMonthPath,
  PACE_REVIEWS_PATH,
  PACE_STEPS_PER_MINUTE_MAX,
  REVIEW_REASON_MESSAGES,
  STEPS_PER_PRIZE_ENTRY,
  type WalkerReviewGroup,
} from "@charity-steps/shared-types";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { buildTestApp, createSignedInWalker, dialects, type TestApp } from "../helper.js";
import { healthWalker, importCall } from "../support/apple-health.js";
import { OPERATOR_EMAIL, OPERATOR_ENV, walkerWithEmail } from "../support/operators.js";
import { stepsClient } from "../support/steps.js";

// 11:00 in London on Thursday 26 November 2026 (GMT): the 24th ended 35 hours ago, not yet late;
// the 23rd ended 59 hours ago, late.
const TODAY = "2026-11-26";
const at = (time: string) => new Date(`${TODAY}T${time}:00Z`);

describe.each(dialects)("fair play's day rules (%s)", (dialect) => {
  let testApp: TestApp;
  let operatorCookie = "";
  beforeAll(async () => {
    vi.useFakeTimers({ toFake: ["Date"] });
    vi.setSystemTime(at("11:00"));
    testApp = await buildTestApp(dialect, OPERATOR_ENV);
    operatorCookie = (await walkerWithEmail(testApp.app, OPERATOR_EMAIL, true)).cookie;
  });
  const operator = (method: "GET" | "POST", url: string, payload?: unknown) =>
    testApp.app.inject({
      method,
      url,
      headers: { cookie: operatorCookie, ...(payload ? { "content-type": "application/json" } : {}) },
      ...(payload ? { payload: JSON.stringify(payload) } : {}),
    });
  /** The operator's queue, grouped by walker, every page of it. */
  const waitingByWalker = async (): Promise<WalkerReviewGroup[]> => {
    const groups: WalkerReviewGroup[] = [];
    for (let page = 1; ; page++) {
      const answer = await operator("GET", `${OPERATOR_REVIEW_WALKERS_PATH}?page=${page}`);
      expect(answer.statusCode, answer.body).toBe(200);
      groups.push(...answer.json().walkers);
      if (page >= answer.json().pageCount) return groups;
    }
  };
  afterAll(async () => {
    await testApp.close();
    vi.useRealTimers();
  });

  const newWalker = async () => {
    const walker = await createSignedInWalker(testApp.app);
    const api = stepsClient(testApp.app, walker.cookie);
    const sync = async (steps: number, date: string, deviceId = "phone") => {
      const response = await api.sync({ steps, date, source: "device_motion" }, deviceId);
      expect(response.statusCode, response.body).toBe(200);
    };
    const stats = async () => (await api.get("/api/dashboard/stats")).json();
    return { ...walker, api, sync, stats };
  };

  it("turns the 26-request attack into at most 16 entries at once, the rest waiting for a check", async () => {
    vi.setSystemTime(at("11:00"));
    const attacker = await newWalker();
    // 50,000 for each of the last 25 days, then today from a device never seen before.
    for (let back = 25; back >= 1; back--) await attacker.sync(50_000, addDays(TODAY, -back));
    await attacker.sync(50_000, TODAY, "brand-new-device");
    const allowed = LATE_DAYS_AT_ONCE_PER_MONTH * LATE_DAY_STEPS_AT_ONCE + 3 * DAY_PRIZE_CEILING_STEPS;
    expect(allowed / STEPS_PER_PRIZE_ENTRY).toBe(16);
    expect(await attacker.stats()).toMatchObject({
      monthlySteps: 26 * 50_000,
      eligibleMonthSteps: allowed,
      pendingMonthSteps: 26 * 50_000 - allowed,
      prizeEntries: 16,
    });
    // Every step still shows in the history; the held ones are marked.
    const history = (await attacker.api.get("/api/steps/history")).json().days as {
      date: string;
      steps: number;
      pendingSteps?: number;
      pendingReasons?: { code: string; message: string }[];
    }[];
    const dayOf = (date: string) => history.find((day) => day.date === date);
    expect(dayOf(TODAY)).toMatchObject({
      steps: 50_000,
      pendingSteps: 50_000 - DAY_PRIZE_CEILING_STEPS,
      pendingReasons: [{ code: "day-ceiling", message: REVIEW_REASON_MESSAGES["day-ceiling"] }],
    });
    expect(dayOf(addDays(TODAY, -25))).toMatchObject({
      steps: 50_000,
      pendingSteps: 50_000 - LATE_DAY_STEPS_AT_ONCE,
      pendingReasons: [{ code: "late-day" }],
    });
    // The eighth late day to arrive waits whole.
    expect(dayOf(addDays(TODAY, -18))).toMatchObject({
      steps: 50_000,
      pendingSteps: 50_000,
      pendingReasons: [{ code: "late-days-over" }],
    });
  });

  it("counts a week offline, synced later, at 10,000 a day at once", async () => {
    vi.setSystemTime(at("11:00"));
    const walker = await newWalker();
    for (let back = 9; back >= 3; back--) await walker.sync(12_000, addDays(TODAY, -back));
    expect(await walker.stats()).toMatchObject({
      monthlySteps: 7 * 12_000,
      eligibleMonthSteps: 7 * LATE_DAY_STEPS_AT_ONCE,
      pendingMonthSteps: 7 * (12_000 - LATE_DAY_STEPS_AT_ONCE),
    });
  });

  it.each([
    ["in summer time", "2026-07-15"],
    ["in winter time", "2026-11-10"],
  ])("makes a day late from the first moment after its wait, to the millisecond (%s)", async (_, day) => {
    try {
      vi.setSystemTime(lateDayAfter(day));
      const onTime = await newWalker();
      await onTime.sync(12_000, day);
      vi.setSystemTime(lateDayAfter(day) + 1);
      const late = await newWalker();
      await late.sync(12_000, day);
      expect(await onTime.stats()).toMatchObject({ eligibleMonthSteps: 12_000, pendingMonthSteps: 0 });
      expect(await late.stats()).toMatchObject({
        eligibleMonthSteps: LATE_DAY_STEPS_AT_ONCE,
        pendingMonthSteps: 12_000 - LATE_DAY_STEPS_AT_ONCE,
      });
    } finally {
      vi.setSystemTime(at("11:00"));
    }
  });

  it("judges a new device's first reading from the walker's last reading that day, not from midnight", async () => {
    const walker = await newWalker();
    vi.setSystemTime(at("10:00"));
    await walker.sync(1_000, TODAY, "phone");
    vi.setSystemTime(at("10:02"));
    await walker.sync(5_000, TODAY, "watch");
    const held = 5_000 - 2 * PACE_STEPS_PER_MINUTE_MAX;
    expect((await walker.api.get(PACE_REVIEWS_PATH)).json().reviews).toMatchObject([
      { date: TODAY, steps: held, status: "pending" },
    ]);
    expect(await walker.stats()).toMatchObject({ todaySteps: 6_000, eligibleMonthSteps: 6_000 - held });
    vi.setSystemTime(at("11:00"));
  });

  it("counts the first 3 devices of a day at once; a further device's steps wait", async () => {
    const walker = await newWalker();
    const devices = ["phone", "watch", "tablet", "borrowed-phone"];
    expect(devices).toHaveLength(NEW_DEVICES_PER_DAY_MAX + 1);
    for (const [index, device] of devices.entries()) {
      vi.setSystemTime(at(`10:${String(10 * index).padStart(2, "0")}`));
      await walker.sync(2_000, TODAY, device);
    }
    expect(await walker.stats()).toMatchObject({
      todaySteps: 8_000,
      eligibleMonthSteps: 6_000,
      pendingMonthSteps: 2_000,
    });
    vi.setSystemTime(at("11:00"));
  });

  it("holds the Apple Health key route to the same rules", async () => {
    vi.setSystemTime(at("11:00"));
    const walker = await healthWalker(testApp.app);
    const { key } = await walker.newKey();
    const days = Array.from({ length: 25 }, (_, index) => ({
      date: addDays(TODAY, -25 + index),
      steps: 50_000,
    }));
    const imported = await importCall(testApp.app, { days }, { key });
    expect(imported.statusCode, imported.body).toBe(200);
    const allowed = LATE_DAYS_AT_ONCE_PER_MONTH * LATE_DAY_STEPS_AT_ONCE + 2 * DAY_PRIZE_CEILING_STEPS;
    expect((await walker.account.dashboard()).json()).toMatchObject({
      monthlySteps: 25 * 50_000,
      eligibleMonthSteps: allowed,
      pendingMonthSteps: 25 * 50_000 - allowed,
    });
  });

  it("shows the operator what waits as one group per walker and month, one line per day, however many devices", async () => {
    vi.setSystemTime(at("11:00"));
    const walker = await newWalker();
    // A step a second from each new device: within the pace, so only the device rule holds them.
    for (let device = 1; device <= 100; device++) {
      vi.setSystemTime(new Date(at("10:00").getTime() + device * 1_000));
      await walker.sync(1, TODAY, `one-step-${device}`);
    }
    vi.setSystemTime(at("11:00"));
    await walker.sync(40_000, addDays(TODAY, -1), "phone");
    const group = (await waitingByWalker()).find((waiting) => waiting.userId === walker.user.id);
    expect(group).toMatchObject({
      month: TODAY.slice(0, 7),
      pendingSteps: 100 - NEW_DEVICES_PER_DAY_MAX + (40_000 - DAY_PRIZE_CEILING_STEPS),
      days: [
        {
          date: addDays(TODAY, -1),
          countedSteps: 40_000,
          eligibleSteps: DAY_PRIZE_CEILING_STEPS,
          late: false,
          reasons: [{ code: "day-ceiling" }],
        },
        {
          date: TODAY,
          countedSteps: 100,
          eligibleSteps: NEW_DEVICES_PER_DAY_MAX,
          reasons: [{ code: "devices-over" }],
        },
      ],
    });
    // Nothing of it is a review item of its own.
    const items = (await operator("GET", OPERATOR_REVIEWS_PATH)).json().reviews as { userId: string }[];
    expect(items.filter((item) => item.userId === walker.user.id)).toEqual([]);
  });

  it("approves or turns down a walker's whole month in one decision, with a reason, in the audit log", async () => {
    vi.setSystemTime(at("11:00"));
    const month = TODAY.slice(0, 7);
    const approved = await newWalker();
    for (let back = 12; back >= 1; back--) await approved.sync(20_000, addDays(TODAY, -back));
    const before = await approved.stats();
    expect(before.pendingMonthSteps).toBeGreaterThan(0);
    const approval = await operator("POST", operatorReviewMonthPath(approved.user.id, month), {
      decision: "approve",
      reason: "Walked the coast path for the charity; photos in the group.",
    });
    expect(approval.statusCode, approval.body).toBe(200);
    // The 10 days that arrived late (the last two are not yet).
    expect(approval.json()).toMatchObject({ status: "approved", days: 10, steps: before.pendingMonthSteps });
    expect(await approved.stats()).toMatchObject({
      eligibleMonthSteps: 12 * 20_000,
      pendingMonthSteps: 0,
      prizeEntries: 24,
    });
    expect((await waitingByWalker()).some((group) => group.userId === approved.user.id)).toBe(false);
    // Decided already: nothing of the month waits any more.
    const again = await operator("POST", operatorReviewMonthPath(approved.user.id, month), {
      decision: "approve",
    });
    expect(again.statusCode).toBe(404);
    expect(again.json()).toEqual({ message: FAIR_PLAY_MESSAGES.nothingWaitingInMonth });

    const rejected = await newWalker();
    for (let back = 12; back >= 1; back--) await rejected.sync(20_000, addDays(TODAY, -back));
    const atOnce = (await rejected.stats()).eligibleMonthSteps;
    const noReason = await operator("POST", operatorReviewMonthPath(rejected.user.id, month), {
      decision: "reject",
    });
    expect(noReason.statusCode).toBe(400);
    expect(noReason.json()).toEqual({ message: FAIR_PLAY_MESSAGES.reasonRequired });
    const turnedDown = await operator("POST", operatorReviewMonthPath(rejected.user.id, month), {
      decision: "reject",
      reason: "Twelve days sent at once from a new phone.",
    });
    expect(turnedDown.statusCode).toBe(200);
    expect(await rejected.stats()).toMatchObject({ eligibleMonthSteps: atOnce, pendingMonthSteps: 0 });
    // Steps that arrive later are weighed again: the tenth late day grows by 5,000.
    await rejected.sync(25_000, addDays(TODAY, -3));
    expect((await rejected.stats()).pendingMonthSteps).toBe(5_000);

    const log = (await operator("GET", OPERATOR_AUDIT_LOG_PATH)).json();
    const entries = JSON.stringify(log);
    expect(entries).toContain(`walker-month:${rejected.user.id}:${month}`);
    expect(entries).toContain("Twelve days sent at once from a new phone.");
  });

  it("lists, before the close, the walkers whose tickets are above the month's 99th percentile, with their late and held days", async () => {
    vi.setSystemTime(at("11:00"));
    const month = TODAY.slice(0, 7);
    for (let n = 0; n < 100; n++) await (await newWalker()).sync(10_000, addDays(TODAY, -1));
    const far = await newWalker();
    for (let back = 25; back >= 1; back--) await far.sync(50_000, addDays(TODAY, -back));
    const approved = await operator("POST", operatorReviewMonthPath(far.user.id, month), {
      decision: "approve",
      reason: "A charity relay; checked with the group's organiser.",
    });
    expect(approved.statusCode).toBe(200);
    // Today's steps above the ceiling wait.
    await far.sync(40_000, TODAY);

    const answer = await operator("GET", operatorDrawOutliersPath(month));
    expect(answer.statusCode, answer.body).toBe(200);
    const outliers = answer.json();
    expect(outliers.walkers).toBeGreaterThan(100);
    expect(outliers.percentile99Tickets).toBeLessThan(25 * 5);
    expect(outliers.above[0]).toMatchObject({
      userId: far.user.id,
      tickets: (25 * 50_000 + DAY_PRIZE_CEILING_STEPS) / STEPS_PER_PRIZE_ENTRY,
      pendingSteps: 40_000 - DAY_PRIZE_CEILING_STEPS,
      heldDays: [
        { date: TODAY, pendingSteps: 40_000 - DAY_PRIZE_CEILING_STEPS, reasons: [{ code: "day-ceiling" }] },
      ],
    });
    // The days that arrived more than 36 hours after they ended: the 1st to the 23rd.
    expect(outliers.above[0].lateDays).toEqual(
      Array.from({ length: 23 }, (_, index) => addDays(TODAY, -25 + index)),
    );
    // Every ticket-holder below it is left out.
    expect(
      outliers.above.every((walker: { tickets: number }) => walker.tickets > outliers.percentile99Tickets),
    ).toBe(true);
  });
});
