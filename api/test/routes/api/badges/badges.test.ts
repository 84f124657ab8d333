import { addDays, BADGES_PATH, type BadgesResponse, type DayString } from "@charity-steps/shared-types";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { AWARD_DELAY_MS, LOOK_BATCH_MAX, LOOKS_AT_ONCE } from "../../../../src/badges/badge-awards.js";
import { buildTestApp, createSignedInWalker, dialects, type TestApp } from "../../../helper.js";
import { atMoment, useTestClock } from "../../../support/clock.js";
import { warningsWhile, watchNoticesRecorded } from "../../../support/notices.js";
import { meanwhileAfterReading } from "../../../support/races.js";
import { stepsClient, walkedOn } from "../../../support/steps.js";

// Walkers sign in at a fixed moment (21 November 2026), whatever day the tests run on.
useTestClock();

const BASE_NAMES = [
  "First 10,000-step day",
  "3-day streak",
  "7-day streak",
  "30-day streak",
  "100,000 steps in a month",
  "1,000,000 steps",
  "First prize entry",
  "Joined a group",
];

describe.each(dialects)("badges (%s)", (dialect) => {
  let testApp: TestApp;
  beforeAll(async () => {
    testApp = await buildTestApp(dialect);
  });
  afterAll(async () => testApp?.close());

  const walked = (userId: string, day: DayString, steps: number) => walkedOn(testApp.app, userId, day, steps);
  const badges = async (cookie: string) => {
    const response = await testApp.app.inject({ method: "GET", url: BADGES_PATH, headers: { cookie } });
    expect(response.statusCode).toBe(200);
    return response.json<BadgesResponse>().items;
  };
  /** Each earned badge's name, with the minute it was earned (the clock runs on from where a test puts it). */
  const earned = (items: BadgesResponse["items"]) =>
    Object.fromEntries(
      items
        .filter((badge) => badge.earnedAt !== null)
        .map((badge) => [badge.name, badge.earnedAt?.slice(0, 16)]),
    );

  /** The walker's phone syncs its count of `date` (from `device`, when named); the server takes it. */
  const phoneSynced = async (cookie: string, date: DayString, steps: number, device?: string) => {
    const synced = await stepsClient(testApp.app, cookie).sync(
      { steps, date, source: "device_motion" },
      device,
    );
    expect(synced.statusCode).toBe(200);
  };
  /** The badges stored as the walker's, by id, in order. */
  const badgeIds = async (userId: string) =>
    (
      await testApp.app.database.db
        .selectFrom("user_badges")
        .select("badge_id")
        .where("user_id", "=", userId)
        .orderBy("badge_id")
        .execute()
    ).map((row) => row.badge_id);

  it("lists every badge unearned for a new walker, and the charity's once they choose one", async () => {
    const walker = await createSignedInWalker(testApp.app, "New");
    const before = await badges(walker.cookie);
    expect(before.map((badge) => badge.name)).toEqual(BASE_NAMES);
    expect(before.every((badge) => badge.earnedAt === null && badge.description.length > 0)).toBe(true);

    const chose = await stepsClient(testApp.app, walker.cookie).post("/api/charity/select", {
      charityName: "British Heart Foundation",
    });
    expect(chose.statusCode).toBe(200);
    const after = await badges(walker.cookie);
    expect(after.map((badge) => badge.name)).toEqual([...BASE_NAMES, "Walked for British Heart Foundation"]);
    expect(after.at(-1)).toMatchObject({
      id: "walked-for-british-heart-foundation",
      description: "Walk 100,000 steps in a month while supporting British Heart Foundation.",
      earnedAt: null,
    });
  });

  it("awards a badge once, on the day it is reached, and keeps it when the steps are gone", async () => {
    const walker = await createSignedInWalker(testApp.app, "Once");
    // Three days on the default goal of 10,000, the third synced a day late.
    for (const day of ["2026-11-10", "2026-11-11"]) await walked(walker.user.id, day, 10_000);
    const first = await atMoment("2026-11-12T09:00:00Z", () => badges(walker.cookie));
    // Two days of 10,000 are two prize entries too.
    expect(earned(first)).toEqual({
      "First 10,000-step day": "2026-11-12T09:00",
      "First prize entry": "2026-11-12T09:00",
    });

    await walked(walker.user.id, "2026-11-12", 10_500);
    const second = await atMoment("2026-11-13T08:00:00Z", () => badges(walker.cookie));
    expect(earned(second)).toEqual({
      "First 10,000-step day": "2026-11-12T09:00",
      "First prize entry": "2026-11-12T09:00",
      "3-day streak": "2026-11-13T08:00",
    });

    // The days are taken out of the record: what was earned stays, with the time it was earned.
    await testApp.app.database.db.deleteFrom("step_days").where("user_id", "=", walker.user.id).execute();
    const third = await atMoment("2026-11-14T08:00:00Z", () => badges(walker.cookie));
    expect(earned(third)).toEqual(earned(second));
    expect(await badgeIds(walker.user.id)).toEqual([
      "3-day-streak",
      "first-10000-step-day",
      "first-prize-entry",
    ]);
  });

  it("awards a month of 100,000 steps, the charity it was walked for, a prize entry and a million steps", async () => {
    const walker = await createSignedInWalker(testApp.app, "Month");
    await stepsClient(testApp.app, walker.cookie).post("/api/charity/select", {
      charityName: "Cancer Research UK",
    });
    // Twenty days of 25,000 in October (a month of 500,000) and twenty of 25,000 this month.
    for (let offset = 0; offset < 20; offset++) {
      await walked(walker.user.id, addDays("2026-10-01", offset), 25_000);
      await walked(walker.user.id, addDays("2026-11-01", offset), 25_000);
    }
    const items = await badges(walker.cookie);
    const names = Object.keys(earned(items));
    expect(names).toEqual(
      expect.arrayContaining([
        "First 10,000-step day",
        "3-day streak",
        "7-day streak",
        "100,000 steps in a month",
        "1,000,000 steps",
        "First prize entry",
        "Walked for Cancer Research UK",
      ]),
    );
    expect(names).not.toContain("30-day streak");
    expect(names).not.toContain("Joined a group");

    // A new charity: the old one's badge stays on the list, earned.
    await stepsClient(testApp.app, walker.cookie).post("/api/charity/select", {
      charityName: "Crohn's & Colitis UK",
    });
    const after = await badges(walker.cookie);
    expect(after.find((badge) => badge.name === "Walked for Cancer Research UK")?.earnedAt).toBe(
      items.find((badge) => badge.name === "Walked for Cancer Research UK")?.earnedAt,
    );
  });

  it("awards the group badge on joining, kept after leaving", async () => {
    const admin = await createSignedInWalker(testApp.app, "Admin");
    const member = await createSignedInWalker(testApp.app, "Member");
    const created = await stepsClient(testApp.app, admin.cookie).post("/api/groups", {
      name: "Lunch walkers",
    });
    expect(created.statusCode).toBe(201);
    const { id, joinCode } = created.json<{ id: number; joinCode: string }>();
    const member_ = stepsClient(testApp.app, member.cookie);
    expect((await member_.post("/api/groups/join", { joinCode })).statusCode).toBe(201);
    expect((await member_.post(`/api/groups/${id}/leave`)).statusCode).toBeLessThan(300);
    expect(Object.keys(earned(await badges(member.cookie)))).toEqual(["Joined a group"]);
    expect(Object.keys(earned(await badges(admin.cookie)))).toEqual(["Joined a group"]);
  });

  it("looks at a walker's badges a few seconds after their steps arrive, with no read", async () => {
    const walker = await createSignedInWalker(testApp.app, "Synced");
    vi.useFakeTimers({ toFake: ["setTimeout", "clearTimeout"] });
    try {
      await phoneSynced(walker.cookie, "2026-11-21", 10_200);
      vi.advanceTimersByTime(AWARD_DELAY_MS);
    } finally {
      vi.useRealTimers();
    }
    await vi.waitFor(async () =>
      expect(await badgeIds(walker.user.id)).toEqual(["first-10000-step-day", "first-prize-entry"]),
    );
  });

  it("awards nothing to a walker erased while their look reads, and the others of the look their badges", async () => {
    const [staying, leaving] = [
      await createSignedInWalker(testApp.app, "Staying"),
      await createSignedInWalker(testApp.app, "Leaving"),
    ];
    const { badges: badgesRead, accountData } = testApp.app.repositories;
    const erasedMeanwhile = meanwhileAfterReading(badgesRead, "factsOf", leaving.user.id, () =>
      accountData.erase(leaving.user.id, null),
    );
    try {
      await phoneSynced(staying.cookie, "2026-11-21", 10_200);
      await phoneSynced(leaving.cookie, "2026-11-21", 10_200);
      await testApp.app.services.badges.flush();
    } finally {
      erasedMeanwhile.restore();
    }
    expect(erasedMeanwhile.happened()).toBe(true);
    expect(await badgeIds(staying.user.id)).toEqual(["first-10000-step-day", "first-prize-entry"]);
    expect(await badgeIds(leaving.user.id)).toEqual([]);
  });

  it("tells the others of their goal when one walker's notice cannot be stored, and that walker at a later look", async () => {
    const [told, unlucky] = [
      await createSignedInWalker(testApp.app, "Told"),
      await createSignedInWalker(testApp.app, "Unlucky"),
    ];
    const { notifications } = testApp.app.repositories;
    // Until the fault clears, no transaction holding the unlucky walker's notice commits.
    const fault = watchNoticesRecorded(notifications, { refusing: unlucky.user.id });
    let warnings: Awaited<ReturnType<typeof warningsWhile>> = [];
    try {
      warnings = await warningsWhile(testApp.app.log, async () => {
        await phoneSynced(told.cookie, "2026-11-21", 10_200);
        await phoneSynced(unlucky.cookie, "2026-11-21", 10_200);
        await testApp.app.services.badges.flush();
      });
    } finally {
      fault.restore();
    }
    const goalNotices = async (userId: string) =>
      (await notifications.everyOne(userId))
        .filter(({ kind }) => kind === "goal_reached")
        .map(({ event_key }) => event_key);
    expect(await goalNotices(told.user.id)).toEqual(["2026-11-21"]);
    expect(await goalNotices(unlucky.user.id)).toEqual([]);
    // The operator reads who was not told, and that nothing else in the look failed.
    expect(warnings.map(({ fields, message }) => [message, fields.userId])).toEqual([
      ["notification could not be recorded", unlucky.user.id],
    ]);
    // The fault cleared, both walkers' next steps of the day make looks: only the walker left out is
    // told (the one told is remembered, and not even offered again), once.
    const watched = watchNoticesRecorded(notifications);
    try {
      await phoneSynced(unlucky.cookie, "2026-11-21", 10_400);
      await phoneSynced(told.cookie, "2026-11-21", 10_400);
      await testApp.app.services.badges.flush();
    } finally {
      watched.restore();
    }
    expect(watched.offered).toEqual([unlucky.user.id]);
    expect(await goalNotices(unlucky.user.id)).toEqual(["2026-11-21"]);
    expect(await goalNotices(told.user.id)).toEqual(["2026-11-21"]);
  });

  it("logs a look whose read of the walkers' goals failed once, and judges the walker at their next look", async () => {
    const walker = await createSignedInWalker(testApp.app, "Unread");
    const { habits } = testApp.app.repositories;
    const failing = vi
      .spyOn(habits, "goalsOf")
      .mockRejectedValueOnce(new Error("the disk could not be read"));
    let warnings: Awaited<ReturnType<typeof warningsWhile>> = [];
    try {
      warnings = await warningsWhile(testApp.app.log, async () => {
        await phoneSynced(walker.cookie, "2026-11-21", 10_200);
        await testApp.app.services.badges.flush();
      });
    } finally {
      failing.mockRestore();
    }
    // One read failed: one warning, for the look's one walker, and nothing awarded or told.
    expect(warnings.map(({ fields, message }) => [message, fields.walkers])).toEqual([
      ["looks: the walkers' goals and days could not be read", 1],
    ]);
    const goalNotices = async () =>
      (await testApp.app.repositories.notifications.everyOne(walker.user.id))
        .filter(({ kind }) => kind === "goal_reached")
        .map(({ event_key }) => event_key);
    expect(await badgeIds(walker.user.id)).toEqual([]);
    expect(await goalNotices()).toEqual([]);
    await phoneSynced(walker.cookie, "2026-11-21", 10_400);
    await testApp.app.services.badges.flush();
    expect(await badgeIds(walker.user.id)).toEqual(["first-10000-step-day", "first-prize-entry"]);
    expect(await goalNotices()).toEqual(["2026-11-21"]);
  });

  it("makes no look for a sync that raised nothing: a replay or a lower count of a day", async () => {
    const walker = await createSignedInWalker(testApp.app, "Replayed");
    await phoneSynced(walker.cookie, "2026-11-21", 6_000);
    await testApp.app.services.badges.flush();
    // Every look reads the walkers' goals first.
    const looks = vi.spyOn(testApp.app.repositories.habits, "goalsOf");
    try {
      await phoneSynced(walker.cookie, "2026-11-21", 6_000);
      await phoneSynced(walker.cookie, "2026-11-21", 5_000);
      await testApp.app.services.badges.flush();
      expect(looks).not.toHaveBeenCalled();
      await phoneSynced(walker.cookie, "2026-11-21", 10_200);
      await testApp.app.services.badges.flush();
      expect(looks).toHaveBeenCalledTimes(1);
    } finally {
      looks.mockRestore();
    }
    expect(await badgeIds(walker.user.id)).toContain("first-10000-step-day");
  });

  it("awards the first prize entry from the look after steps arrive on eligible steps, not on steps waiting for a check", async () => {
    const walker = await createSignedInWalker(testApp.app, "Entry");
    const lookedAt = async () => {
      await testApp.app.services.badges.flush();
      return badgeIds(walker.user.id);
    };
    const sync = (device: string, steps: number) => phoneSynced(walker.cookie, "2026-11-20", steps, device);

    for (const device of ["phone-1", "phone-2", "phone-3"]) await sync(device, 3_333);
    expect(await lookedAt()).not.toContain("first-prize-entry");
    // A fourth device of the day waits for a check: 14,999 counted this month, 9,999 eligible.
    await sync("phone-4", 5_000);
    expect(await lookedAt()).not.toContain("first-prize-entry");
    await sync("phone-1", 3_334);
    expect(await lookedAt()).toContain("first-prize-entry");
  });

  it("judges each walker's prize entry on their own eligible steps when their looks are made together", async () => {
    const [held, eligible] = await Promise.all([
      createSignedInWalker(testApp.app, "Held"),
      createSignedInWalker(testApp.app, "Eligible"),
    ]);
    // Four devices in a day: the fourth's 5,000 wait for a check (14,999 counted, 9,999 eligible).
    for (const device of ["phone-1", "phone-2", "phone-3"])
      await phoneSynced(held.cookie, "2026-11-20", 3_333, device);
    await phoneSynced(held.cookie, "2026-11-20", 5_000, "phone-4");
    await phoneSynced(eligible.cookie, "2026-11-20", 10_000);
    await testApp.app.services.badges.flush();
    expect(await badgeIds(held.user.id)).not.toContain("first-prize-entry");
    expect(await badgeIds(eligible.user.id)).toContain("first-prize-entry");
  });

  /** `count` new walkers named `prefix` and a number, each signed in. */
  const newWalkers = (prefix: string, count: number) =>
    Promise.all(
      Array.from({ length: count }, (_, index) => createSignedInWalker(testApp.app, `${prefix}${index}`)),
    );

  it("looks at a burst of walkers in batches, one batch at a time, each read one query for the batch, and judges and tells each walker on their own steps", async () => {
    const walkers = await newWalkers("Burst", LOOK_BATCH_MAX + 3);
    const { habits, badges: badgesRead, challenges, notifications, users } = testApp.app.repositories;
    // Each read a batch makes, with how many walkers each call asked about.
    const calls: Record<string, number[]> = {};
    let reading = 0;
    let most = 0;
    const restore: (() => void)[] = [];
    const record = <T extends object, K extends keyof T & string>(target: T, name: K, hold = false) => {
      const original = target[name] as (userIds: readonly string[], ...rest: unknown[]) => Promise<unknown>;
      target[name] = (async (userIds: readonly string[], ...rest: unknown[]) => {
        calls[name] = [...(calls[name] ?? []), userIds.length];
        if (!hold) return original.call(target, userIds, ...rest);
        // Held a moment: batches running together would overlap here.
        reading++;
        most = Math.max(most, reading);
        try {
          await new Promise((resolve) => setTimeout(resolve, 20));
          return await original.call(target, userIds, ...rest);
        } finally {
          reading--;
        }
      }) as T[K];
      restore.push(() => {
        target[name] = original as T[K];
      });
    };
    record(habits, "goalsOf", true);
    record(habits, "reachedGoalOn");
    record(habits, "standings");
    record(badgesRead, "earnedBy");
    record(badgesRead, "factsOf");
    record(challenges, "membershipsOfAll");
    record(users, "findByIds");
    record(notifications, "settingsOf");
    record(notifications, "recordAll");
    // The looks' timers stay still while the walkers sync, so that every look falls due together.
    vi.useFakeTimers({ toFake: ["setTimeout", "clearTimeout"] });
    try {
      // Every other walker stays short of 10,000 steps.
      for (const [index, walker] of walkers.entries()) {
        await phoneSynced(walker.cookie, "2026-11-21", index % 2 === 0 ? 10_200 : 4_000);
      }
    } finally {
      vi.useRealTimers();
    }
    try {
      await testApp.app.services.badges.flush();
    } finally {
      for (const undo of restore) undo();
    }
    const batches = [LOOK_BATCH_MAX, 3];
    expect(calls).toEqual({
      goalsOf: batches,
      reachedGoalOn: batches,
      earnedBy: batches,
      factsOf: batches,
      membershipsOfAll: batches,
      // The runs of days of the walkers whose day newly reached its goal (half of each batch): once
      // to judge the streak badges, once to tell them of the goal.
      standings: [LOOK_BATCH_MAX / 2, LOOK_BATCH_MAX / 2, 2, 2],
      // Those walkers are told of their goal together: one read of each kind, one transaction.
      findByIds: [LOOK_BATCH_MAX / 2, 2],
      settingsOf: [LOOK_BATCH_MAX / 2, 2],
      recordAll: [LOOK_BATCH_MAX / 2, 2],
    });
    expect(most).toBe(LOOKS_AT_ONCE);
    for (const [index, walker] of walkers.entries()) {
      const ids = await badgeIds(walker.user.id);
      const told = await testApp.app.repositories.notifications.everyOne(walker.user.id);
      if (index % 2 === 0) {
        expect(ids).toContain("first-10000-step-day");
        expect(told.map(({ kind, event_key, body }) => ({ kind, event_key, body }))).toEqual([
          {
            kind: "goal_reached",
            event_key: "2026-11-21",
            body: "You walked your 10,000 steps today. Well walked!",
          },
        ]);
      } else {
        expect(ids).toEqual([]);
        expect(told).toEqual([]);
      }
    }
  });

  it("starts a batch of looks a turn of the event loop, so that requests are read between batches", async () => {
    const walkers = await newWalkers("Turn", LOOK_BATCH_MAX + 3);
    vi.useFakeTimers({ toFake: ["setTimeout", "clearTimeout"] });
    try {
      for (const walker of walkers) await phoneSynced(walker.cookie, "2026-11-21", 10_200);
      // Every look falls due at once, as a burst of syncs' looks do five seconds later.
      vi.advanceTimersByTime(AWARD_DELAY_MS);
    } finally {
      vi.useRealTimers();
    }
    const looked = async () =>
      (await Promise.all(walkers.map((walker) => badgeIds(walker.user.id)))).filter((ids) => ids.length > 0)
        .length;
    // One turn later no more than a turn's batches are done (on SQLite a batch's reads answer within
    // its turn: batches started one after another there would all be done before any request).
    await new Promise((resolve) => setImmediate(resolve));
    expect(await looked()).toBeLessThanOrEqual(LOOK_BATCH_MAX * LOOKS_AT_ONCE);
    await testApp.app.services.badges.flush();
    expect(await looked()).toBe(walkers.length);
  });

  it("judges the best day among the days that arrived; an older one waits for the walker's read", async () => {
    const walker = await createSignedInWalker(testApp.app, "Older");
    // A day of 12,000 stored with no look after it (a walker from before the badges).
    await walked(walker.user.id, "2026-11-02", 12_000);
    await phoneSynced(walker.cookie, "2026-11-21", 4_000);
    await testApp.app.services.badges.flush();
    expect(await badgeIds(walker.user.id)).not.toContain("first-10000-step-day");

    const items = await atMoment("2026-11-21T12:00:00Z", () => badges(walker.cookie));
    expect(earned(items)).toMatchObject({ "First 10,000-step day": "2026-11-21T12:00" });
  });

  it("awards a streak from the look after steps arrive: when today's goal is reached, and when a late day joins two runs", async () => {
    // Two days on goal, then today's phone reaches it.
    const ada = await createSignedInWalker(testApp.app, "Ada");
    await walked(ada.user.id, "2026-11-19", 10_000);
    await walked(ada.user.id, "2026-11-20", 10_000);
    await phoneSynced(ada.cookie, "2026-11-21", 10_200);
    await testApp.app.services.badges.flush();
    expect(await badgeIds(ada.user.id)).toContain("3-day-streak");

    // Today on goal and told; then the day before, synced late, joins the 19th to today.
    const ben = await createSignedInWalker(testApp.app, "Ben");
    const phone = stepsClient(testApp.app, ben.cookie);
    await walked(ben.user.id, "2026-11-19", 10_000);
    await phone.sync({ steps: 10_000, date: "2026-11-21", source: "device_motion" });
    await testApp.app.services.badges.flush();
    expect(await badgeIds(ben.user.id)).not.toContain("3-day-streak");
    await phone.sync({ steps: 10_000, date: "2026-11-20", source: "device_motion" });
    await testApp.app.services.badges.flush();
    expect(await badgeIds(ben.user.id)).toContain("3-day-streak");
  });
});
