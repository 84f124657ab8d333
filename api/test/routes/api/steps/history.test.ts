import {
  ACCOUNT_PREFERENCES_PATH,
  addDays,
  STEP_HISTORY_DAYS_MAX,
  STEP_HISTORY_PATH,
  type StepHistoryResponse,
} from "@charity-steps/shared-types";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { buildTestApp, createSignedInWalker, dialects, type TestApp } from "../../../helper.js";
import { TEST_TODAY, useTestClock } from "../../../support/clock.js";
import { manualForm, photo, stepsClient, walkedOn } from "../../../support/steps.js";

useTestClock();

describe.each(dialects)("a walker's step history (%s)", (dialect) => {
  let testApp: TestApp;
  beforeAll(async () => {
    testApp = await buildTestApp(dialect);
  });
  afterAll(async () => testApp?.close());

  it("answers the days asked for, today the last, each with where its steps came from", async () => {
    const walker = await createSignedInWalker(testApp.app, "History");
    const api = stepsClient(testApp.app, walker.cookie);
    const yesterday = addDays(TEST_TODAY, -1);
    await walkedOn(testApp.app, walker.user.id, yesterday, 6_000);
    await testApp.app.repositories.ledger.recordCount({
      userId: walker.user.id,
      day: yesterday,
      counterId: "health:apple_health",
      kind: "health",
      source: "apple_health",
      steps: 7_500,
    });
    const added = await api.addManual(
      manualForm({ steps: "2500", date: yesterday }, { bytes: await photo("jpeg") }),
    );
    expect(added.statusCode).toBe(201);
    // A day a year ago, the first of 366.
    await walkedOn(testApp.app, walker.user.id, addDays(TEST_TODAY, -365), 4_321);

    const week = await api.get(`${STEP_HISTORY_PATH}?days=7`);
    expect(week.statusCode).toBe(200);
    const { days } = week.json<StepHistoryResponse>();
    expect(days.map((day) => day.date)).toEqual(
      Array.from({ length: 7 }, (_, index) => addDays(TEST_TODAY, index - 6)),
    );
    // The larger of the phone's and Apple Health's counts, plus the steps added by hand (waiting).
    expect(days.at(-2)).toMatchObject({
      date: yesterday,
      steps: 10_000,
      motionSteps: 6_000,
      healthSteps: 7_500,
      manualSteps: 2_500,
      pendingSteps: 2_500,
    });
    expect(days.at(-1)).toEqual({
      date: TEST_TODAY,
      steps: 0,
      motionSteps: 0,
      healthSteps: 0,
      manualSteps: 0,
      goal: 10_000,
    });

    const year = (
      await api.get(`${STEP_HISTORY_PATH}?days=${STEP_HISTORY_DAYS_MAX}`)
    ).json<StepHistoryResponse>();
    expect(year.days).toHaveLength(366);
    expect(year.days[0]).toMatchObject({ date: addDays(TEST_TODAY, -365), steps: 4_321, motionSteps: 4_321 });
    // Without `days`, the last 30, as the dashboard always had.
    expect((await api.get(STEP_HISTORY_PATH)).json<StepHistoryResponse>().days).toHaveLength(30);
  });

  it("gives each day the goal it had: a goal raised today leaves the days before it alone", async () => {
    const walker = await createSignedInWalker(testApp.app, "Goals");
    const api = stepsClient(testApp.app, walker.cookie);
    expect((await api.put(ACCOUNT_PREFERENCES_PATH, { dailyGoal: 12_000 })).statusCode).toBe(200);
    const { days } = (await api.get(`${STEP_HISTORY_PATH}?days=3`)).json<StepHistoryResponse>();
    expect(days.map((day) => day.goal)).toEqual([10_000, 10_000, 12_000]);
  });

  it("refuses a number of days it cannot answer with a 400 that says the range", async () => {
    const walker = await createSignedInWalker(testApp.app, "Bounds");
    const api = stepsClient(testApp.app, walker.cookie);
    // Ajv alone would read "0x10" as 16, "1e2" as 100 and "Infinity" as a number.
    for (const days of ["0", "367", "1.5", "-3", "a-year", "1e9", "0x10", "1e2", "Infinity", " 7"]) {
      const response = await api.get(`${STEP_HISTORY_PATH}?days=${days}`);
      expect(response.statusCode, days).toBe(400);
      expect(response.json<{ message: string }>().message, days).toBe(
        "days must be a whole number of days from 1 to 366.",
      );
    }
    expect((await api.get(`${STEP_HISTORY_PATH}?days=7&from=2020-01-01`)).statusCode).toBe(400);
  });
});
