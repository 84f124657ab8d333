import { GROUPS_PER_WALKER_MAX, JOIN_CODE_ALPHABET, JOIN_CODE_LENGTH } from "@charity-steps/shared-types";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { GroupsRepository, randomJoinCode } from "../../../../src/repositories/groups.js";
import { buildTestApp, dialects, type TestApp } from "../../../helper.js";
import { TEST_MONTH, TEST_TODAY, useTestClock } from "../../../support/clock.js";
import { groupsWalker } from "../../../support/groups.js";

const JOIN_CODE = new RegExp(`^[${JOIN_CODE_ALPHABET}]{${JOIN_CODE_LENGTH}}$`);
const ISO = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;

describe("join codes", () => {
  it("are 8 upper-case letters and digits without look-alikes", () => {
    expect(JOIN_CODE_ALPHABET).not.toMatch(/[0O1IL]/);
    for (let i = 0; i < 1_000; i++) expect(randomJoinCode()).toMatch(JOIN_CODE);
  });
});

useTestClock();

describe.each(dialects)("groups (%s)", (dialect) => {
  let testApp: TestApp;
  beforeAll(async () => {
    testApp = await buildTestApp(dialect);
  });
  afterAll(async () => testApp.close());

  const newWalker = (name?: string) => groupsWalker(testApp.app, name);

  it(`lets a walker be in at most ${GROUPS_PER_WALKER_MAX} groups, started or joined, even when asked twice at once`, async () => {
    const walker = await newWalker("Busy");
    const other = await newWalker("Other");
    const theirs = (await other.api.createGroup("Their walk")).json();
    const made: number[] = [];
    for (let index = 0; index < GROUPS_PER_WALKER_MAX - 1; index++) {
      const created = await walker.api.createGroup(`Walk ${index + 1}`);
      expect(created.statusCode).toBe(201);
      made.push(created.json().id);
    }
    // One place left, asked for twice at once: one of the two takes it.
    const both = await Promise.all([walker.api.createGroup("Fiftieth"), walker.api.join(theirs.joinCode)]);
    expect(both.map((response) => response.statusCode).sort()).toEqual([201, 409]);
    const refused = both.find((response) => response.statusCode === 409);
    const message = `You are in ${GROUPS_PER_WALKER_MAX} groups, the most a walker can be in. Leave one to start or join another.`;
    expect(refused?.json().message).toBe(message);
    const listed = (await walker.api.get("/api/groups")).json();
    expect(listed).toHaveLength(GROUPS_PER_WALKER_MAX);
    // Full: neither a new group nor someone else's, and nothing is stored.
    const again = await walker.api.createGroup("One more");
    expect(again.statusCode).toBe(409);
    expect(again.json().message).toBe(message);
    if (both[1].statusCode === 409) expect((await walker.api.join(theirs.joinCode)).statusCode).toBe(409);
    expect((await walker.api.get("/api/groups")).json()).toHaveLength(GROUPS_PER_WALKER_MAX);
    // Leaving (here: deleting one they started) makes room again.
    expect((await walker.api.delete(`/api/groups/${made[0]}`)).statusCode).toBe(204);
    expect((await walker.api.createGroup("Room again")).statusCode).toBe(201);
  });

  it("makes the creator admin and first member, with the name and description trimmed", async () => {
    const admin = await newWalker("Ada");
    const created = await admin.api.createGroup("  Morning walkers  ", "\n  Before work, every day. ");
    expect(created.statusCode).toBe(201);
    const group = created.json();
    expect(group).toEqual({
      id: expect.any(Number),
      name: "Morning walkers",
      description: "Before work, every day.",
      joinCode: expect.stringMatching(JOIN_CODE),
      adminUserId: admin.user.id,
      createdAt: expect.stringMatching(ISO),
      memberCount: 1,
    });
    expect(Number.isInteger(group.id) && group.id > 0).toBe(true);

    expect((await admin.api.get(`/api/groups/${group.id}`)).json()).toEqual(group);
    expect((await admin.api.get("/api/groups")).json()).toEqual([
      { ...group, isAdmin: true, joinedAt: group.createdAt },
    ]);

    const noDescription = await admin.api.createGroup("Lunch loop");
    expect(noDescription.json()).toMatchObject({ name: "Lunch loop", description: "" });
    const list = (await admin.api.get("/api/groups")).json();
    expect(list.map((g: { name: string }) => g.name)).toEqual(["Lunch loop", "Morning walkers"]);
  });

  it("lists only the walker's own groups, with member counts and whether they are admin", async () => {
    const ada = await newWalker("Ada");
    const bo = await newWalker("Bo");
    const stranger = await newWalker("Cy");
    const adas = (await ada.api.createGroup("Ada's group")).json();
    const bos = (await bo.api.createGroup("Bo's group")).json();
    await (await newWalker()).api.createGroup("Someone else's group");
    await ada.api.join(bos.joinCode);

    const listed = (await ada.api.get("/api/groups")).json();
    expect(listed).toEqual([
      expect.objectContaining({
        id: bos.id,
        isAdmin: false,
        memberCount: 2,
        joinedAt: expect.stringMatching(ISO),
      }),
      expect.objectContaining({ id: adas.id, isAdmin: true, memberCount: 1 }),
    ]);
    expect((await bo.api.get("/api/groups")).json()).toEqual([
      expect.objectContaining({ id: bos.id, isAdmin: true, memberCount: 2 }),
    ]);
    expect((await stranger.api.get("/api/groups")).json()).toEqual([]);
  });

  it("gives 200 groups 200 different join codes from the alphabet", async () => {
    // Four walkers, each starting as many groups as a walker can be in.
    const walkers = await Promise.all([1, 2, 3, 4].map(() => newWalker()));
    const codes = new Set<string>();
    for (let i = 0; i < 200; i++) {
      const { api } = walkers[i % 4] as (typeof walkers)[number];
      const response = await api.createGroup(`Group ${i}`);
      expect(response.statusCode).toBe(201);
      const { joinCode } = response.json();
      expect(joinCode).toMatch(JOIN_CODE);
      codes.add(joinCode);
    }
    expect(codes.size).toBe(200);
    for (const { api } of walkers) expect((await api.get("/api/groups")).json()).toHaveLength(50);
  });

  it("picks another join code when a new one is already taken", async () => {
    const { user, api } = await newWalker();
    const taken = (await api.createGroup("First")).json().joinCode;
    const offered = [taken, taken, "HJKMNPQR"];
    const repository = new GroupsRepository(testApp.app.database, () => offered.shift() ?? randomJoinCode());
    const group = await repository.create({ adminUserId: user.id, name: "Second", description: "" });
    expect(group).toMatchObject({ joinCode: "HJKMNPQR", memberCount: 1 });
    expect(offered).toEqual([]);
    // The clashing attempts left nothing behind.
    expect((await api.get("/api/groups")).json().map((g: { name: string }) => g.name)).toEqual([
      "Second",
      "First",
    ]);

    const stuck = new GroupsRepository(testApp.app.database, () => taken);
    await expect(stuck.create({ adminUserId: user.id, name: "Never", description: "" })).rejects.toThrow();
    expect((await api.get("/api/groups")).json()).toHaveLength(2);
  });

  it("joins with the code in lower case and with spaces, and never twice", async () => {
    const admin = await newWalker("Ada");
    const group = (await admin.api.createGroup("Canal walkers")).json();
    const joiner = await newWalker("Bo");
    const lower = await joiner.api.join(group.joinCode.toLowerCase());
    expect(lower.statusCode).toBe(201);
    expect(lower.json()).toEqual({ ...group, memberCount: 2 });

    const spaced = `  ${group.joinCode.slice(0, 4).toLowerCase()} ${group.joinCode.slice(4)}\t`;
    const again = await joiner.api.join(spaced);
    expect(again.statusCode).toBe(200);
    expect(again.json()).toEqual({ ...group, memberCount: 2 });
    // As a message app may show it: a dash, or an en dash, between its halves.
    for (const dash of ["-", "\u2013"]) {
      const dashed = `${group.joinCode.slice(0, 4)}${dash}${group.joinCode.slice(4)}`;
      expect((await joiner.api.join(dashed)).statusCode, dashed).toBe(200);
    }
    expect((await admin.api.join(group.joinCode)).statusCode).toBe(200);

    const [twice, thrice] = await Promise.all([
      joiner.api.join(group.joinCode),
      joiner.api.join(group.joinCode),
    ]);
    expect([twice?.statusCode, thrice?.statusCode]).toEqual([200, 200]);
    expect((await admin.api.get(`/api/groups/${group.id}/members`)).json()).toHaveLength(2);
    expect((await joiner.api.get("/api/groups")).json()).toHaveLength(1);
  });

  it("shows members their fellow members in joining order, never with an email", async () => {
    const admin = await newWalker("Ada");
    const member = await newWalker("Bo");
    const group = (await admin.api.createGroup("Park runners")).json();
    // Joined in a later millisecond than the group was made (in the same one, ids break the tie).
    await new Promise((resolve) => setTimeout(resolve, 2));
    await member.api.join(group.joinCode);

    const members = await member.api.get(`/api/groups/${group.id}/members`);
    expect(members.statusCode).toBe(200);
    expect(members.json()).toEqual([
      {
        userId: admin.user.id,
        joinedAt: group.createdAt,
        user: { id: admin.user.id, firstName: "Ada", lastName: "Walker", profileImageUrl: null },
      },
      {
        userId: member.user.id,
        joinedAt: expect.stringMatching(ISO),
        user: { id: member.user.id, firstName: "Bo", lastName: "Walker", profileImageUrl: null },
      },
    ]);
    const leaderboard = await member.api.get(`/api/groups/${group.id}/leaderboard`);
    for (const body of [members.body, leaderboard.body]) {
      expect(body).not.toContain("@");
      expect(body).not.toContain("email");
      expect(body).not.toContain(admin.user.email);
    }
  });

  it("lets a member leave, keeping their steps, and then keeps them out", async () => {
    const admin = await newWalker("Ada");
    const member = await newWalker("Bo");
    const group = (await admin.api.createGroup("Hill walkers")).json();
    await member.api.join(group.joinCode);
    await member.api.sync({ steps: 4_321, date: TEST_TODAY, source: "device_motion" });
    const before = [
      (await member.api.get("/api/steps/today")).json(),
      (await member.api.get("/api/steps/monthly")).json(),
    ];
    expect(before[0].steps).toBe(4_321);

    const left = await member.api.post(`/api/groups/${group.id}/leave`);
    expect(left.statusCode).toBe(204);
    expect([
      (await member.api.get("/api/steps/today")).json(),
      (await member.api.get("/api/steps/monthly")).json(),
    ]).toEqual(before);
    expect((await member.api.get("/api/groups")).json()).toEqual([]);
    expect((await member.api.get(`/api/groups/${group.id}`)).statusCode).toBe(403);
    expect((await member.api.post(`/api/groups/${group.id}/leave`)).statusCode).toBe(403);
    expect((await admin.api.get(`/api/groups/${group.id}`)).json().memberCount).toBe(1);
    expect((await admin.api.get(`/api/groups/${group.id}/leaderboard`)).json()).toHaveLength(1);

    expect((await member.api.join(group.joinCode)).statusCode).toBe(201);
  });

  it("lets the admin delete the group: every membership goes, every walker's steps stay", async () => {
    const admin = await newWalker("Ada");
    const member = await newWalker("Bo");
    const group = (await admin.api.createGroup("Weekend hikers")).json();
    await member.api.join(group.joinCode);
    const today = TEST_TODAY;
    await admin.api.sync({ steps: 2_000, date: today, source: "device_motion" });
    await member.api.sync({ steps: 9_000, date: today, source: "device_motion" });

    expect((await member.api.delete(`/api/groups/${group.id}`)).statusCode).toBe(403);
    const deleted = await admin.api.delete(`/api/groups/${group.id}`);
    expect(deleted.statusCode).toBe(204);

    expect((await admin.api.get("/api/steps/today")).json()).toEqual({ date: today, steps: 2_000 });
    expect((await member.api.get("/api/steps/today")).json()).toEqual({ date: today, steps: 9_000 });
    expect((await member.api.get("/api/steps/monthly")).json()).toEqual({
      month: TEST_MONTH,
      steps: 9_000,
    });
    for (const walker of [admin, member]) {
      expect((await walker.api.get("/api/groups")).json()).toEqual([]);
      expect((await walker.api.get(`/api/groups/${group.id}`)).statusCode).toBe(404);
    }
    const memberships = await testApp.app.database.db
      .selectFrom("group_members")
      .selectAll()
      .where("group_id", "=", group.id)
      .execute();
    expect(memberships).toEqual([]);
    expect((await member.api.join(group.joinCode)).statusCode).toBe(404);
    expect((await admin.api.delete(`/api/groups/${group.id}`)).statusCode).toBe(404);

    // A new group never takes the deleted one's id.
    expect((await admin.api.createGroup("Weekend hikers again")).json().id).toBeGreaterThan(group.id);
  });
});
