import { randomUUID } from "node:crypto";
import {
  ACCOUNT_PREFERENCES_PATH,
  addDays,
  formatMonth,
  formatShortDay,
  isolated,
  MAX_PUSH_SUBSCRIPTIONS,
  NOTIFICATION_KINDS,
  NOTIFICATION_PREFERENCES_PATH,
  NOTIFICATIONS_PATH,
  NOTIFICATIONS_READ_PATH,
  type NotificationPreferences,
  type NotificationsResponse,
  OPERATOR_REVIEW_WALKERS_PATH,
  operatorReviewPath,
  PUSH_ENDPOINT_NOT_ALLOWED_MESSAGE,
  PUSH_KEY_PATH,
  PUSH_SUBSCRIPTIONS_PATH,
  PUSHES_PER_DAY,
  type PushSubscriptionsResponse,
  TOO_MANY_PUSH_SUBSCRIPTIONS_MESSAGE,
} from "@charity-steps/shared-types";
import type { FastifyInstance } from "fastify";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { buildApp } from "../../../../src/app.js";
import { NoticesNotRecorded } from "../../../../src/notifications/notifier.js";
import {
  buildTestApp,
  createSignedInWalker,
  createTestDatabase,
  dialects,
  type TestApp,
  type TestDatabase,
  testConfig,
} from "../../../helper.js";
import { atMoment, TEST_MONTH, TEST_TODAY, useTestClock } from "../../../support/clock.js";
import { groupsWalker } from "../../../support/groups.js";
import { OPERATOR_EMAIL, OPERATOR_ENV, walkerWithEmail } from "../../../support/operators.js";
import { PushReceiver, type TestBrowser } from "../../../support/push-receiver.js";
import { meanwhileAfterReading } from "../../../support/races.js";
import { manualForm, multipartBody, photo, stepsClient, walkedOn } from "../../../support/steps.js";

// Noon on Saturday 21 November 2026 in London, outside the default quiet hours (21:00–08:00).
useTestClock();

describe.each(dialects)("notifications and Web Push (%s)", (dialect) => {
  let testApp: TestApp;
  let app: FastifyInstance;
  let receiver: PushReceiver;

  beforeAll(async () => {
    receiver = await PushReceiver.start();
    testApp = await buildTestApp(dialect, { PUSH_ENDPOINT_ORIGINS: receiver.origin, ...OPERATOR_ENV });
    app = testApp.app;
  });
  afterAll(async () => {
    await testApp?.close();
    await receiver?.close();
  });

  const as = (cookie: string) => ({
    get: (url: string) => app.inject({ method: "GET", url, headers: { cookie } }),
    post: (url: string, payload?: object) =>
      app.inject({ method: "POST", url, headers: { cookie }, ...(payload === undefined ? {} : { payload }) }),
    put: (url: string, payload: object) => app.inject({ method: "PUT", url, headers: { cookie }, payload }),
    delete: (url: string) => app.inject({ method: "DELETE", url, headers: { cookie } }),
  });

  /** A walker with a browser subscribed to the test's push service. */
  async function subscribedWalker(
    name: string,
  ): Promise<{ cookie: string; userId: string; browser: TestBrowser }> {
    const walker = await createSignedInWalker(app, name);
    const browser = receiver.browser();
    const subscribed = await as(walker.cookie).post(PUSH_SUBSCRIPTIONS_PATH, browser.subscription);
    expect(subscribed.statusCode).toBe(201);
    return { cookie: walker.cookie, userId: walker.user.id, browser };
  }

  /** Today's manual entries of these steps, each with a photo, by the walker: their ids. */
  async function manualEntries(cookie: string, steps: readonly string[]): Promise<string[]> {
    const png = await photo("png");
    const ids: string[] = [];
    for (const stepsCount of steps) {
      const form = multipartBody(manualForm({ steps: stepsCount, date: TEST_TODAY }, { bytes: png }));
      const entry = await app.inject({
        method: "POST",
        url: "/api/steps/add-manual-verified",
        headers: { cookie, "content-type": form.contentType, "idempotency-key": randomUUID() },
        payload: form.body,
      });
      expect(entry.statusCode).toBe(201);
      ids.push(entry.json().entry.id);
    }
    return ids;
  }

  /**
   * Waits until no push is in a worker's hands: the receiver has a push before the worker hears
   * its answer and marks it sent, and a test that moves the clock on must not catch it between.
   */
  const pushesSettled = () =>
    waitUntil(async () => {
      const held = await app.database.db
        .selectFrom("push_outbox")
        .select("id")
        .where("status", "=", "pending")
        .where("claimed_until", "is not", null)
        .execute();
      return held.length === 0;
    });

  const notice = (userId: string, kind: (typeof NOTIFICATION_KINDS)[number], eventKey: string) => ({
    userId,
    kind,
    eventKey,
    title: `Title of ${kind} ${eventKey}`,
    body: `Body of ${kind} ${eventKey}`,
    url: "/dashboard",
  });
  const notify = (userId: string, kind: (typeof NOTIFICATION_KINDS)[number], eventKey: string) =>
    app.services.notifier.notify(notice(userId, kind, eventKey));

  it("gives anyone the VAPID public key, the same on every call", async () => {
    const first = await app.inject({ method: "GET", url: PUSH_KEY_PATH });
    expect(first.statusCode).toBe(200);
    const { publicKey } = first.json<{ publicKey: string }>();
    expect(Buffer.from(publicKey, "base64url")).toHaveLength(65);
    const again = await app.inject({ method: "GET", url: PUSH_KEY_PATH });
    expect(again.json()).toEqual({ publicKey });
  });

  it("tells an admin by push when someone joins their group: signed, encrypted, and listed in the app", async () => {
    const admin = await groupsWalker(app, "Admin");
    const browser = receiver.browser();
    expect((await admin.api.post(PUSH_SUBSCRIPTIONS_PATH, browser.subscription)).statusCode).toBe(201);
    // A group named in Arabic: each name keeps to its place in the English sentence.
    const created = await admin.api.createGroup("مشاة القناة");
    const group = created.json<{ id: number; joinCode: string }>();
    const joiner = await groupsWalker(app, "Joanna");
    expect((await joiner.api.join(group.joinCode)).statusCode).toBe(201);

    await receiver.waitFor(() => receiver.pushesTo(browser.id).length === 1);
    const [push] = receiver.pushesTo(browser.id);
    const { publicKey } = (await app.inject({ method: "GET", url: PUSH_KEY_PATH })).json<{
      publicKey: string;
    }>();
    expect(push).toMatchObject({
      payload: {
        kind: "group_joined",
        title: `New member in ${isolated("مشاة القناة")}`,
        body: `${isolated("Joanna W")} joined ${isolated("مشاة القناة")}. The group now has 2 members.`,
        url: `/groups/${group.id}`,
      },
      urgency: "normal",
      vapid: { aud: receiver.origin, publicKey, sub: expect.stringMatching(/^mailto:no-reply@/) },
    });
    expect(push?.ttl).toBeGreaterThan(0);

    const list = (await admin.api.get(NOTIFICATIONS_PATH)).json<NotificationsResponse>();
    expect(list.unread).toBe(1);
    expect(list.items).toEqual([
      {
        id: expect.any(String),
        kind: "group_joined",
        title: `New member in ${isolated("مشاة القناة")}`,
        body: `${isolated("Joanna W")} joined ${isolated("مشاة القناة")}. The group now has 2 members.`,
        url: `/groups/${group.id}`,
        createdAt: expect.stringMatching(/^2026-11-21T12:/),
        readAt: null,
      },
    ]);
    // Joining again is no new event: nothing more is told.
    expect((await joiner.api.join(group.joinCode)).statusCode).toBe(200);
    expect((await admin.api.get(NOTIFICATIONS_PATH)).json<NotificationsResponse>().items).toHaveLength(1);
    // The one who joined is told nothing.
    expect((await joiner.api.get(NOTIFICATIONS_PATH)).json<NotificationsResponse>()).toEqual({
      items: [],
      unread: 0,
      next: null,
    });
  });

  it("tells a walker once a day when their counted steps reach the day's goal", async () => {
    const walker = await subscribedWalker("Goal");
    const steps = stepsClient(app, walker.cookie);
    await steps.put(ACCOUNT_PREFERENCES_PATH, { dailyGoal: 8_000 });
    expect((await steps.sync({ steps: 7_999, date: TEST_TODAY, source: "device_motion" })).statusCode).toBe(
      200,
    );
    await app.services.badges.flush();
    expect((await as(walker.cookie).get(NOTIFICATIONS_PATH)).json<NotificationsResponse>().items).toEqual([]);
    expect((await steps.sync({ steps: 8_200, date: TEST_TODAY, source: "device_motion" })).statusCode).toBe(
      200,
    );
    await app.services.badges.flush();
    await receiver.waitFor(() => receiver.pushesTo(walker.browser.id).length === 1);
    expect(receiver.pushesTo(walker.browser.id)[0]?.payload).toEqual({
      kind: "goal_reached",
      title: "Daily goal reached!",
      body: "You walked your 8,000 steps today. Well walked!",
      url: "/dashboard",
    });
    // More steps the same day tell nothing more.
    await steps.sync({ steps: 12_000, date: TEST_TODAY, source: "device_motion" });
    await app.services.badges.flush();
    const list = (await as(walker.cookie).get(NOTIFICATIONS_PATH)).json<NotificationsResponse>();
    expect(list.items.map((item) => item.kind)).toEqual(["goal_reached"]);
  });

  it("tells a walker whose lowered goal today's steps already reach, with no sync after it", async () => {
    const walker = await subscribedWalker("Lowered");
    const steps = stepsClient(app, walker.cookie);
    await steps.put(ACCOUNT_PREFERENCES_PATH, { dailyGoal: 12_000 });
    await steps.sync({ steps: 9_000, date: TEST_TODAY, source: "device_motion" });
    await app.services.badges.flush();
    expect((await as(walker.cookie).get(NOTIFICATIONS_PATH)).json<NotificationsResponse>().items).toEqual([]);

    expect((await steps.put(ACCOUNT_PREFERENCES_PATH, { dailyGoal: 8_000 })).statusCode).toBe(200);
    await app.services.badges.flush();
    await receiver.waitFor(() => receiver.pushesTo(walker.browser.id).length === 1);
    expect(receiver.pushesTo(walker.browser.id)[0]?.payload).toMatchObject({
      kind: "goal_reached",
      body: "You walked your 8,000 steps today. Well walked!",
    });
  });

  it("counts the streaks it tells of however far back they go, the long ones read together", async () => {
    const walkers = [await subscribedWalker("LongRun"), await subscribedWalker("LongerRun")];
    // 70 and 80 days on the default goal before today, then today's phones reach it.
    for (const [index, walker] of walkers.entries()) {
      for (let back = 70 + 10 * index; back >= 1; back--) {
        await walkedOn(app, walker.userId, addDays(TEST_TODAY, -back), 10_000);
      }
    }
    const read = vi.spyOn(app.repositories.habits, "standings");
    let asked: string[][] = [];
    try {
      for (const walker of walkers) {
        const synced = await stepsClient(app, walker.cookie).sync({
          steps: 10_000,
          date: TEST_TODAY,
          source: "device_motion",
        });
        expect(synced.statusCode).toBe(200);
      }
      await app.services.badges.flush();
      asked = read.mock.calls.map(([userIds]) => [...userIds].sort());
    } finally {
      read.mockRestore();
    }
    // One look for both, and each of its reads of their standings is for both (the goal's recent
    // days, then the whole histories of the runs that go back further), never walker by walker.
    const both = walkers.map((walker) => walker.userId).sort();
    expect(asked.length).toBeGreaterThanOrEqual(2);
    expect(asked.filter((userIds) => userIds.join() !== both.join())).toEqual([]);
    const told = async (cookie: string) =>
      (await as(cookie).get(NOTIFICATIONS_PATH)).json<NotificationsResponse>().items.map((item) => item.body);
    expect(await told(walkers[0]?.cookie as string)).toEqual([
      "You walked your 10,000 steps today. Well walked! That makes a 71-day streak.",
    ]);
    expect(await told(walkers[1]?.cookie as string)).toEqual([
      "You walked your 10,000 steps today. Well walked! That makes an 81-day streak.",
    ]);
  });

  it("tells a walker an operator's decision on their manual entry, with the reason for a refusal", async () => {
    const walker = await subscribedWalker("Entry");
    const operator = await walkerWithEmail(app, OPERATOR_EMAIL, true);
    const entries = await manualEntries(walker.cookie, ["2500", "3000", "1"]);
    const decide = (id: string, body: object) => as(operator.cookie).post(operatorReviewPath(id), body);
    expect((await decide(entries[0] ?? "", { decision: "approve" })).statusCode).toBe(200);
    expect(
      (await decide(entries[1] ?? "", { decision: "reject", reason: "The photo shows another day." }))
        .statusCode,
    ).toBe(200);
    expect((await decide(entries[2] ?? "", { decision: "reject", reason: "A test entry." })).statusCode).toBe(
      200,
    );
    await receiver.waitFor(() => receiver.pushesTo(walker.browser.id).length === 3);
    const payloads = receiver.pushesTo(walker.browser.id).map((push) => push.payload);
    const day = formatShortDay(TEST_TODAY);
    expect(payloads.sort((a, b) => a.body.localeCompare(b.body))).toEqual([
      {
        kind: "entry_reviewed",
        title: "Your steps were not approved",
        body: `Your 1 step for ${day} was checked and does not count toward prize entries: ${isolated("A test entry.")}`,
        url: "/prize-draw",
      },
      {
        kind: "entry_reviewed",
        title: "Your steps were approved",
        body: `Your 2,500 steps for ${day} were checked and count toward the prize entries for ${formatMonth(TEST_MONTH)}.`,
        url: "/prize-draw",
      },
      {
        kind: "entry_reviewed",
        title: "Your steps were not approved",
        body: `Your 3,000 steps for ${day} were checked and do not count toward prize entries: ${isolated("The photo shows another day.")}`,
        url: "/prize-draw",
      },
    ]);
  });

  it("tells a walker an operator's decision on a whole month of their manual entries, once", async () => {
    const walker = await subscribedWalker("Month");
    const operator = await walkerWithEmail(app, OPERATOR_EMAIL, true);
    await manualEntries(walker.cookie, ["1500", "1800"]);
    const decided = await as(operator.cookie).post(
      `${OPERATOR_REVIEW_WALKERS_PATH}/${walker.userId}/months/${TEST_MONTH}`,
      { decision: "reject", reason: "Photos of a screen, not a step counter." },
    );
    expect(decided.statusCode).toBe(200);
    expect(decided.json()).toMatchObject({ status: "rejected", manualEntries: 2 });
    await receiver.waitFor(() => receiver.pushesTo(walker.browser.id).length === 1);
    expect(receiver.pushesTo(walker.browser.id).map((push) => push.payload)).toEqual([
      {
        kind: "entry_reviewed",
        title: "Your steps were not approved",
        body: `The 2 entries of steps you added by hand for ${formatMonth(TEST_MONTH)} were checked and do not count toward prize entries: ${isolated("Photos of a screen, not a step counter.")}`,
        url: "/prize-draw",
      },
    ]);
    // Nothing waits now: a second decision is a 404, and tells nothing more.
    const again = await as(operator.cookie).post(
      `${OPERATOR_REVIEW_WALKERS_PATH}/${walker.userId}/months/${TEST_MONTH}`,
      { decision: "approve" },
    );
    expect(again.statusCode).toBe(404);
    const listed = await app.database.db
      .selectFrom("notifications")
      .select("kind")
      .where("user_id", "=", walker.userId)
      .execute();
    expect(listed).toEqual([{ kind: "entry_reviewed" }]);
  });

  it("pushes a completed challenge and Monday's look back on the week, each with its text", async () => {
    const walker = await subscribedWalker("Cleo");
    const operator = await walkerWithEmail(app, OPERATOR_EMAIL, true);
    const { challenges } = app.services;
    const challenge = await challenges.createPublic(
      {
        name: "Weekend Ten K",
        description: "",
        charityName: null,
        kind: "total_steps",
        target: 10_000,
        dailyTarget: null,
        startsOn: TEST_TODAY,
        endsOn: addDays(TEST_TODAY, 1),
      },
      operator.user.id,
    );
    await challenges.join(challenge.id, walker.userId);
    await walkedOn(app, walker.userId, TEST_TODAY, 10_500);
    await challenges.stepsArrived([walker.userId]);
    await receiver.waitFor(() => receiver.pushesTo(walker.browser.id).length === 1);
    // Monday 23 November, 08:30 London: the week's look, past the quiet hours (to 08:00), pushed at once.
    // The clock stays at that Monday while the push goes: the worker sends what is due by its clock.
    await atMoment("2026-11-23T08:30:00Z", async () => {
      await app.services.weeklySummaries.tick();
      await receiver.waitFor(() => receiver.pushesTo(walker.browser.id).length === 2);
    });
    expect(receiver.pushesTo(walker.browser.id).map((push) => push.payload)).toEqual([
      {
        kind: "challenge_completed",
        title: "Challenge completed!",
        body: `You completed "${isolated("Weekend Ten K")}". Your certificate is ready.`,
        url: `/challenges/${challenge.id}`,
      },
      {
        kind: "weekly_summary",
        title: "Your week from Mon 16 Nov",
        body: "10,500 steps, 1 of 7 days on goal. Your first week of steps with us.",
        url: "/dashboard",
      },
    ]);
  });

  it("reminds a walker at their reminder time when a streak of 2 or more needs today's goal", async () => {
    const onStreak = await subscribedWalker("Streaker");
    const longerStreak = await subscribedWalker("Long streaker");
    const shortStreak = await subscribedWalker("Beginner");
    const early = await subscribedWalker("Early bird");
    const onGoalToday = await subscribedWalker("Done");
    for (const walker of [onStreak, early, onGoalToday]) {
      await walkedOn(app, walker.userId, addDays(TEST_TODAY, -2), 10_500);
      await walkedOn(app, walker.userId, addDays(TEST_TODAY, -1), 11_000);
    }
    await walkedOn(app, shortStreak.userId, addDays(TEST_TODAY, -1), 12_000);
    for (const back of [3, 2, 1])
      await walkedOn(app, longerStreak.userId, addDays(TEST_TODAY, -back), 10_000);
    await walkedOn(app, onStreak.userId, TEST_TODAY, 4_000);
    await walkedOn(app, onGoalToday.userId, TEST_TODAY, 10_000);
    await as(early.cookie).put(NOTIFICATION_PREFERENCES_PATH, { reminderTime: "07:30" });
    const kinds = (walker: { browser: TestBrowser }) =>
      receiver.pushesTo(walker.browser.id).map((push) => push.payload.kind);

    // 12:00: only the walker who asked for 07:30 is due.
    expect(await app.services.streakReminders.tick()).toBe(1);
    await receiver.waitFor(() => kinds(early).length === 1);
    expect(receiver.pushesTo(early.browser.id)[0]?.payload).toEqual({
      kind: "streak_at_risk",
      title: "Keep your 2-day streak going",
      body: "Walk your 10,000 steps today to make it 3 days.",
      url: "/dashboard",
    });
    await atMoment("2026-11-21T18:59:00Z", async () => {
      expect(await app.services.streakReminders.tick()).toBe(0);
    });
    // 19:00: the rest are looked at together, each told of their own streak.
    await atMoment("2026-11-21T19:00:30Z", async () => {
      expect(await app.services.streakReminders.tick()).toBe(2);
      await receiver.waitFor(() => kinds(onStreak).length === 1 && kinds(longerStreak).length === 1);
      expect(receiver.pushesTo(longerStreak.browser.id)[0]?.payload).toMatchObject({
        title: "Keep your 3-day streak going",
        body: "Walk your 10,000 steps today to make it 4 days.",
      });
      // Looked at once a day: a second look tells nobody again.
      expect(await app.services.streakReminders.tick()).toBe(0);
      await pushesSettled();
    });
    expect(kinds(onStreak)).toEqual(["streak_at_risk"]);
    expect(kinds(shortStreak)).toEqual([]);
    expect(kinds(onGoalToday)).toEqual([]);
    expect(kinds(early)).toEqual(["streak_at_risk"]);
  });

  it("tells each event once, however often it is noticed", async () => {
    const walker = await subscribedWalker("Once");
    const results = await Promise.all([1, 2, 3].map(() => notify(walker.userId, "prize_won", "prize-1")));
    expect(results.filter(Boolean)).toHaveLength(1);
    await receiver.waitFor(() => receiver.pushesTo(walker.browser.id).length >= 1);
    await app.services.push.runOnce();
    expect(receiver.pushesTo(walker.browser.id).map((push) => push.payload.kind)).toEqual(["prize_won"]);
    expect(receiver.pushesTo(walker.browser.id)[0]?.urgency).toBe("high");
  });

  it("pages the list newest first and marks some, or all, read", async () => {
    const walker = await createSignedInWalker(app, "Reader");
    for (const key of ["a", "b", "c", "d", "e"]) {
      await atMoment(`2026-11-21T12:0${"abcde".indexOf(key)}:00Z`, () =>
        notify(walker.user.id, "draw_results", key),
      );
    }
    const api = as(walker.cookie);
    const first = (await api.get(`${NOTIFICATIONS_PATH}?limit=2`)).json<NotificationsResponse>();
    expect(first.items.map((item) => item.title)).toEqual([
      "Title of draw_results e",
      "Title of draw_results d",
    ]);
    expect(first.unread).toBe(5);
    const second = (
      await api.get(`${NOTIFICATIONS_PATH}?limit=2&before=${first.next}`)
    ).json<NotificationsResponse>();
    expect(second.items.map((item) => item.title)).toEqual([
      "Title of draw_results c",
      "Title of draw_results b",
    ]);
    const last = (
      await api.get(`${NOTIFICATIONS_PATH}?limit=2&before=${second.next}`)
    ).json<NotificationsResponse>();
    expect(last.items.map((item) => item.title)).toEqual(["Title of draw_results a"]);
    expect(last.next).toBeNull();

    const marked = await api.post(NOTIFICATIONS_READ_PATH, { ids: [first.items[0]?.id] });
    expect(marked.json()).toEqual({ unread: 4 });
    const afterOne = (await api.get(NOTIFICATIONS_PATH)).json<NotificationsResponse>();
    expect(afterOne.items[0]?.readAt).toMatch(/^2026-11-21T/);
    expect(afterOne.items[1]?.readAt).toBeNull();
    // Another walker's ids mark nothing of theirs.
    const other = await createSignedInWalker(app, "Other");
    await as(other.cookie).post(NOTIFICATIONS_READ_PATH, { ids: afterOne.items.map((item) => item.id) });
    expect((await api.get(NOTIFICATIONS_PATH)).json<NotificationsResponse>().unread).toBe(4);

    for (const body of [undefined, {}, { ids: [] }]) {
      await notify(walker.user.id, "draw_results", `more-${JSON.stringify(body)}`);
      const all = await api.post(NOTIFICATIONS_READ_PATH, body);
      expect(all.statusCode).toBe(200);
      expect(all.json()).toEqual({ unread: 0 });
    }
    const bad = await api.get(`${NOTIFICATIONS_PATH}?before=yesterday`);
    expect(bad.statusCode).toBe(400);
    expect(bad.json().message).toMatch(/before/);
  });

  it("answers preferences with every kind, changes one channel of one kind, and names a bad field", async () => {
    const walker = await createSignedInWalker(app, "Prefs");
    const api = as(walker.cookie);
    const defaults = (await api.get(NOTIFICATION_PREFERENCES_PATH)).json<NotificationPreferences>();
    expect(Object.keys(defaults.kinds)).toEqual([...NOTIFICATION_KINDS]);
    expect(defaults.kinds.challenge_completed).toEqual({ push: true, email: false });
    expect(defaults.kinds.prize_won).toEqual({ push: true, email: true });
    expect(defaults.kinds.new_sign_in).toEqual({ push: true, email: true });
    expect(defaults.reminderTime).toBe("19:00");
    expect(defaults.quietHours).toEqual({ start: "21:00", end: "08:00" });

    const changed = await api.put(NOTIFICATION_PREFERENCES_PATH, {
      kinds: { goal_reached: { push: false } },
    });
    expect(changed.statusCode).toBe(200);
    expect(changed.json<NotificationPreferences>().kinds.goal_reached).toEqual({ push: false, email: false });
    const off = await api.put(NOTIFICATION_PREFERENCES_PATH, {
      reminderTime: "18:30",
      quietHours: { start: "22:00", end: "22:00" },
    });
    expect(off.json<NotificationPreferences>()).toMatchObject({
      reminderTime: "18:30",
      quietHours: { start: "22:00", end: "22:00" },
      kinds: { goal_reached: { push: false, email: false } },
    });

    for (const [body, field] of [
      [{ reminderTime: "7pm" }, "reminderTime"],
      [{ quietHours: { start: "25:00", end: "08:00" } }, "quietHours.start"],
      [{ kinds: { goal_reached: { push: "yes" } } }, "kinds.goal_reached.push"],
      [{ kinds: { party_invite: { push: true } } }, "party_invite"],
      [{}, "The request body"],
    ] as const) {
      const refused = await api.put(NOTIFICATION_PREFERENCES_PATH, body);
      expect(refused.statusCode).toBe(400);
      expect(refused.json().message).toContain(field);
    }
    // Nothing refused changed what was stored.
    expect((await api.get(NOTIFICATION_PREFERENCES_PATH)).json<NotificationPreferences>().reminderTime).toBe(
      "18:30",
    );
  });

  it("sends no push of a kind the walker turned off, and still lists it", async () => {
    const walker = await subscribedWalker("Quiet kind");
    await as(walker.cookie).put(NOTIFICATION_PREFERENCES_PATH, { kinds: { draw_results: { push: false } } });
    await notify(walker.userId, "draw_results", "2026-10");
    await notify(walker.userId, "prize_claim_reminder", "prize-9:7");
    await receiver.waitFor(() => receiver.pushesTo(walker.browser.id).length >= 1);
    await app.services.push.runOnce();
    expect(receiver.pushesTo(walker.browser.id).map((push) => push.payload.kind)).toEqual([
      "prize_claim_reminder",
    ]);
    const list = (await as(walker.cookie).get(NOTIFICATIONS_PATH)).json<NotificationsResponse>();
    expect(list.items.map((item) => item.kind).sort()).toEqual(["draw_results", "prize_claim_reminder"]);
  });

  it("holds a push due in quiet hours until they end, except a new sign-in", async () => {
    const walker = await subscribedWalker("Night owl");
    await atMoment("2026-11-21T22:30:00Z", async () => {
      await notify(walker.userId, "streak_at_risk", "2026-11-21");
      await notify(walker.userId, "new_sign_in", "device-1");
      await receiver.waitFor(() => receiver.pushesTo(walker.browser.id).length >= 1);
      await pushesSettled();
      await app.services.push.runOnce();
      expect(receiver.pushesTo(walker.browser.id).map((push) => push.payload.kind)).toEqual(["new_sign_in"]);
    });
    // 08:00 London (GMT in November) the next morning: the held push goes.
    await atMoment("2026-11-22T08:00:30Z", async () => {
      await app.services.push.runOnce();
      expect(receiver.pushesTo(walker.browser.id).map((push) => push.payload.kind)).toEqual([
        "new_sign_in",
        "streak_at_risk",
      ]);
    });
  });

  it(`sends at most ${PUSHES_PER_DAY} pushes a day, besides a win and a new sign-in`, async () => {
    const walker = await subscribedWalker("Busy");
    for (const key of ["1", "2", "3", "4", "5"]) await notify(walker.userId, "group_joined", key);
    await notify(walker.userId, "prize_won", "prize-2");
    await notify(walker.userId, "new_sign_in", "device-2");
    await receiver.waitFor(() => receiver.pushesTo(walker.browser.id).length >= PUSHES_PER_DAY + 2);
    await app.services.push.runOnce();
    const kinds = receiver.pushesTo(walker.browser.id).map((push) => push.payload.kind);
    expect(kinds.filter((kind) => kind === "group_joined")).toHaveLength(PUSHES_PER_DAY);
    expect(kinds.filter((kind) => kind !== "group_joined").sort()).toEqual(["new_sign_in", "prize_won"]);
    // All seven are in the app.
    const list = (await as(walker.cookie).get(NOTIFICATIONS_PATH)).json<NotificationsResponse>();
    expect(list.unread).toBe(7);
    // A new London day has pushes again.
    await atMoment("2026-11-22T12:00:00Z", async () => {
      await notify(walker.userId, "group_joined", "6");
      await receiver.waitFor(() => receiver.pushesTo(walker.browser.id).length === PUSHES_PER_DAY + 3);
    });
  });

  it("tells many walkers in one call as it tells them one at a time: the daily cap, each event once, nobody unknown", async () => {
    const [busy, goal] = [await subscribedWalker("Busy batch"), await subscribedWalker("Goal batch")];
    const told = await app.services.notifier.notifyAll([
      ...["1", "2", "3", "4", "5"].map((key) => notice(busy.userId, "group_joined", key)),
      notice(goal.userId, "goal_reached", TEST_TODAY),
      notice(busy.userId, "prize_won", "prize-3"),
      // The same event twice in one call, and a walker who does not exist: told nothing.
      notice(goal.userId, "goal_reached", TEST_TODAY),
      notice("no-such-walker", "goal_reached", TEST_TODAY),
    ]);
    expect(told.map((row) => row && [row.kind, row.event_key, row.pushed])).toEqual([
      ...["1", "2", "3", "4", "5"].map((key, index) => ["group_joined", key, index < PUSHES_PER_DAY ? 1 : 0]),
      ["goal_reached", TEST_TODAY, 1],
      ["prize_won", "prize-3", 1],
      undefined,
      undefined,
    ]);
    await receiver.waitFor(() => receiver.pushesTo(busy.browser.id).length >= PUSHES_PER_DAY + 1);
    await receiver.waitFor(() => receiver.pushesTo(goal.browser.id).length >= 1);
    await pushesSettled();
    await app.services.push.runOnce();
    const kinds = receiver.pushesTo(busy.browser.id).map((push) => push.payload.kind);
    expect(kinds.filter((kind) => kind === "group_joined")).toHaveLength(PUSHES_PER_DAY);
    expect(kinds.filter((kind) => kind !== "group_joined")).toEqual(["prize_won"]);
    expect(receiver.pushesTo(goal.browser.id).map((push) => push.payload)).toEqual([
      {
        kind: "goal_reached",
        title: `Title of goal_reached ${TEST_TODAY}`,
        body: `Body of goal_reached ${TEST_TODAY}`,
        url: "/dashboard",
      },
    ]);
    expect((await as(busy.cookie).get(NOTIFICATIONS_PATH)).json<NotificationsResponse>().unread).toBe(6);
    expect((await as(goal.cookie).get(NOTIFICATIONS_PATH)).json<NotificationsResponse>().unread).toBe(1);
    // Told again in a later call: nothing more.
    expect(await app.services.notifier.notifyAll([notice(goal.userId, "goal_reached", TEST_TODAY)])).toEqual([
      undefined,
    ]);
  });

  it("tells the others of a call when one walker's notice cannot be recorded, and that walker nothing", async () => {
    const [first, last] = [await subscribedWalker("First told"), await subscribedWalker("Last told")];
    const broken = await walkerWithEmail(app, `broken.${randomUUID()}@example.org`, true);
    const call = app.services.notifier.notifyAll([
      notice(first.userId, "goal_reached", TEST_TODAY),
      {
        ...notice(broken.user.id, "prize_won", "prize-broken"),
        mail: () => {
          throw new Error("This walker's mail cannot be made");
        },
      },
      notice(last.userId, "goal_reached", TEST_TODAY),
    ]);
    const failure = await call.then(
      () => undefined,
      (error: unknown) => error,
    );
    expect(failure).toBeInstanceOf(NoticesNotRecorded);
    const { answers, failed, message } = failure as NoticesNotRecorded;
    expect(message).toBe("1 of 3 notices could not be recorded");
    expect([...failed]).toEqual([1]);
    expect(answers.map((row) => row && [row.user_id, row.kind])).toEqual([
      [first.userId, "goal_reached"],
      undefined,
      [last.userId, "goal_reached"],
    ]);
    for (const walker of [first, last]) {
      await receiver.waitFor(() => receiver.pushesTo(walker.browser.id).length >= 1);
      expect(receiver.pushesTo(walker.browser.id).map((push) => push.payload.title)).toEqual([
        `Title of goal_reached ${TEST_TODAY}`,
      ]);
      expect((await as(walker.cookie).get(NOTIFICATIONS_PATH)).json<NotificationsResponse>().unread).toBe(1);
    }
    expect((await as(broken.cookie).get(NOTIFICATIONS_PATH)).json<NotificationsResponse>().unread).toBe(0);
    await pushesSettled();

    // A browser removed while the call reads: the call's push to it fails the one transaction, and
    // each notice on its own is stored (the walker who removed it, read again, with no push).
    const [keeping, removing] = [await subscribedWalker("Keeping"), await subscribedWalker("Removing")];
    const { notifications } = app.repositories;
    const removedMeanwhile = meanwhileAfterReading(
      notifications,
      "subscriptionsOf",
      removing.userId,
      async () => {
        const listed = (
          await as(removing.cookie).get(PUSH_SUBSCRIPTIONS_PATH)
        ).json<PushSubscriptionsResponse>();
        const gone = await as(removing.cookie).delete(`${PUSH_SUBSCRIPTIONS_PATH}/${listed.items[0]?.id}`);
        expect(gone.statusCode).toBe(204);
      },
    );
    const recorded = vi.spyOn(notifications, "recordAll");
    try {
      const told = await app.services.notifier.notifyAll([
        notice(keeping.userId, "goal_reached", TEST_TODAY),
        notice(removing.userId, "goal_reached", TEST_TODAY),
      ]);
      expect(told.map((row) => row && [row.user_id, row.pushed])).toEqual([
        [keeping.userId, 1],
        [removing.userId, 0],
      ]);
      // Together, then each on its own.
      expect(recorded.mock.calls.map(([items]) => items.length)).toEqual([2, 1, 1]);
    } finally {
      removedMeanwhile.restore();
      recorded.mockRestore();
    }
    await receiver.waitFor(() => receiver.pushesTo(keeping.browser.id).length >= 1);
    await pushesSettled();
    expect(receiver.pushesTo(removing.browser.id)).toEqual([]);
    expect((await as(removing.cookie).get(NOTIFICATIONS_PATH)).json<NotificationsResponse>().unread).toBe(1);
  });

  it("tells a walker erased while a call reads them nothing, and the others as usual", async () => {
    const [staying, leaving] = [await subscribedWalker("Staying"), await subscribedWalker("Leaving")];
    const { users, accountData } = app.repositories;
    const erasedMeanwhile = meanwhileAfterReading(users, "findByIds", leaving.userId, () =>
      accountData.erase(leaving.userId, null),
    );
    try {
      const told = await app.services.notifier.notifyAll([
        notice(staying.userId, "goal_reached", TEST_TODAY),
        notice(leaving.userId, "goal_reached", TEST_TODAY),
      ]);
      expect(told.map((row) => row?.user_id)).toEqual([staying.userId, undefined]);
    } finally {
      erasedMeanwhile.restore();
    }
    const erasedRows = await app.database.db
      .selectFrom("notifications")
      .select("id")
      .where("user_id", "=", leaving.userId)
      .execute();
    expect(erasedRows).toEqual([]);
    expect((await as(staying.cookie).get(NOTIFICATIONS_PATH)).json<NotificationsResponse>().unread).toBe(1);
    await receiver.waitFor(() => receiver.pushesTo(staying.browser.id).length >= 1);
    await pushesSettled();
    expect(receiver.pushesTo(leaving.browser.id)).toEqual([]);
  });

  it("removes a subscription at once when the push service answers 410", async () => {
    const walker = await subscribedWalker("Gone");
    receiver.answerWith(walker.browser.id, 410);
    await notify(walker.userId, "draw_results", "gone-1");
    await waitUntil(
      async () => (await app.repositories.notifications.subscriptions(walker.userId)).length === 0,
    );
    const listed = (await as(walker.cookie).get(PUSH_SUBSCRIPTIONS_PATH)).json<PushSubscriptionsResponse>();
    expect(listed.items).toEqual([]);
    expect(receiver.pushesTo(walker.browser.id)).toEqual([]);
  });

  it("tries again after a push service fails, and delivers once", async () => {
    const walker = await subscribedWalker("Retry");
    receiver.answerWith(walker.browser.id, 503);
    const notification = await notify(walker.userId, "draw_results", "retry-1");
    expect(notification).toBeDefined();
    const pending = async () => {
      const rows = await app.database.db
        .selectFrom("push_outbox")
        .selectAll()
        .where("notification_id", "=", notification?.id ?? "")
        .execute();
      return rows[0];
    };
    await waitUntil(async () => (await pending())?.last_error === "HTTP 503");
    await pushesSettled();
    expect(await pending()).toMatchObject({ status: "pending", attempts: 1 });
    expect(receiver.pushesTo(walker.browser.id)).toEqual([]);
    // Past the first wait (30 s), the next look delivers it.
    await atMoment("2026-11-21T12:05:00Z", async () => {
      await app.services.push.runOnce();
    });
    await receiver.waitFor(() => receiver.pushesTo(walker.browser.id).length === 1);
    await pushesSettled();
    expect(await pending()).toMatchObject({ status: "sent", attempts: 2 });
    const listed = (await as(walker.cookie).get(PUSH_SUBSCRIPTIONS_PATH)).json<PushSubscriptionsResponse>();
    expect(listed.items[0]?.lastSuccessAt).not.toBeNull();
  });

  it("takes only push services in PUSH_ENDPOINT_ORIGINS, lists them by origin, and caps them at 10", async () => {
    const walker = await createSignedInWalker(app, "Many");
    const api = as(walker.cookie);
    const keys = receiver.browser().subscription.keys;
    for (const endpoint of [
      "https://evil.example.org/push/1",
      "http://127.0.0.1:1/push/1",
      "https://fcm.googleapis.com/fcm/send/abc",
      "file:///etc/passwd",
      "not a url",
      `${receiver.origin.replace("http:", "https:")}/push/1`,
    ]) {
      const refused = await api.post(PUSH_SUBSCRIPTIONS_PATH, { endpoint, keys });
      expect(refused.statusCode, endpoint).toBe(400);
      expect(refused.json().message).toBe(PUSH_ENDPOINT_NOT_ALLOWED_MESSAGE);
    }
    const badKey = await api.post(PUSH_SUBSCRIPTIONS_PATH, {
      endpoint: `${receiver.origin}/push/x`,
      keys: { p256dh: "AAAA", auth: keys.auth },
    });
    expect(badKey.statusCode).toBe(400);
    expect(badKey.json().message).toMatch(/^keys\.p256dh/);

    const ids: string[] = [];
    for (let index = 0; index < MAX_PUSH_SUBSCRIPTIONS; index++) {
      const created = await api.post(PUSH_SUBSCRIPTIONS_PATH, receiver.browser().subscription);
      expect(created.statusCode).toBe(201);
      ids.push(created.json<{ id: string }>().id);
    }
    const eleventh = await api.post(PUSH_SUBSCRIPTIONS_PATH, receiver.browser().subscription);
    expect(eleventh.statusCode).toBe(409);
    expect(eleventh.json().message).toBe(TOO_MANY_PUSH_SUBSCRIPTIONS_MESSAGE);

    const listed = (await api.get(PUSH_SUBSCRIPTIONS_PATH)).json<PushSubscriptionsResponse>();
    // Made in the same instant of the test's clock, so in no particular order among themselves.
    expect(listed.items.map((item) => item.id).sort()).toEqual([...ids].sort());
    expect(listed.items.find((item) => item.id === ids[0])).toEqual({
      id: ids[0],
      endpointOrigin: receiver.origin,
      createdAt: expect.stringMatching(/^2026-11-21T/),
      lastSuccessAt: null,
    });
    expect(JSON.stringify(listed)).not.toContain("/push/");

    // Another walker cannot remove it; its owner can, once.
    const other = await createSignedInWalker(app, "Stranger");
    expect((await as(other.cookie).delete(`${PUSH_SUBSCRIPTIONS_PATH}/${ids[0]}`)).statusCode).toBe(404);
    expect((await api.delete(`${PUSH_SUBSCRIPTIONS_PATH}/${ids[0]}`)).statusCode).toBe(204);
    expect((await api.delete(`${PUSH_SUBSCRIPTIONS_PATH}/${ids[0]}`)).statusCode).toBe(404);
    expect((await api.post(PUSH_SUBSCRIPTIONS_PATH, receiver.browser().subscription)).statusCode).toBe(201);
  });

  it("gives a browser's subscription to whoever subscribed in it last", async () => {
    const first = await createSignedInWalker(app, "First");
    const second = await createSignedInWalker(app, "Second");
    const browser = receiver.browser();
    expect((await as(first.cookie).post(PUSH_SUBSCRIPTIONS_PATH, browser.subscription)).statusCode).toBe(201);
    expect((await as(second.cookie).post(PUSH_SUBSCRIPTIONS_PATH, browser.subscription)).statusCode).toBe(
      201,
    );
    const firsts = (await as(first.cookie).get(PUSH_SUBSCRIPTIONS_PATH)).json<PushSubscriptionsResponse>();
    const seconds = (await as(second.cookie).get(PUSH_SUBSCRIPTIONS_PATH)).json<PushSubscriptionsResponse>();
    expect(firsts.items).toEqual([]);
    expect(seconds.items).toHaveLength(1);
  });
});

describe.each(dialects)("two API processes on one database (%s)", (dialect) => {
  let database: TestDatabase;
  let apps: FastifyInstance[];
  let receiver: PushReceiver;

  beforeAll(async () => {
    receiver = await PushReceiver.start();
    database = await createTestDatabase(dialect, { migrated: true });
    apps = [];
    for (let index = 0; index < 2; index++) {
      const app = await buildApp(
        testConfig({
          DATABASE_URL: database.url,
          PUSH_ENDPOINT_ORIGINS: receiver.origin,
          SESSION_SECRET: "a-session-secret-the-two-processes-share-0123456789",
        }),
        { logger: false, drawTickMs: null },
      );
      await app.ready();
      apps.push(app);
    }
  });
  afterAll(async () => {
    for (const app of apps ?? []) await app.close();
    await database?.drop();
    await receiver?.close();
  });

  it("sends each push once, with both workers looking", async () => {
    const [one, two] = apps as [FastifyInstance, FastifyInstance];
    const walkers = await Promise.all(["A", "B", "C", "D"].map((name) => createSignedInWalker(one, name)));
    const browsers = walkers.map(() => receiver.browser());
    for (const [index, walker] of walkers.entries()) {
      await two.inject({
        method: "POST",
        url: PUSH_SUBSCRIPTIONS_PATH,
        headers: { cookie: walker.cookie },
        payload: browsers[index]?.subscription,
      });
    }
    // Each event noticed by both processes at once: told once, pushed once, whichever sends it.
    await Promise.all(
      walkers.flatMap((walker) =>
        ["1", "2"].flatMap((key) =>
          [one, two].map((app) =>
            app.services.notifier.notify({
              userId: walker.user.id,
              kind: "prize_won",
              eventKey: key,
              title: "You won a prize!",
              body: `Prize ${key}`,
              url: "/prize-draw",
            }),
          ),
        ),
      ),
    );
    await receiver.waitFor(() => receiver.received.length >= 8);
    await Promise.all([one.services.push.runOnce(), two.services.push.runOnce()]);
    for (const browser of browsers) {
      expect(
        receiver
          .pushesTo(browser.id)
          .map((push) => push.payload.body)
          .sort(),
      ).toEqual(["Prize 1", "Prize 2"]);
    }
    expect(receiver.received).toHaveLength(8);
  });
  it(`holds the daily cap of ${PUSHES_PER_DAY} when both processes tell one walker at once`, async () => {
    const [one, two] = apps as [FastifyInstance, FastifyInstance];
    const walker = await createSignedInWalker(one, "Capped");
    const browser = receiver.browser();
    await one.inject({
      method: "POST",
      url: PUSH_SUBSCRIPTIONS_PATH,
      headers: { cookie: walker.cookie },
      payload: browser.subscription,
    });
    // Eight joins at once, half noticed by each process: all listed, three pushed.
    await Promise.all(
      Array.from({ length: 8 }, (_, index) =>
        (index % 2 === 0 ? one : two).services.notifier.notify({
          userId: walker.user.id,
          kind: "group_joined",
          eventKey: `capped-${index}`,
          title: "New member",
          body: `Joiner ${index}`,
          url: "/groups",
        }),
      ),
    );
    await receiver.waitFor(() => receiver.pushesTo(browser.id).length >= PUSHES_PER_DAY);
    await Promise.all([one.services.push.runOnce(), two.services.push.runOnce()]);
    expect(receiver.pushesTo(browser.id)).toHaveLength(PUSHES_PER_DAY);
    const rows = await one.database.db
      .selectFrom("notifications")
      .select("pushed")
      .where("user_id", "=", walker.user.id)
      .execute();
    expect(rows).toHaveLength(8);
    expect(rows.filter((row) => Number(row.pushed) === 1)).toHaveLength(PUSHES_PER_DAY);
  });
});

async function waitUntil(done: () => Promise<boolean>, timeoutMs = 15_000): Promise<void> {
  const until = Date.now() + timeoutMs;
  while (!(await done())) {
    if (Date.now() > until) throw new Error("timed out waiting");
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}
