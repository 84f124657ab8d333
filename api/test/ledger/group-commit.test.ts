import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import type { CounterReading } from "../../src/ledger/ledger.js";
import { buildTestApp, createSignedInWalker, dialects, type TestApp } from "../helper.js";
import { TEST_TODAY, useTestClock } from "../support/clock.js";

useTestClock();

/** Syncs that arrive together are written together: what each walker gets back and keeps. */
describe.each(dialects)("step syncs written in groups (%s)", (dialect) => {
  let testApp: TestApp;
  beforeAll(async () => {
    testApp = await buildTestApp(dialect);
  });
  afterAll(async () => {
    await testApp.close();
    vi.restoreAllMocks();
  });

  const reading = (userId: string, steps: number, device = "phone"): CounterReading => ({
    userId,
    day: TEST_TODAY,
    counterId: `device:${device}`,
    kind: "motion",
    source: "device_motion",
    steps,
  });
  const storedDay = async (userId: string) =>
    (
      await testApp.app.database.db
        .selectFrom("step_days")
        .select("total_steps")
        .where("user_id", "=", userId)
        .where("day", "=", TEST_TODAY)
        .executeTakeFirst()
    )?.total_steps;

  it("answers each of 40 walkers syncing at once with their own totals, in fewer groups", async () => {
    const walkers = await Promise.all(
      Array.from({ length: 40 }, (_, index) => createSignedInWalker(testApp.app, `Walker${index}`)),
    );
    const transactions = vi.spyOn(testApp.app.database, "sqliteTransaction");
    const { ledger: steps } = testApp.app.repositories;
    const groups = vi.spyOn(steps as unknown as { recordCounts: () => Promise<unknown> }, "recordCounts");

    const answers = await Promise.all(
      walkers.map(({ user }, index) => steps.recordCount(reading(user.id, 1_000 + index))),
    );

    expect(answers.map((answer) => answer.daySteps)).toEqual(walkers.map((_, index) => 1_000 + index));
    expect(answers.map((answer) => answer.monthlySteps)).toEqual(walkers.map((_, index) => 1_000 + index));
    for (const [index, { user }] of walkers.entries()) expect(await storedDay(user.id)).toBe(1_000 + index);
    expect(groups.mock.calls.length).toBeLessThan(walkers.length);
    // SQLite writes each group in a transaction of its own; PostgreSQL in one statement, atomic on its own.
    expect(transactions.mock.calls.length).toBe(dialect === "sqlite" ? groups.mock.calls.length : 0);
    transactions.mockRestore();
    groups.mockRestore();
  });

  it("adds one walker's devices and keeps the larger count of one device, within one group", async () => {
    const { user } = await createSignedInWalker(testApp.app, "Many");
    const { ledger: steps } = testApp.app.repositories;

    const answers = await Promise.all([
      steps.recordCount(reading(user.id, 3_000, "phone")),
      steps.recordCount(reading(user.id, 5_000, "phone")),
      steps.recordCount(reading(user.id, 4_000, "phone")),
      steps.recordCount(reading(user.id, 2_000, "watch")),
    ]);

    // All four were stored before any answer: each answer is the day after the whole group.
    expect(answers.map((answer) => answer.daySteps)).toEqual([7_000, 7_000, 7_000, 7_000]);
    expect(await storedDay(user.id)).toBe(7_000);
  });

  it("says whether each reading's day rose: not for a replay or a lower count alone, and for every reading of a day that rose in its group", async () => {
    const [walker, other] = await Promise.all([
      createSignedInWalker(testApp.app, "Rising"),
      createSignedInWalker(testApp.app, "Still"),
    ]);
    const { ledger } = testApp.app.repositories;
    const raised = async (steps: number) => (await ledger.recordCount(reading(walker.user.id, steps))).raised;

    expect(await raised(4_000)).toBe(true);
    expect(await raised(4_000)).toBe(false);
    expect(await raised(3_000)).toBe(false);
    expect((await ledger.recordCount(reading(other.user.id, 1_000))).raised).toBe(true);

    const group = await Promise.all([
      // Lower than the phone's 4,000, but the watch raises the same day in the same group.
      ledger.recordCount(reading(walker.user.id, 3_500, "phone")),
      ledger.recordCount(reading(walker.user.id, 500, "watch")),
      ledger.recordCount(reading(other.user.id, 1_000)),
    ]);
    expect(group.map((answer) => [answer.daySteps, answer.raised])).toEqual([
      [4_500, true],
      [4_500, true],
      [1_000, false],
    ]);
  });

  it("fails only the sync at fault when one of a group cannot be stored", async () => {
    const walkers = await Promise.all(
      Array.from({ length: 5 }, (_, index) => createSignedInWalker(testApp.app, `Fine${index}`)),
    );
    const { ledger: steps } = testApp.app.repositories;

    const outcomes = await Promise.allSettled([
      ...walkers.map(({ user }) => steps.recordCount(reading(user.id, 2_500))),
      // A walker who no longer exists (their account was deleted mid-sync): the foreign key refuses it.
      steps.recordCount(reading("no-such-walker", 2_500)),
    ]);

    expect(outcomes.map((outcome) => outcome.status)).toEqual([
      "fulfilled",
      "fulfilled",
      "fulfilled",
      "fulfilled",
      "fulfilled",
      "rejected",
    ]);
    for (const { user } of walkers) expect(await storedDay(user.id)).toBe(2_500);
    expect(await storedDay("no-such-walker")).toBeUndefined();
  });
});
