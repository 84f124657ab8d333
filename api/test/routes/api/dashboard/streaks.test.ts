import {
  ACCOUNT_PREFERENCES_PATH,
  type DashboardStatsResponse,
  type DayString,
} from "@charity-steps/shared-types";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { buildTestApp, createSignedInWalker, dialects, type TestApp } from "../../../helper.js";
import { atMoment, useTestClock } from "../../../support/clock.js";
import { walkedOn } from "../../../support/steps.js";

const at = atMoment;

// Walkers sign in at a fixed moment (21 November 2026), so that their sessions outlive every moment
// the tests move the clock to, whatever day the tests run on.
useTestClock();

describe.each(dialects)("goals and streaks on the dashboard (%s)", (dialect) => {
  let testApp: TestApp;
  beforeAll(async () => {
    testApp = await buildTestApp(dialect);
  });
  afterAll(async () => testApp?.close());

  /** The walker's phone counted `steps` on `day`, synced that evening. */
  const walked = (userId: string, day: DayString, steps: number) => walkedOn(testApp.app, userId, day, steps);
  const stats = (cookie: string) =>
    testApp.app
      .inject({ method: "GET", url: "/api/dashboard/stats", headers: { cookie } })
      .then((response) => response.json<DashboardStatsResponse>());
  const setGoal = (cookie: string, dailyGoal: number) =>
    testApp.app.inject({
      method: "PUT",
      url: ACCOUNT_PREFERENCES_PATH,
      headers: { cookie, "content-type": "application/json" },
      payload: JSON.stringify({ dailyGoal }),
    });

  it("runs across the night the clocks go forward, and today counts once its goal is reached", async () => {
    const walker = await createSignedInWalker(testApp.app, "Spring");
    // 29 March 2026 has 23 hours in London.
    for (const day of ["2026-03-27", "2026-03-28", "2026-03-29", "2026-03-30"]) {
      await walked(walker.user.id, day, 10_000);
    }
    // The morning after, nothing walked yet: yesterday's run stands, today does not break it.
    const morning = await at("2026-03-31T08:00:00Z", () => stats(walker.cookie));
    expect(morning).toMatchObject({
      date: "2026-03-31",
      dailyGoal: 10_000,
      todayOnGoal: false,
      streak: { current: 4, best: 4 },
    });
    await walked(walker.user.id, "2026-03-31", 10_400);
    const evening = await at("2026-03-31T19:00:00Z", () => stats(walker.cookie));
    expect(evening).toMatchObject({ todayOnGoal: true, streak: { current: 5, best: 5 } });
    // A day missed ends it: two days on, the run is gone, the best is kept.
    const later = await at("2026-04-02T10:00:00Z", () => stats(walker.cookie));
    expect(later).toMatchObject({ date: "2026-04-02", todayOnGoal: false, streak: { current: 0, best: 5 } });
  });

  it("judges each day by the goal it had, across a month's end and the night the clocks go back", async () => {
    const walker = await createSignedInWalker(testApp.app, "Autumn");
    // An earlier run of three: the best until the run below passes it.
    for (const day of ["2026-10-01", "2026-10-02", "2026-10-03"]) await walked(walker.user.id, day, 12_000);
    // 25 October has 25 hours. Before a goal of their own, 10,000 was the goal: 9,000 falls short.
    await walked(walker.user.id, "2026-10-24", 10_000);
    await walked(walker.user.id, "2026-10-25", 9_000);
    await walked(walker.user.id, "2026-10-26", 10_000);
    await walked(walker.user.id, "2026-10-27", 10_000);
    expect((await at("2026-10-27T21:00:00Z", () => setGoal(walker.cookie, 8_000))).statusCode).toBe(200);
    // The goal counts from the day it was set on: from the 28th, 8,000 or more keeps the run.
    await walked(walker.user.id, "2026-10-28", 8_200);
    await walked(walker.user.id, "2026-10-29", 8_000);
    await walked(walker.user.id, "2026-10-30", 9_000);
    await walked(walker.user.id, "2026-10-31", 8_000);
    const first = await at("2026-11-01T09:00:00Z", () => stats(walker.cookie));
    expect(first).toMatchObject({
      date: "2026-11-01",
      dailyGoal: 8_000,
      todayOnGoal: false,
      streak: { current: 6, best: 6 },
    });
    // A higher goal from today: 9,000 today falls short of 12,000, and the run waits on yesterday.
    await at("2026-11-01T10:00:00Z", () => setGoal(walker.cookie, 12_000));
    await walked(walker.user.id, "2026-11-01", 9_000);
    const short = await at("2026-11-01T21:00:00Z", () => stats(walker.cookie));
    expect(short).toMatchObject({ dailyGoal: 12_000, todayOnGoal: false, streak: { current: 6, best: 6 } });
  });

  it("starts every walker at the default goal with no streak", async () => {
    const walker = await createSignedInWalker(testApp.app, "Fresh");
    const fresh = await at("2026-11-21T12:00:00Z", () => stats(walker.cookie));
    expect(fresh).toMatchObject({ dailyGoal: 10_000, todayOnGoal: false, streak: { current: 0, best: 0 } });
  });
});
