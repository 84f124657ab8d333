import {
  ACCOUNT_PREFERENCES_PATH,
  type DayString,
  WEEK_SUMMARY_PATH,
  type WeekSummaryResponse,
} from "@charity-steps/shared-types";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { buildTestApp, createSignedInWalker, dialects, type TestApp } from "../../../helper.js";
import { useTestClock } from "../../../support/clock.js";
import { shiftDate } from "../../../support/shifted-date.js";
import { walkedOn } from "../../../support/steps.js";

// Walkers sign in at a fixed moment (21 November 2026), so that their sessions outlive every moment
// the tests move the clock to, whatever day the tests run on.
useTestClock();

describe.each(dialects)("the week, looked back on (%s)", (dialect) => {
  let testApp: TestApp;
  beforeAll(async () => {
    testApp = await buildTestApp(dialect);
  });
  afterAll(async () => testApp?.close());

  const walked = (userId: string, day: DayString, steps: number) => walkedOn(testApp.app, userId, day, steps);
  const week = (cookie: string, start: string) =>
    testApp.app.inject({ method: "GET", url: `${WEEK_SUMMARY_PATH}?start=${start}`, headers: { cookie } });

  it("adds up the week, counts days on each day's own goal, and compares with the week before", async () => {
    const walker = await createSignedInWalker(testApp.app, "Weekly");
    // The week before (16-22 November): 30,000.
    await walked(walker.user.id, "2026-11-16", 20_000);
    await walked(walker.user.id, "2026-11-22", 10_000);
    // The week of Monday 23 November, with a goal of 8,000 from the Wednesday.
    await walked(walker.user.id, "2026-11-23", 10_500);
    await walked(walker.user.id, "2026-11-24", 9_000);
    const restore = shiftDate(Date.parse("2026-11-25T08:00:00Z") - Date.now());
    try {
      const goal = await testApp.app.inject({
        method: "PUT",
        url: ACCOUNT_PREFERENCES_PATH,
        headers: { cookie: walker.cookie, "content-type": "application/json" },
        payload: JSON.stringify({ dailyGoal: 8_000 }),
      });
      expect(goal.statusCode).toBe(200);
    } finally {
      restore();
    }
    await walked(walker.user.id, "2026-11-25", 8_000);
    await walked(walker.user.id, "2026-11-27", 12_810);
    await walked(walker.user.id, "2026-11-29", 12_000);
    // The Monday after: not this week's.
    await walked(walker.user.id, "2026-11-30", 30_000);

    const response = await week(walker.cookie, "2026-11-23");
    expect(response.statusCode).toBe(200);
    expect(response.json<WeekSummaryResponse>()).toEqual({
      start: "2026-11-23",
      steps: 52_310,
      // The 23rd (10,000 then), the 25th, 27th and 29th (8,000 from the 25th); not the 24th.
      daysOnGoal: 4,
      bestDay: { date: "2026-11-27", steps: 12_810 },
      previousWeekSteps: 30_000,
    });
  });

  it("answers a week with nothing as nothing", async () => {
    const walker = await createSignedInWalker(testApp.app, "Quiet");
    expect((await week(walker.cookie, "2026-03-30")).json()).toEqual({
      start: "2026-03-30",
      steps: 0,
      daysOnGoal: 0,
      bestDay: { date: "2026-03-30", steps: 0 },
      previousWeekSteps: 0,
    });
  });

  it("answers a week that ended before the walker's account began as nothing, and the week they joined in as their first", async () => {
    // Joined on Saturday 21 November 2026, bringing their phone's last fortnight with them.
    const walker = await createSignedInWalker(testApp.app, "Newcomer");
    await walked(walker.user.id, "2026-11-10", 6_000);
    await walked(walker.user.id, "2026-11-17", 4_000);
    expect((await week(walker.cookie, "2026-11-09")).json()).toEqual({
      start: "2026-11-09",
      steps: 0,
      daysOnGoal: 0,
      bestDay: { date: "2026-11-09", steps: 0 },
      previousWeekSteps: 0,
    });
    expect((await week(walker.cookie, "2026-11-16")).json()).toEqual({
      start: "2026-11-16",
      steps: 4_000,
      daysOnGoal: 0,
      bestDay: { date: "2026-11-17", steps: 4_000 },
      // The week before was over before the account began: it is not compared with.
      previousWeekSteps: 0,
    });
  });

  it.each(["2026-11-24", "2026-11-29", "2026-02-30", "2026-11-2", "monday"])(
    "refuses a start of %s with a 400",
    async (start) => {
      const walker = await createSignedInWalker(testApp.app, "Wrong");
      const response = await week(walker.cookie, start);
      expect(response.statusCode).toBe(400);
      expect(response.json().message).toMatch(/^start must be a (Monday|date, YYYY-MM-DD)/);
    },
  );

  it("refuses a Monday whose week ends after the year 9999, and answers a week of the year 50", async () => {
    const walker = await createSignedInWalker(testApp.app, "Far");
    const last = await week(walker.cookie, "9999-12-27");
    expect(last.statusCode).toBe(400);
    expect(last.json().message).toBe("start must be 9999-12-20 or earlier.");
    expect((await week(walker.cookie, "9999-12-20")).statusCode).toBe(200);
    // 3 January 50 was a Monday: a real date, not the 1950 that Date.UTC reads.
    const ancient = await week(walker.cookie, "0050-01-03");
    expect(ancient.statusCode).toBe(200);
    expect(ancient.json()).toMatchObject({ start: "0050-01-03", steps: 0 });
  });

  it("is the walker's own", async () => {
    expect(
      (await testApp.app.inject({ method: "GET", url: `${WEEK_SUMMARY_PATH}?start=2026-11-23` })).statusCode,
    ).toBe(401);
  });
});
