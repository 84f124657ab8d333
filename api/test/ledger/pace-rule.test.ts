import {
  addDays,
  isolated,
  LATE_DAY_STEPS_AT_ONCE,
  londonDayStart,
  NOTIFICATIONS_PATH,
  type NotificationsResponse,
  OPERATOR_REVIEW_WALKERS_PATH,
  OPERATOR_REVIEWS_PATH,
  operatorReviewPath,
  PACE_REVIEWS_PATH,
  PACE_STEPS_PER_MINUTE_MAX,
  type ReviewItem,
} from "@charity-steps/shared-types";
import { sql } from "kysely";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { paceCeiling } from "../../src/ledger/pace-rule.js";
import { buildTestApp, createSignedInWalker, dialects, type TestApp } from "../helper.js";
import { OPERATOR_EMAIL, OPERATOR_ENV, walkerWithEmail } from "../support/operators.js";
import { stepsClient } from "../support/steps.js";

const TODAY = "2026-11-21";
/** London time on TODAY (GMT in November), as an instant. */
const at = (time: string) => new Date(`${TODAY}T${time}:00Z`);

describe("London's days", () => {
  it("start at midnight, in winter and in summer time", () => {
    expect(new Date(londonDayStart("2026-11-21")).toISOString()).toBe("2026-11-21T00:00:00.000Z");
    expect(new Date(londonDayStart("2026-07-01")).toISOString()).toBe("2026-06-30T23:00:00.000Z");
    // The clocks go forward on 29 March 2026: that day begins in GMT.
    expect(new Date(londonDayStart("2026-03-29")).toISOString()).toBe("2026-03-29T00:00:00.000Z");
  });
});

describe.each(dialects)("counts faster than feet (%s)", (dialect) => {
  let testApp: TestApp;
  let operatorCookie = "";
  beforeAll(async () => {
    vi.useFakeTimers({ toFake: ["Date"] });
    vi.setSystemTime(at("12:00"));
    testApp = await buildTestApp(dialect, OPERATOR_ENV);
    operatorCookie = (await walkerWithEmail(testApp.app, OPERATOR_EMAIL, true)).cookie;
  });
  afterAll(async () => {
    await testApp.close();
    vi.useRealTimers();
  });

  const newWalker = async () => {
    const walker = await createSignedInWalker(testApp.app);
    const api = stepsClient(testApp.app, walker.cookie);
    const syncAt = async (time: string, steps: number, source = "device_motion", date = TODAY) => {
      vi.setSystemTime(at(time));
      const response = await api.sync({ steps, date, source }, "phone");
      expect(response.statusCode, response.body).toBe(200);
      return response.json();
    };
    const stats = async () => (await api.get("/api/dashboard/stats")).json();
    /** The walker's notices (the bell's list), newest first: title and body. */
    const notices = async () =>
      ((await api.get(NOTIFICATIONS_PATH)).json() as NotificationsResponse).items.map(
        ({ kind, title, body }) => ({
          kind,
          title,
          body,
        }),
      );
    return { ...walker, api, syncAt, stats, notices };
  };
  const operator = (method: "GET" | "POST", url: string, payload?: unknown) =>
    testApp.app.inject({
      method,
      url,
      headers: { cookie: operatorCookie, ...(payload ? { "content-type": "application/json" } : {}) },
      ...(payload ? { payload: JSON.stringify(payload) } : {}),
    });
  /** The pace rule's ceiling as the database works it out, for a counter as stored before a reading. */
  const ceiling = async (
    day: string,
    previous: { steps: number; at: number } | undefined,
    now: number,
    dayLastAt?: number,
  ) => {
    const reading = {
      kind: sql.lit("motion"),
      steps: sql.lit(0),
      dayStart: sql.lit(londonDayStart(day)),
      dayEnd: sql.lit(londonDayStart(addDays(day, 1))),
    };
    const dayLast = dayLastAt === undefined ? sql<null>`null` : sql.lit(dayLastAt);
    const devicesBefore = sql.lit(0);
    const stored = previous
      ? { steps: sql.lit(previous.steps), at: sql.lit(previous.at), dayLastAt: dayLast, devicesBefore }
      : { steps: sql<null>`null`, at: sql<null>`null`, dayLastAt: dayLast, devicesBefore };
    const { rows } = await sql<{ ceiling: number | string }>`
      select ${paceCeiling(dialect, reading, stored, sql.lit(now))} as ceiling`.execute(
      testApp.app.database.db,
    );
    return Number(rows[0]?.ceiling);
  };

  it("allows the pace for each minute since the previous raise, or since midnight for the first", async () => {
    const now = at("00:10").getTime();
    expect(await ceiling(TODAY, undefined, now)).toBe(10 * PACE_STEPS_PER_MINUTE_MAX);
    expect(await ceiling(TODAY, { steps: 1_000, at: at("00:06").getTime() }, now)).toBe(
      1_000 + 4 * PACE_STEPS_PER_MINUTE_MAX,
    );
    // A counter not seen before, on a day the walker has readings: from their last reading.
    expect(await ceiling(TODAY, undefined, now, at("00:08").getTime())).toBe(2 * PACE_STEPS_PER_MINUTE_MAX);
    // A day that is over: the whole day's pace, however late it is sent.
    expect(await ceiling("2026-11-14", { steps: 10, at: at("09:00").getTime() }, now)).toBe(
      24 * 60 * PACE_STEPS_PER_MINUTE_MAX,
    );
  });

  const paceReviewOf = async (userId: string) =>
    ((await operator("GET", OPERATOR_REVIEWS_PATH)).json().reviews as ReviewItem[]).find(
      (review) => review.kind === "pace" && review.userId === userId,
    );

  it("counts a burst as it came, holds the steps above the pace from prizes, and counts them once approved", async () => {
    const walker = await newWalker();
    // Ten minutes into the day, 10,000 steps: 2,500 is the most ten minutes can hold.
    const synced = await walker.syncAt("00:10", 10_000);
    expect(synced).toMatchObject({ todaySteps: 10_000 });
    expect(await walker.stats()).toMatchObject({
      todaySteps: 10_000,
      monthlySteps: 10_000,
      eligibleMonthSteps: 2_500,
      pendingMonthSteps: 7_500,
    });
    // A walk at a walker's pace after it adds to both; the held steps stay held.
    await walker.syncAt("08:00", 12_000);
    expect(await walker.stats()).toMatchObject({ eligibleMonthSteps: 4_500, pendingMonthSteps: 7_500 });

    const review = await paceReviewOf(walker.user.id);
    expect(review).toMatchObject({
      status: "pending",
      date: TODAY,
      steps: 7_500,
      reasons: [{ code: "pace" }],
      photoUrl: null,
    });
    const approved = await operator("POST", operatorReviewPath(review?.id ?? ""), { decision: "approve" });
    expect(approved.statusCode, approved.body).toBe(200);
    expect(await walker.stats()).toMatchObject({
      monthlySteps: 12_000,
      eligibleMonthSteps: 12_000,
      pendingMonthSteps: 0,
      prizeEntries: 1,
    });
    expect(await paceReviewOf(walker.user.id)).toBeUndefined();
    // The walker is told, as for steps added by hand.
    expect(await walker.notices()).toEqual([
      {
        kind: "entry_reviewed",
        title: "Your steps were approved",
        body: "Your 7,500 steps counted quickly on Sat 21 Nov were checked and count toward the prize entries for November 2026.",
      },
    ]);
  });

  it("tells the walker one decision on a month of held steps, with its reason", async () => {
    const walker = await newWalker();
    await walker.syncAt("10:00", 1_000);
    await walker.syncAt("10:01", 6_000);
    const decided = await operator(
      "POST",
      `${OPERATOR_REVIEW_WALKERS_PATH}/${walker.user.id}/months/2026-11`,
      {
        decision: "reject",
        reason: "A phone shaken, not walked.",
      },
    );
    expect(decided.statusCode, decided.body).toBe(200);
    expect(decided.json()).toMatchObject({ manualEntries: 0, paceReviews: 1 });
    expect(await walker.notices()).toEqual([
      {
        kind: "entry_reviewed",
        title: "Your steps were not approved",
        body: `The steps held for a check in November 2026 were checked and do not count toward prize entries: ${isolated("A phone shaken, not walked.")}`,
      },
    ]);
  });

  it("lets a walk at the pace through, however often it syncs, and holds only the excess of a burst", async () => {
    const walker = await newWalker();
    await walker.syncAt("09:00", 1_000);
    await walker.syncAt("09:10", 3_000); // 200 a minute
    await walker.syncAt("09:11", 3_240); // 240 in a minute
    expect(await walker.stats()).toMatchObject({ eligibleMonthSteps: 3_240, pendingMonthSteps: 0 });
    await walker.syncAt("09:15", 6_240); // 3,000 in four minutes: 1,000 is the most
    expect(await walker.stats()).toMatchObject({ eligibleMonthSteps: 4_240, pendingMonthSteps: 2_000 });
    // A later burst adds to the same waiting review.
    await walker.syncAt("09:16", 7_240);
    expect(await walker.stats()).toMatchObject({ eligibleMonthSteps: 4_490, pendingMonthSteps: 2_750 });
    expect((await paceReviewOf(walker.user.id))?.steps).toBe(2_750);
  });

  it("never holds a day replayed late for its pace: a week offline is judged by the whole day's pace", async () => {
    const walker = await newWalker();
    await walker.syncAt("12:00", 30_000, "device_motion", "2026-11-14");
    await walker.syncAt("12:00", 25_000, "apple_health", "2026-11-15");
    expect(await paceReviewOf(walker.user.id)).toBeUndefined();
    // The days are late, though: the late-day rule counts 10,000 of each at once.
    expect(await walker.stats()).toMatchObject({
      monthlySteps: 55_000,
      eligibleMonthSteps: 2 * LATE_DAY_STEPS_AT_ONCE,
      pendingMonthSteps: 55_000 - 2 * LATE_DAY_STEPS_AT_ONCE,
    });
  });

  it("keeps rejected steps counted and visible, and out of the eligible steps", async () => {
    const walker = await newWalker();
    await walker.syncAt("11:00", 1_000, "apple_health");
    await walker.syncAt("11:01", 9_000, "apple_health");
    const review = await paceReviewOf(walker.user.id);
    expect(review?.steps).toBe(8_000 - PACE_STEPS_PER_MINUTE_MAX);
    const rejected = await operator("POST", operatorReviewPath(review?.id ?? ""), {
      decision: "reject",
      reason: "The count jumped by 8,000 in one minute.",
    });
    expect(rejected.statusCode).toBe(200);
    expect(await walker.stats()).toMatchObject({
      todaySteps: 9_000,
      eligibleMonthSteps: 1_250,
      pendingMonthSteps: 0,
    });
    // The walker sees what was held, and why it does not count.
    expect((await walker.api.get(PACE_REVIEWS_PATH)).json()).toEqual({
      reviews: [
        expect.objectContaining({
          id: review?.id,
          date: TODAY,
          steps: 7_750,
          status: "rejected",
          reasons: [{ code: "pace", message: expect.any(String) }],
          decisionReason: "The count jumped by 8,000 in one minute.",
        }),
      ],
    });
    expect(await walker.notices()).toEqual([
      {
        kind: "entry_reviewed",
        title: "Your steps were not approved",
        body: `Your 7,750 steps counted quickly on Sat 21 Nov were checked and do not count toward prize entries: ${isolated("The count jumped by 8,000 in one minute.")}`,
      },
    ]);
    const other = await newWalker();
    expect((await other.api.get(PACE_REVIEWS_PATH)).json()).toEqual({ reviews: [] });
  });
});
