import { setTimeout as sleep } from "node:timers/promises";
import {
  FAIR_PLAY_MESSAGES,
  MANUAL_ENTRIES_PATH,
  OPERATOR_AUDIT_LOG_PATH,
  OPERATOR_REVIEWS_PATH,
  operatorReviewPath,
  REVIEW_HISTORY_DAYS,
  type ReviewItem,
} from "@charity-steps/shared-types";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { buildTestApp, dialects, type TestApp } from "../../../helper.js";
import { TEST_TODAY, useTestClock } from "../../../support/clock.js";
import { OPERATOR_EMAIL, OPERATOR_ENV, walkerWithEmail } from "../../../support/operators.js";
import { manualForm, photo, stepsClient } from "../../../support/steps.js";

describe.each(dialects)("the review queue (%s)", (dialect) => {
  useTestClock();
  let testApp: TestApp;
  let operator: Awaited<ReturnType<typeof walkerWithEmail>>;
  beforeAll(async () => {
    testApp = await buildTestApp(dialect, OPERATOR_ENV);
    operator = await walkerWithEmail(testApp.app, OPERATOR_EMAIL, true);
  });
  afterAll(async () => {
    await testApp.close();
  });

  const today = TEST_TODAY;
  const asOperator = (method: "GET" | "POST", url: string, payload?: unknown) =>
    testApp.app.inject({
      method,
      url,
      headers: { cookie: operator.cookie, ...(payload ? { "content-type": "application/json" } : {}) },
      ...(payload ? { payload: JSON.stringify(payload) } : {}),
    });

  /** A walker who walked `synced` steps today and sent an entry whose photo says nothing of its day. */
  const walkerWithHeldEntry = async (email: string, synced: number, manual: number, colour: number) => {
    const walker = await walkerWithEmail(testApp.app, email, true);
    const api = stepsClient(testApp.app, walker.cookie);
    // Stored as at the end of today: the pace rule judges a day's first count against the time since
    // midnight, so a few thousand steps synced just after midnight would be held too.
    await testApp.app.repositories.ledger.recordCount(
      {
        userId: walker.user.id,
        day: today,
        counterId: "device:review",
        kind: "motion",
        source: "device_motion",
        steps: synced,
      },
      Date.parse(`${today}T23:00:00Z`),
    );
    const response = await api.addManual(
      manualForm({ steps: String(manual), date: today }, { bytes: await photo("png", 60 + colour, 40) }),
    );
    expect(response.statusCode, response.body).toBe(201);
    const { entry } = response.json();
    expect(entry.status).toBe("pending");
    return { ...walker, api, entry, stats: async () => (await api.get("/api/dashboard/stats")).json() };
  };

  it("shows operators what waits, oldest first, with why, the photo and the walker's latest days; walkers find nothing", async () => {
    const ana = await walkerWithHeldEntry("ana.queue@example.org", 3_000, 8_000, 0);
    await sleep(5);
    const ben = await walkerWithHeldEntry("ben.queue@example.org", 1_000, 2_000, 7);

    const queue = await asOperator("GET", OPERATOR_REVIEWS_PATH);
    expect(queue.statusCode).toBe(200);
    const { reviews, truncated } = queue.json() as { reviews: ReviewItem[]; truncated: boolean };
    expect(truncated).toBe(false);
    expect(reviews.map((review) => review.id)).toEqual([ana.entry.id, ben.entry.id]);
    const [first] = reviews;
    expect(first).toMatchObject({
      kind: "manual",
      status: "pending",
      userId: ana.user.id,
      walkerName: "Olive Operator",
      walkerEmail: "ana.queue@example.org",
      date: today,
      steps: 8_000,
      reasons: [{ code: "capture-date-missing" }],
      decisionReason: null,
    });
    expect(first?.recentDays).toHaveLength(REVIEW_HISTORY_DAYS);
    expect(first?.recentDays.at(-1)).toEqual({ date: today, steps: 11_000 });

    const image = await asOperator("GET", first?.photoUrl ?? "");
    expect(image.statusCode).toBe(200);
    expect(image.headers["content-type"]).toMatch(/^image\//);
    expect(image.headers["cache-control"]).toBe("no-store");

    // A walker (even the one whose entry it is) finds no such route.
    expect((await ana.api.get(OPERATOR_REVIEWS_PATH)).statusCode).toBe(404);
    expect((await ana.api.post(operatorReviewPath(ana.entry.id), { decision: "approve" })).statusCode).toBe(
      404,
    );
  });

  it("moves prize entries only on approval; a rejected entry stays counted and visible, with its reason, never eligible", async () => {
    const cara = await walkerWithHeldEntry("cara.review@example.org", 6_000, 7_000, 14);
    expect(await cara.stats()).toMatchObject({
      monthlySteps: expect.any(Number),
      pendingMonthSteps: 7_000,
    });
    const before = await cara.stats();
    expect(before.eligibleMonthSteps).toBe(before.monthlySteps - 7_000);

    const approved = await asOperator("POST", operatorReviewPath(cara.entry.id), { decision: "approve" });
    expect(approved.statusCode, approved.body).toBe(200);
    expect(approved.json()).toMatchObject({ id: cara.entry.id, status: "approved", decisionReason: null });
    const after = await cara.stats();
    expect(after).toMatchObject({
      monthlySteps: before.monthlySteps,
      eligibleMonthSteps: before.monthlySteps,
      pendingMonthSteps: 0,
    });
    expect(after.prizeEntries).toBeGreaterThan(before.prizeEntries);
    // Decided once: a second decision changes nothing.
    const again = await asOperator("POST", operatorReviewPath(cara.entry.id), {
      decision: "reject",
      reason: "No",
    });
    expect(again.statusCode).toBe(409);
    expect(again.json()).toEqual({ message: FAIR_PLAY_MESSAGES.alreadyDecided });

    const dan = await walkerWithHeldEntry("dan.review@example.org", 2_000, 9_000, 21);
    const noReason = await asOperator("POST", operatorReviewPath(dan.entry.id), { decision: "reject" });
    expect(noReason.statusCode).toBe(400);
    expect(noReason.json()).toEqual({ message: FAIR_PLAY_MESSAGES.reasonRequired });
    const reason = "The photo shows a treadmill screen from another day.";
    const rejected = await asOperator("POST", operatorReviewPath(dan.entry.id), {
      decision: "reject",
      reason,
    });
    expect(rejected.statusCode).toBe(200);
    expect(await dan.stats()).toMatchObject({
      todaySteps: 11_000,
      eligibleMonthSteps: 2_000,
      pendingMonthSteps: 0,
      prizeEntries: 0,
    });
    const list = (await dan.api.get(MANUAL_ENTRIES_PATH)).json();
    expect(list.entries).toEqual([
      expect.objectContaining({ id: dan.entry.id, status: "rejected", decisionReason: reason }),
    ]);
    // Out of the queue, both of them.
    const queue = (await asOperator("GET", OPERATOR_REVIEWS_PATH)).json() as { reviews: ReviewItem[] };
    expect(queue.reviews.map((review) => review.id)).not.toContain(dan.entry.id);
    expect(queue.reviews.map((review) => review.id)).not.toContain(cara.entry.id);

    // Both decisions are in the audit log, by this operator.
    const log = (await asOperator("GET", OPERATOR_AUDIT_LOG_PATH)).json().entries as {
      action: string;
      subject: string;
      operatorUserId: string;
      after: unknown;
    }[];
    expect(log.filter((entry) => entry.action.startsWith("review."))).toEqual([
      expect.objectContaining({
        action: "review.reject",
        subject: `manual-entry:${dan.entry.id}`,
        operatorUserId: operator.user.id,
        after: { status: "rejected", reason },
      }),
      expect.objectContaining({
        action: "review.approve",
        subject: `manual-entry:${cara.entry.id}`,
        after: { status: "approved", reason: null },
      }),
    ]);
  });

  it("answers an unknown review 404", async () => {
    const unknown = await asOperator("POST", operatorReviewPath("00000000-0000-4000-8000-000000000000"), {
      decision: "approve",
    });
    expect(unknown.statusCode).toBe(404);
    expect(unknown.json()).toEqual({ message: FAIR_PLAY_MESSAGES.noSuchReview });
  });
});
