import { ACCOUNT_PREFERENCES_PATH, type PreferencesResponse } from "@charity-steps/shared-types";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { buildTestApp, createSignedInWalker, dialects, type TestApp } from "../../../helper.js";
import { TEST_NOW, TEST_TODAY, useTestClock } from "../../../support/clock.js";

useTestClock();

describe.each(dialects)("a walker's preferences (%s)", (dialect) => {
  let testApp: TestApp;
  beforeAll(async () => {
    testApp = await buildTestApp(dialect);
  });
  afterAll(async () => testApp?.close());

  const put = (cookie: string, payload: unknown) =>
    testApp.app.inject({
      method: "PUT",
      url: ACCOUNT_PREFERENCES_PATH,
      headers: { cookie, "content-type": "application/json" },
      payload: JSON.stringify(payload),
    });
  const get = async (cookie: string) =>
    (
      await testApp.app.inject({ method: "GET", url: ACCOUNT_PREFERENCES_PATH, headers: { cookie } })
    ).json<PreferencesResponse>();
  const goalRows = (userId: string) =>
    testApp.app.database.db
      .selectFrom("daily_goals")
      .select(["from_day", "goal"])
      .where("user_id", "=", userId)
      .execute();

  it("start at a 10,000-step goal, the system's theme, and not yet welcomed", async () => {
    const walker = await createSignedInWalker(testApp.app, "New");
    expect(await get(walker.cookie)).toEqual({
      dailyGoal: 10_000,
      theme: "system",
      onboardedAt: null,
      weeklyEmail: true,
    });
    const me = await testApp.app.inject({
      method: "GET",
      url: "/api/auth/user",
      headers: { cookie: walker.cookie },
    });
    expect(me.json()).toMatchObject({ theme: "system", onboardedAt: null });
  });

  it("take a goal from today on, a theme, and the welcome's end, which keeps its first time", async () => {
    const walker = await createSignedInWalker(testApp.app, "Goal");
    const saved = await put(walker.cookie, { dailyGoal: 8_000, theme: "dark", onboarded: true });
    expect(saved.statusCode).toBe(200);
    const first = saved.json<PreferencesResponse>();
    expect(first).toMatchObject({ dailyGoal: 8_000, theme: "dark" });
    expect(Date.parse(first.onboardedAt ?? "")).toBeGreaterThanOrEqual(TEST_NOW.getTime());
    expect(await goalRows(walker.user.id)).toEqual([{ from_day: TEST_TODAY, goal: 8_000 }]);

    // A second goal the same day replaces the first; the welcome keeps the time it was first done.
    const again = (
      await put(walker.cookie, { dailyGoal: 12_500, onboarded: true })
    ).json<PreferencesResponse>();
    expect(again).toEqual({
      dailyGoal: 12_500,
      theme: "dark",
      onboardedAt: first.onboardedAt,
      weeklyEmail: true,
    });
    expect(await goalRows(walker.user.id)).toEqual([{ from_day: TEST_TODAY, goal: 12_500 }]);
    const me = await testApp.app.inject({
      method: "GET",
      url: "/api/auth/user",
      headers: { cookie: walker.cookie },
    });
    expect(me.json()).toMatchObject({ theme: "dark", onboardedAt: first.onboardedAt });
  });

  it.each([
    ["below 2,000", 1_500],
    ["above 30,000", 30_500],
    ["not a step of 500", 8_250],
    ["not whole", 8_000.5],
    ["text", "8000"],
    ["nothing", null],
  ])("refuse a goal %s with a 400 that says the range, and change nothing", async (_, dailyGoal) => {
    const walker = await createSignedInWalker(testApp.app, "Bounds");
    await put(walker.cookie, { dailyGoal: 9_000 });
    const refused = await put(walker.cookie, { dailyGoal, theme: "light" });
    expect(refused.statusCode).toBe(400);
    expect(refused.json().message).toBe(
      "dailyGoal must be a whole number of steps from 2,000 to 30,000, in steps of 500.",
    );
    expect(await get(walker.cookie)).toMatchObject({ dailyGoal: 9_000, theme: "system" });
  });

  it("accept the goal's bounds themselves", async () => {
    const walker = await createSignedInWalker(testApp.app, "Edges");
    expect((await put(walker.cookie, { dailyGoal: 2_000 })).json().dailyGoal).toBe(2_000);
    expect((await put(walker.cookie, { dailyGoal: 30_000 })).json().dailyGoal).toBe(30_000);
  });

  it.each([
    [{ theme: "purple" }, "theme must be one of"],
    [{}, "The request body must have at least 1 field."],
    [{ colour: "teal" }, "colour is not a field this request takes."],
    [{ onboarded: false }, "onboarded must be true."],
    [{ weeklyEmail: "yes" }, "weeklyEmail must be"],
  ])("refuse %j with a 400 naming what is wrong", async (payload, message) => {
    const walker = await createSignedInWalker(testApp.app, "Wrong");
    const refused = await put(walker.cookie, payload);
    expect(refused.statusCode).toBe(400);
    expect(refused.json().message).toContain(message);
    expect(await get(walker.cookie)).toEqual({
      dailyGoal: 10_000,
      theme: "system",
      onboardedAt: null,
      weeklyEmail: true,
    });
  });

  it("are nobody's but the walker's", async () => {
    expect((await testApp.app.inject({ method: "GET", url: ACCOUNT_PREFERENCES_PATH })).statusCode).toBe(401);
    const response = await testApp.app.inject({
      method: "PUT",
      url: ACCOUNT_PREFERENCES_PATH,
      headers: { "content-type": "application/json" },
      payload: JSON.stringify({ dailyGoal: 8_000 }),
    });
    expect(response.statusCode).toBe(401);
  });
});
