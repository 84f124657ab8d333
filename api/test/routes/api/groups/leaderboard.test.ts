import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { buildTestApp, dialects, type TestApp } from "../../../helper.js";
import { type GroupsWalker, groupsWalker } from "../../../support/groups.js";

// 00:30 in London on Thursday 16 July 2026 (BST), still 15 July in UTC.
const NOW = new Date("2026-07-15T23:30:00Z");
const TODAY = "2026-07-16";
const YESTERDAY = "2026-07-15";

describe.each(dialects)("group leaderboard (%s)", (dialect) => {
  let testApp: TestApp;
  beforeAll(async () => {
    vi.useFakeTimers({ toFake: ["Date"] });
    vi.setSystemTime(NOW);
    testApp = await buildTestApp(dialect);
  });
  afterAll(async () => {
    await testApp.close();
    vi.useRealTimers();
  });

  const sync = async (walker: GroupsWalker, date: string, steps: number) => {
    const response = await walker.api.sync({ steps, date, source: "device_motion" });
    expect(response.statusCode, response.body).toBe(200);
  };
  const leaderboardOf = async (walker: GroupsWalker, groupId: number) => {
    const response = await walker.api.get(`/api/groups/${groupId}/leaderboard`);
    expect(response.statusCode).toBe(200);
    return response.json() as {
      rank: number;
      user: { firstName: string };
      todaySteps: number;
      monthlySteps: number;
    }[];
  };
  const rows = (entries: Awaited<ReturnType<typeof leaderboardOf>>) =>
    entries.map((entry) => [entry.rank, entry.user.firstName, entry.todaySteps, entry.monthlySteps]);

  it("ranks members by the London month's steps, ties sharing a rank, with London today beside it", async () => {
    const [first, second, cal, dan, eve, outsider] = await Promise.all(
      ["?", "?", "Cal", "Dan", "Eve", "Out"].map((name) => groupsWalker(testApp.app, name)),
    );
    if (!first || !second || !cal || !dan || !eve || !outsider) throw new Error("walkers missing");
    // Ann and Bea tie; Ann's id sorts after Bea's, so only the names can put her first.
    const [bea, ann] = [first, second].sort((a, b) => (a.user.id < b.user.id ? -1 : 1)) as [
      GroupsWalker,
      GroupsWalker,
    ];
    for (const [walker, name] of [
      [ann, "Ann"],
      [bea, "Bea"],
    ] as const) {
      await testApp.app.database.db
        .updateTable("users")
        .set({ first_name: name })
        .where("id", "=", walker.user.id)
        .execute();
    }
    // Eve is the admin and never walks; the others join.
    const group = (await eve.api.createGroup("Summer league")).json();
    for (const walker of [bea, ann, cal, dan]) await walker.api.join(group.joinCode);

    // Bea: 12,000 this month, 5,000 of them today (London), 7,000 on the UTC date.
    await sync(bea, TODAY, 5_000);
    await sync(bea, YESTERDAY, 7_000);
    // Ann: the same month total, all from earlier days (one of them in June, which does not count).
    await sync(ann, "2026-07-14", 12_000);
    await sync(ann, "2026-06-30", 40_000);
    // Cal: 3,000 today only.
    await sync(cal, TODAY, 3_000);
    // An earlier day of the month counts too.
    await sync(cal, "2026-07-02", 500);
    // Someone outside the group walks far more; they are not on this board.
    await sync(outsider, TODAY, 50_000);

    const entries = await leaderboardOf(dan, group.id);
    expect(rows(entries)).toEqual([
      [1, "Ann", 0, 12_000],
      [1, "Bea", 5_000, 12_000],
      [3, "Cal", 3_000, 3_500],
      [4, "Dan", 0, 0],
      [4, "Eve", 0, 0],
    ]);
    // Exactly the schema's fields (the list is written by JSON.stringify, not the schema's serializer).
    expect(entries[0]).toStrictEqual({
      rank: 1,
      user: { id: ann.user.id, firstName: "Ann", lastName: "Walker", profileImageUrl: null },
      todaySteps: 0,
      monthlySteps: 12_000,
    });
    expect(JSON.stringify(entries)).not.toContain("@");
    expect(await leaderboardOf(eve, group.id)).toEqual(entries);

    // Dan walks past everyone today; the order follows.
    await sync(dan, TODAY, 20_000);
    expect(rows(await leaderboardOf(ann, group.id))).toEqual([
      [1, "Dan", 20_000, 20_000],
      [2, "Ann", 0, 12_000],
      [2, "Bea", 5_000, 12_000],
      [4, "Cal", 3_000, 3_500],
      [5, "Eve", 0, 0],
    ]);

    // Leaving takes a walker off the board and nothing off their steps.
    await cal.api.post(`/api/groups/${group.id}/leave`);
    expect((await leaderboardOf(ann, group.id)).map((entry) => entry.user.firstName)).toEqual([
      "Dan",
      "Ann",
      "Bea",
      "Eve",
    ]);
    expect((await cal.api.get("/api/steps/today")).json()).toEqual({ date: TODAY, steps: 3_000 });
  });

  it("orders tied walkers by name as a reader would, whatever the case or accents, on either database", async () => {
    const names = ["zoë", "Émile", "eve", "Adam", "ZACK", "emma"];
    const walkers = await Promise.all(names.map((name) => groupsWalker(testApp.app, name)));
    const [admin] = walkers;
    if (!admin || walkers.some((walker) => !walker)) throw new Error("walkers missing");
    const group = (await admin.api.createGroup("Ties")).json();
    for (const walker of walkers.slice(1)) await walker?.api.join(group.joinCode);
    for (const [index, walker] of walkers.entries()) {
      await testApp.app.database.db
        .updateTable("users")
        .set({ first_name: names[index] ?? null })
        .where("id", "=", walker?.user.id ?? "")
        .execute();
    }

    expect((await leaderboardOf(admin, group.id)).map((entry) => [entry.rank, entry.user.firstName])).toEqual(
      [
        [1, "Adam"],
        [1, "Émile"],
        [1, "emma"],
        [1, "eve"],
        [1, "ZACK"],
        [1, "zoë"],
      ],
    );
  });

  it("starts a new month at London midnight, not UTC's", async () => {
    const [walker, friend] = await Promise.all([
      groupsWalker(testApp.app, "Fay"),
      groupsWalker(testApp.app, "Gus"),
    ]);
    if (!walker || !friend) throw new Error("walkers missing");
    const group = (await walker.api.createGroup("Month end")).json();
    await friend.api.join(group.joinCode);
    try {
      // 23:30 UTC on 31 July is 00:30 on 1 August in London.
      vi.setSystemTime(new Date("2026-07-31T23:30:00Z"));
      await sync(walker, "2026-07-31", 9_000);
      await sync(walker, "2026-08-01", 1_000);
      await sync(friend, "2026-07-20", 30_000);
      expect(rows(await leaderboardOf(friend, group.id))).toEqual([
        [1, "Fay", 1_000, 1_000],
        [2, "Gus", 0, 0],
      ]);
    } finally {
      vi.setSystemTime(NOW);
    }
  });
});
