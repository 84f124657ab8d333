import { randomUUID } from "node:crypto";
import {
  BADGES_PATH,
  type BadgesResponse,
  CHALLENGE_LEADERBOARD_PAGE,
  CHALLENGE_MESSAGES,
  CHALLENGES_JOINED_MAX,
  CHALLENGES_PATH,
  type ChallengeInput,
  type ChallengeItem,
  type ChallengeLeaderboardResponse,
  challengeCertificatePath,
  challengeFundraisingPath,
  challengeJoinPath,
  challengeLeaderboardPath,
  challengeLeavePath,
  challengePath,
  challengePublicPath,
  DAY_PRIZE_CEILING_STEPS,
  FUNDRAISING_HOSTS,
  GROUP_RUNNING_CHALLENGES_MAX,
  groupChallengesPath,
  isolated,
  NOTIFICATIONS_PATH,
  type NotificationsResponse,
  OPERATOR_CHALLENGES_PATH,
  operatorChallengePath,
  type PublicChallenge,
} from "@charity-steps/shared-types";
import type { FastifyInstance } from "fastify";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { CERTIFICATES_DRAWN_PER_MINUTE } from "../../../../src/challenges/challenge-service.js";
import { READINGS_SHARED_MS } from "../../../../src/db/shared-readings.js";
import { buildTestApp, createSignedInWalker, dialects, type TestApp } from "../../../helper.js";
import { atMoment, TEST_NOW, TEST_TODAY, useTestClock } from "../../../support/clock.js";
import { OPERATOR_EMAIL, OPERATOR_ENV, walkerWithEmail } from "../../../support/operators.js";
import { stepsClient, walkedOn } from "../../../support/steps.js";

// 21 November 2026, 12:00 London, whatever day the tests run on.
useTestClock();

const challenge = (overrides: Partial<ChallengeInput> = {}): ChallengeInput => ({
  name: "Walk All Over Winter",
  description: "Walk 100,000 steps before December.",
  charityName: "Cancer Research UK",
  kind: "total_steps",
  target: 100_000,
  dailyTarget: null,
  startsOn: "2026-11-21",
  endsOn: "2026-11-30",
  ...overrides,
});

/** A PNG's width and height, from its IHDR chunk. */
function pngSize(bytes: Buffer): { width: number; height: number } {
  expect(bytes.subarray(1, 4).toString("latin1")).toBe("PNG");
  return { width: bytes.readUInt32BE(16), height: bytes.readUInt32BE(20) };
}

describe.each(dialects)("challenges (%s)", (dialect) => {
  let testApp: TestApp;
  let app: FastifyInstance;
  let operator: ReturnType<typeof stepsClient>;
  beforeAll(async () => {
    testApp = await buildTestApp(dialect, OPERATOR_ENV);
    app = testApp.app;
    operator = stepsClient(app, (await walkerWithEmail(app, OPERATOR_EMAIL, true)).cookie);
  });
  afterAll(async () => {
    await testApp?.close();
  });

  async function walker(name: string) {
    const created = await createSignedInWalker(app, name);
    return { ...created, api: stepsClient(app, created.cookie) };
  }
  const createPublic = async (overrides: Partial<ChallengeInput> = {}) => {
    const created = await operator.post(OPERATOR_CHALLENGES_PATH, challenge(overrides));
    expect(created.statusCode, created.body).toBe(201);
    return created.json<ChallengeItem>();
  };

  it("lets an operator set a public challenge, and refuses what makes no sense with a message naming it", async () => {
    const created = await createPublic();
    expect(created).toEqual({
      id: expect.any(String),
      name: "Walk All Over Winter",
      description: "Walk 100,000 steps before December.",
      charityName: "Cancer Research UK",
      kind: "total_steps",
      target: 100_000,
      dailyTarget: null,
      startsOn: "2026-11-21",
      endsOn: "2026-11-30",
      scope: "public",
      groupId: null,
      joined: false,
      progress: null,
      completedAt: null,
    });
    for (const [body, message] of [
      [challenge({ dailyTarget: 5_000 }), CHALLENGE_MESSAGES.dailyTargetOnlyForDaily],
      [challenge({ kind: "daily_target" }), CHALLENGE_MESSAGES.dailyTargetNeeded],
      [challenge({ kind: "daily_target", dailyTarget: 8_000, target: 11 }), CHALLENGE_MESSAGES.daysTarget],
      [challenge({ endsOn: "2027-02-21" }), CHALLENGE_MESSAGES.tooLong],
      [challenge({ endsOn: "2026-11-20" }), CHALLENGE_MESSAGES.endsBeforeStart],
      [challenge({ startsOn: "2026-11-20" }), CHALLENGE_MESSAGES.startsInPast],
      [challenge({ startsOn: "2026-02-30" }), "startsOn must be a real date, YYYY-MM-DD."],
      // Marks and fillers show nothing: a name of them alone is blank.
      [{ ...challenge(), name: " \u200B\u200F\u3164 " }, "name must not be blank."],
    ] as const) {
      const refused = await operator.post(OPERATOR_CHALLENGES_PATH, body);
      expect(refused.statusCode, message).toBe(400);
      expect(refused.json().message).toBe(message);
    }
    // The longest period, 92 days counting both ends, is allowed.
    expect(
      (await operator.post(OPERATOR_CHALLENGES_PATH, challenge({ endsOn: "2027-02-20" }))).statusCode,
    ).toBe(201);
    for (const [body, field] of [
      [{ ...challenge(), name: "x".repeat(81) }, "name"],
      [{ ...challenge(), name: "tab\there" }, "name"],
      [{ ...challenge(), description: "d".repeat(1_001) }, "description"],
      [{ ...challenge(), target: 10_000_001 }, "target"],
      [{ ...challenge(), charityName: "Another Charity" }, "charityName"],
      [{ ...challenge(), scope: "group" }, "scope"],
    ] as const) {
      const refused = await operator.post(OPERATOR_CHALLENGES_PATH, body);
      expect(refused.statusCode, field).toBe(400);
      expect(refused.json().message).toContain(field);
    }
    // A walker who is no operator finds nothing there.
    const ada = await walker("Ada");
    expect((await ada.api.post(OPERATOR_CHALLENGES_PATH, challenge())).statusCode).toBe(404);
  });

  it("counts a walker's steps since the start, walked before joining too, and completes once, with a badge, word of it and a certificate", async () => {
    const item = await createPublic({ name: "Winter Hundred K", target: 30_000 });
    const ada = await walker("Ada");
    await walkedOn(app, ada.user.id, "2026-11-20", 50_000); // the day before: not counted
    await walkedOn(app, ada.user.id, "2026-11-21", 12_345);
    const joined = await ada.api.post(challengeJoinPath(item.id));
    expect(joined.statusCode).toBe(201);
    expect(joined.json<ChallengeItem>()).toMatchObject({
      joined: true,
      progress: { value: 12_345, target: 30_000, percent: 41 },
      completedAt: null,
    });
    // Joining again changes nothing.
    const again = await ada.api.post(challengeJoinPath(item.id));
    expect(again.statusCode).toBe(200);
    expect(again.json<ChallengeItem>().joined).toBe(true);
    const early = await ada.api.get(challengeCertificatePath(item.id));
    expect(early.statusCode).toBe(409);
    expect(early.json().message).toBe(CHALLENGE_MESSAGES.notCompleted);

    await walkedOn(app, ada.user.id, "2026-11-22", 17_655);
    const done = await atMoment("2026-11-22T18:00:00Z", async () =>
      (await ada.api.get(challengePath(item.id))).json<ChallengeItem>(),
    );
    expect(done.progress).toEqual({ value: 30_000, target: 30_000, percent: 100 });
    // The test's clock runs on from the moment it is set.
    expect(done.completedAt).toMatch(/^2026-11-22T18:00:0\d/);
    // More steps later: still 100%, and completed when it first was.
    await walkedOn(app, ada.user.id, "2026-11-23", 40_000);
    const later = await atMoment("2026-11-23T18:00:00Z", async () =>
      (await ada.api.get(CHALLENGES_PATH)).json<{ items: ChallengeItem[] }>(),
    );
    const listed = later.items.find((each) => each.id === item.id);
    expect(listed?.progress).toEqual({ value: 70_000, target: 30_000, percent: 100 });
    expect(listed?.completedAt).toBe(done.completedAt);

    const told = (await ada.api.get(NOTIFICATIONS_PATH)).json<NotificationsResponse>().items;
    expect(told.filter((each) => each.kind === "challenge_completed")).toEqual([
      expect.objectContaining({
        title: "Challenge completed!",
        body: `You completed "${isolated("Winter Hundred K")}". Your certificate is ready.`,
        url: `/challenges/${item.id}`,
      }),
    ]);
    const badges = (await ada.api.get(BADGES_PATH)).json<BadgesResponse>().items;
    expect(badges.find((badge) => badge.name === "Completed: Winter Hundred K")).toMatchObject({
      earnedAt: done.completedAt,
    });

    const certificate = await ada.api.get(challengeCertificatePath(item.id));
    expect(certificate.statusCode).toBe(200);
    expect(certificate.headers["content-type"]).toBe("image/png");
    expect(certificate.headers["content-disposition"]).toBe(
      'attachment; filename="charity-steps-winter-hundred-k-certificate.png"',
    );
    expect(pngSize(certificate.rawPayload)).toEqual({ width: 1200, height: 630 });
    // Drawing a certificate holds the server a moment: six a minute per walker; one drawn before is kept.
    for (let index = 1; index < CERTIFICATES_DRAWN_PER_MINUTE; index++) {
      await ada.api.put(challengeFundraisingPath(item.id), {
        url: `https://www.justgiving.com/page/ada-${index}`,
      });
      expect((await ada.api.get(challengeCertificatePath(item.id))).statusCode, `drawing ${index + 1}`).toBe(
        200,
      );
    }
    await ada.api.put(challengeFundraisingPath(item.id), { url: "https://www.justgiving.com/page/ada-more" });
    const tooFast = await ada.api.get(challengeCertificatePath(item.id));
    expect(tooFast.statusCode).toBe(429);
    expect(tooFast.json().message).toBe(CHALLENGE_MESSAGES.certificatesTooFast);
    await ada.api.put(challengeFundraisingPath(item.id), { url: "https://www.justgiving.com/page/ada-1" });
    expect((await ada.api.get(challengeCertificatePath(item.id))).statusCode).toBe(200);
    // Someone not in it: no certificate of theirs to give.
    const bo = await walker("Bo");
    expect((await bo.api.get(challengeCertificatePath(item.id))).statusCode).toBe(404);
  });

  it("counts days on target from the first London day to the last, across a clock change", async () => {
    const item = await atMoment("2026-10-20T12:00:00Z", async () =>
      createPublic({
        name: "Three October days",
        kind: "daily_target",
        dailyTarget: 10_000,
        target: 3,
        startsOn: "2026-10-24",
        endsOn: "2026-10-26",
      }),
    );
    const cy = await walker("Cy");
    await walkedOn(app, cy.user.id, "2026-10-23", 15_000); // before the first day
    await walkedOn(app, cy.user.id, "2026-10-24", 10_000); // the first day, just on target
    await walkedOn(app, cy.user.id, "2026-10-25", 9_999); // the clocks go back: one short
    await walkedOn(app, cy.user.id, "2026-10-26", 20_000); // the last day
    await walkedOn(app, cy.user.id, "2026-10-27", 20_000); // after it
    const during = await atMoment("2026-10-26T23:30:00Z", async () => {
      // 23:30 UTC on the 26th is still the 26th in London (GMT again): the challenge runs.
      expect((await cy.api.post(challengeJoinPath(item.id))).statusCode).toBe(201);
      return (await cy.api.get(challengePath(item.id))).json<ChallengeItem>();
    });
    expect(during.progress).toEqual({ value: 2, target: 3, percent: 66 });
    expect(during.completedAt).toBeNull();
    // After its end, joining is refused.
    const dee = await walker("Dee");
    const late = await atMoment("2026-10-27T00:30:00Z", () => dee.api.post(challengeJoinPath(item.id)));
    expect(late.statusCode).toBe(409);
    expect(late.json().message).toBe(CHALLENGE_MESSAGES.ended);
  });

  it("lets a group's admin set a team target its members reach together; others find nothing", async () => {
    const admin = await walker("Ann");
    const member = await walker("Max");
    const outsider = await walker("Oz");
    const group = (await admin.api.post("/api/groups", { name: "Canal Walkers" })).json<{
      id: number;
      joinCode: string;
    }>();
    await member.api.post("/api/groups/join", { joinCode: group.joinCode });
    const team = challenge({
      name: "Canal Quarter Million",
      kind: "team_total",
      target: 40_000,
      charityName: null,
    });
    expect((await member.api.post(groupChallengesPath(group.id), team)).statusCode).toBe(403);
    expect((await outsider.api.post(groupChallengesPath(group.id), team)).statusCode).toBe(404);
    const created = await admin.api.post(groupChallengesPath(group.id), team);
    expect(created.statusCode).toBe(201);
    const item = created.json<ChallengeItem>();
    expect(item).toMatchObject({ scope: "group", groupId: group.id, joined: false, kind: "team_total" });

    // Closed to anyone outside the group, and not on the public page.
    for (const path of [challengePath(item.id), challengeLeaderboardPath(item.id)]) {
      expect((await outsider.api.get(path)).statusCode, path).toBe(404);
    }
    expect((await outsider.api.post(challengeJoinPath(item.id))).statusCode).toBe(404);
    expect((await app.inject({ method: "GET", url: challengePublicPath(item.id) })).statusCode).toBe(404);
    const outsiderList = (await outsider.api.get(CHALLENGES_PATH)).json<{ items: ChallengeItem[] }>();
    expect(outsiderList.items.map((each) => each.id)).not.toContain(item.id);
    // Members see it before joining; the admin is not joined by making it.
    const memberList = (await member.api.get(CHALLENGES_PATH)).json<{ items: ChallengeItem[] }>();
    expect(memberList.items.find((each) => each.id === item.id)?.joined).toBe(false);

    await admin.api.post(challengeJoinPath(item.id));
    await walkedOn(app, admin.user.id, "2026-11-21", 25_000);
    await walkedOn(app, member.user.id, "2026-11-21", 14_000);
    expect((await admin.api.get(challengePath(item.id))).json<ChallengeItem>().progress).toEqual({
      value: 25_000,
      target: 40_000,
      percent: 62,
    });
    // The second member's steps count once they join, and complete it for both.
    const joined = (await member.api.post(challengeJoinPath(item.id))).json<ChallengeItem>();
    expect(joined.progress).toEqual({ value: 39_000, target: 40_000, percent: 97 });
    await walkedOn(app, member.user.id, "2026-11-22", 1_000);
    const done = await atMoment("2026-11-22T09:00:00Z", async () =>
      (await member.api.get(challengePath(item.id))).json<ChallengeItem>(),
    );
    expect(done.completedAt).toMatch(/^2026-11-22T09:00:0\d/);
    expect((await admin.api.get(challengePath(item.id))).json<ChallengeItem>().completedAt).toBe(
      done.completedAt,
    );
    // Read on the 22nd: the days so far are the 21st and the 22nd.
    const board = await atMoment("2026-11-22T09:05:00Z", async () =>
      (await admin.api.get(challengeLeaderboardPath(item.id))).json<ChallengeLeaderboardResponse>(),
    );
    expect(board).toEqual({
      items: [
        {
          rank: 1,
          displayName: "Ann W",
          progress: { value: 25_000, target: 40_000, percent: 62 },
          fundraisingUrl: null,
        },
        {
          rank: 2,
          displayName: "Max W",
          progress: { value: 15_000, target: 40_000, percent: 37 },
          fundraisingUrl: null,
        },
      ],
      nextCursor: null,
    });
    expect(JSON.stringify(board)).not.toContain("@");

    // At most five not ended at once.
    for (let index = 1; index < GROUP_RUNNING_CHALLENGES_MAX; index++) {
      expect(
        (await admin.api.post(groupChallengesPath(group.id), { ...team, name: `More ${index}` })).statusCode,
      ).toBe(201);
    }
    const sixth = await admin.api.post(groupChallengesPath(group.id), { ...team, name: "One too many" });
    expect(sixth.statusCode).toBe(409);
    expect(sixth.json().message).toBe(CHALLENGE_MESSAGES.tooManyRunning);
  });

  it("counts an admin's challenges asked for at once one after another: five, never more", async () => {
    const admin = await walker("Rae");
    const group = (await admin.api.post("/api/groups", { name: "Racers" })).json();
    const team = { ...challenge(), kind: "total_steps", target: 40_000 };
    const answers = await Promise.all(
      Array.from({ length: 12 }, (_, index) =>
        admin.api.post(groupChallengesPath(group.id), { ...team, name: `At once ${index}` }),
      ),
    );
    const statuses = answers.map((answer) => answer.statusCode).sort();
    expect(statuses).toEqual([...Array(5).fill(201), ...Array(7).fill(409)]);
    const stored = await app.database.db
      .selectFrom("challenges")
      .select((eb) => eb.fn.countAll<number>().as("count"))
      .where("group_id", "=", group.id)
      .executeTakeFirstOrThrow();
    expect(Number(stored.count)).toBe(GROUP_RUNNING_CHALLENGES_MAX);
  });

  it("takes a fundraising page only on the listed sites, over https, from a walker in the challenge", async () => {
    const item = await createPublic({ name: "Fundraisers" });
    const eve = await walker("Eve");
    const link = "https://www.justgiving.com/page/eve-walks";
    const notYet = await eve.api.put(challengeFundraisingPath(item.id), { url: link });
    expect(notYet.statusCode).toBe(409);
    expect(notYet.json().message).toBe(CHALLENGE_MESSAGES.fundraisingNotJoined);
    await eve.api.post(challengeJoinPath(item.id));
    for (const url of [
      "http://www.justgiving.com/page/eve",
      "https://justgiving.com.evil.example/page",
      "https://notjustgiving.com/page",
      "https://user:pass@justgiving.com/page",
      "https://justgiving.com:8443/page",
      "javascript:alert(1)",
      "not a url",
    ]) {
      const refused = await eve.api.put(challengeFundraisingPath(item.id), { url });
      expect(refused.statusCode, url).toBe(400);
      expect(refused.json().message, url).toBe(CHALLENGE_MESSAGES.fundraisingUrl);
      for (const host of FUNDRAISING_HOSTS) expect(refused.json().message).toContain(host);
    }
    // A NUL (PostgreSQL cannot store it) or a bidirectional override inside an allowed link.
    for (const url of ["https://www.justgiving.com/page/a\u0000b", "https://www.justgiving.com/\u202Eevil"]) {
      const refused = await eve.api.put(challengeFundraisingPath(item.id), { url });
      expect(refused.statusCode, url).toBe(400);
      expect(refused.json().message, url).toBe("url must not contain control characters.");
    }
    for (const url of [
      "https://bhf.org.uk/my-page",
      "https://fundraise.cancerresearchuk.org/page/eve",
      link,
    ]) {
      expect((await eve.api.put(challengeFundraisingPath(item.id), { url })).statusCode, url).toBe(204);
    }
    const board = (await eve.api.get(challengeLeaderboardPath(item.id))).json<ChallengeLeaderboardResponse>();
    expect(board.items[0]?.fundraisingUrl).toBe(link);
    expect(
      (
        await app.inject({
          method: "DELETE",
          url: challengeFundraisingPath(item.id),
          headers: { cookie: eve.cookie },
        })
      ).statusCode,
    ).toBe(204);
    expect(
      (await eve.api.get(challengeLeaderboardPath(item.id))).json<ChallengeLeaderboardResponse>().items[0]
        ?.fundraisingUrl,
    ).toBeNull();
  });

  it("shows a public challenge's totals to anyone, with no names, and pages its leaderboard", async () => {
    const item = await createPublic({ name: "Sixty walkers", target: 1_000_000 });
    const walkers = [];
    for (let index = 0; index < CHALLENGE_LEADERBOARD_PAGE + 10; index++) {
      const each = await walker(`W${String(index).padStart(2, "0")}`);
      await walkedOn(app, each.user.id, "2026-11-21", 1_000 + index);
      await each.api.post(challengeJoinPath(item.id));
      walkers.push(each);
    }
    const open = await app.inject({ method: "GET", url: challengePublicPath(item.id) });
    expect(open.statusCode).toBe(200);
    expect(open.json<PublicChallenge>()).toEqual({
      id: item.id,
      name: "Sixty walkers",
      description: "Walk 100,000 steps before December.",
      charityName: "Cancer Research UK",
      kind: "total_steps",
      target: 1_000_000,
      startsOn: "2026-11-21",
      endsOn: "2026-11-30",
      walkers: 60,
      steps: 60 * 1_000 + (59 * 60) / 2,
    });
    expect(open.body).not.toContain("W0");
    const first = (
      await walkers[0]?.api.get(challengeLeaderboardPath(item.id))
    )?.json<ChallengeLeaderboardResponse>();
    expect(first?.items).toHaveLength(CHALLENGE_LEADERBOARD_PAGE);
    expect(first?.items[0]).toMatchObject({ rank: 1, displayName: "W59 W", progress: { value: 1_059 } });
    expect(first?.nextCursor).toBe(String(CHALLENGE_LEADERBOARD_PAGE));
    const second = (
      await walkers[0]?.api.get(`${challengeLeaderboardPath(item.id)}?cursor=${first?.nextCursor}`)
    )?.json<ChallengeLeaderboardResponse>();
    expect(second?.items.map((row) => row.rank)).toEqual([51, 52, 53, 54, 55, 56, 57, 58, 59, 60]);
    expect(second?.nextCursor).toBeNull();
    for (const cursor of ["-1", "1e3", "abc", "01"]) {
      const bad = await walkers[0]?.api.get(`${challengeLeaderboardPath(item.id)}?cursor=${cursor}`);
      expect(bad?.statusCode, cursor).toBe(400);
    }
    // Leaving takes the walker off.
    expect((await walkers[0]?.api.post(challengeLeavePath(item.id)))?.json<ChallengeItem>().joined).toBe(
      false,
    );
    expect(
      (await app.inject({ method: "GET", url: challengePublicPath(item.id) })).json<PublicChallenge>()
        .walkers,
    ).toBe(59);
  });

  it("marks the steps that wait for a check, and shows a walker's new steps in their row at once, to others within seconds", async () => {
    const item = await createPublic({ name: "Marked steps" });
    const ada = await walker("Ada");
    const ben = await walker("Ben");
    // Above the day's prize ceiling: counted, the rest waiting for a check.
    await walkedOn(app, ada.user.id, "2026-11-21", DAY_PRIZE_CEILING_STEPS + 5_000);
    await walkedOn(app, ben.user.id, "2026-11-21", 1_000);
    await ada.api.post(challengeJoinPath(item.id));
    await ben.api.post(challengeJoinPath(item.id));
    const board = async () =>
      (await ada.api.get(challengeLeaderboardPath(item.id))).json<ChallengeLeaderboardResponse>().items;
    expect(await board()).toEqual([
      {
        rank: 1,
        displayName: "Ada W",
        progress: { value: DAY_PRIZE_CEILING_STEPS + 5_000, target: 100_000, percent: 35 },
        fundraisingUrl: null,
        pendingSteps: 5_000,
      },
      {
        rank: 2,
        displayName: "Ben W",
        progress: { value: 1_000, target: 100_000, percent: 1 },
        fundraisingUrl: null,
      },
    ]);
    // Ben walks on: his own view and his own row have it at once; others see it within seconds.
    await walkedOn(app, ben.user.id, "2026-11-21", 3_000);
    expect((await ben.api.get(challengePath(item.id))).json<ChallengeItem>().progress?.value).toBe(3_000);
    const bensBoard = (
      await ben.api.get(challengeLeaderboardPath(item.id))
    ).json<ChallengeLeaderboardResponse>();
    expect(bensBoard.items[1]).toMatchObject({ rank: 2, displayName: "Ben W", progress: { value: 3_000 } });
    expect((await board())[1]?.progress.value).toBe(1_000);
    const later = new Date(Date.now() + READINGS_SHARED_MS + 1_000).toISOString();
    expect(await atMoment(later, async () => (await board())[1]?.progress.value)).toBe(3_000);
    // Past everyone: his own row moves to the top at once, the others' ranks follow.
    await walkedOn(app, ben.user.id, "2026-11-21", 40_000);
    const ahead = (await ben.api.get(challengeLeaderboardPath(item.id))).json<ChallengeLeaderboardResponse>();
    expect(ahead.items.map((row) => [row.rank, row.displayName, row.progress.value])).toEqual([
      [1, "Ben W", 40_000],
      [2, "Ada W", DAY_PRIZE_CEILING_STEPS + 5_000],
    ]);
    // At least what is above the day's ceiling waits (the pace may hold more of so sudden a rise).
    expect(ahead.items[0]?.pendingSteps).toBeGreaterThanOrEqual(40_000 - DAY_PRIZE_CEILING_STEPS);
  });

  it("judges a team's target on steps read after the last ones arrive, however recently its totals were shown", async () => {
    const admin = await walker("Tia");
    const member = await walker("Ugo");
    const group = (await admin.api.post("/api/groups", { name: "Quick Team" })).json<{
      id: number;
      joinCode: string;
    }>();
    await member.api.post("/api/groups/join", { joinCode: group.joinCode });
    const item = (
      await admin.api.post(
        groupChallengesPath(group.id),
        challenge({ name: "Quick Team Goal", kind: "team_total", target: 10_000 }),
      )
    ).json<ChallengeItem>();
    await admin.api.post(challengeJoinPath(item.id));
    await member.api.post(challengeJoinPath(item.id));
    await walkedOn(app, admin.user.id, "2026-11-21", 6_000);
    // The admin looks: the team's totals are read and shared.
    expect((await admin.api.get(challengePath(item.id))).json<ChallengeItem>().progress?.value).toBe(6_000);
    // The member's phone sends the rest; the look after their steps completes it for both.
    const synced = await member.api.sync({ steps: 4_000, date: "2026-11-21", source: "device_motion" });
    expect(synced.statusCode, synced.body).toBe(200);
    await app.services.badges.flush();
    for (const each of [admin, member]) {
      const seen = (await each.api.get(challengePath(item.id))).json<ChallengeItem>();
      expect(seen.completedAt, each.user.id).not.toBeNull();
    }
  });

  it("lets an operator change a challenge before it starts and only move its end later once started, each change logged", async () => {
    const item = await createPublic({ name: "Starts Monday", startsOn: "2026-11-23", endsOn: "2026-11-29" });
    const renamed = await operator.put(
      operatorChallengePath(item.id),
      challenge({ name: "Starts Monday!", startsOn: "2026-11-23", endsOn: "2026-11-29" }),
    );
    expect(renamed.statusCode).toBe(200);
    expect(renamed.json<ChallengeItem>().name).toBe("Starts Monday!");
    await atMoment("2026-11-24T12:00:00Z", async () => {
      const started = challenge({ name: "Starts Monday!", startsOn: "2026-11-23", endsOn: "2026-11-29" });
      const refused = await operator.put(operatorChallengePath(item.id), { ...started, target: 1 });
      expect(refused.statusCode).toBe(409);
      expect(refused.json().message).toBe(CHALLENGE_MESSAGES.started);
      expect(
        (await operator.put(operatorChallengePath(item.id), { ...started, endsOn: "2026-11-28" })).statusCode,
      ).toBe(409);
      const extended = await operator.put(operatorChallengePath(item.id), {
        ...started,
        endsOn: "2026-12-06",
      });
      expect(extended.statusCode).toBe(200);
      expect(extended.json<ChallengeItem>().endsOn).toBe("2026-12-06");
      expect((await operator.post(`${operatorChallengePath(item.id)}`, {})).statusCode).toBe(404);
      const cancel = await app.inject({
        method: "DELETE",
        url: operatorChallengePath(item.id),
        headers: { cookie: (await walkerWithEmail(app, OPERATOR_EMAIL, true)).cookie },
      });
      expect(cancel.statusCode).toBe(409);
    });
    const notStarted = await createPublic({
      name: "Never mind",
      startsOn: "2026-12-01",
      endsOn: "2026-12-07",
    });
    const cancelled = await app.inject({
      method: "DELETE",
      url: operatorChallengePath(notStarted.id),
      headers: { cookie: (await walkerWithEmail(app, OPERATOR_EMAIL, true)).cookie },
    });
    expect(cancelled.statusCode).toBe(204);
    expect(await app.repositories.challenges.find(notStarted.id)).toBeUndefined();
    const log = await app.database.db
      .selectFrom("audit_log")
      .select(["action", "subject"])
      .where("subject", "in", [`challenge:${item.id}`, `challenge:${notStarted.id}`])
      .orderBy("id")
      .execute();
    expect(log.map((row) => row.action)).toEqual([
      "challenge.create",
      "challenge.edit",
      "challenge.edit",
      "challenge.create",
      "challenge.cancel",
    ]);
  });

  it(`lets a walker be in at most ${CHALLENGES_JOINED_MAX} challenges that have not ended`, async () => {
    const fay = await walker("Fay");
    const many = [];
    for (let index = 0; index <= CHALLENGES_JOINED_MAX; index++) {
      many.push(await createPublic({ name: `Many ${index}`, target: 1_000_000 }));
    }
    for (const each of many.slice(0, CHALLENGES_JOINED_MAX)) {
      await app.repositories.challenges.join(each.id, fay.user.id, TEST_NOW.getTime());
    }
    const last = many.at(-1) as ChallengeItem;
    const refused = await fay.api.post(challengeJoinPath(last.id));
    expect(refused.statusCode).toBe(409);
    expect(refused.json().message).toBe(CHALLENGE_MESSAGES.tooManyJoined);
    // Leaving one makes room.
    await fay.api.post(challengeLeavePath(many[0]?.id ?? ""));
    expect((await fay.api.post(challengeJoinPath(last.id))).statusCode).toBe(201);
  });

  it("counts a walker's joins at once one after another, so the limit holds, and a challenge gone meanwhile is a 404", async () => {
    const gus = await walker("Gus");
    const room = 3;
    const many = [];
    for (let index = 0; index < CHALLENGES_JOINED_MAX - room + 6; index++) {
      many.push(await createPublic({ name: `Race ${index}`, target: 1_000_000 }));
    }
    for (const each of many.slice(0, CHALLENGES_JOINED_MAX - room)) {
      await app.repositories.challenges.join(each.id, gus.user.id, TEST_NOW.getTime());
    }
    const answers = await Promise.all(
      many.slice(CHALLENGES_JOINED_MAX - room).map((each) => gus.api.post(challengeJoinPath(each.id))),
    );
    expect(answers.map((answer) => answer.statusCode).sort()).toEqual([201, 201, 201, 409, 409, 409]);
    const joined = await app.repositories.challenges.membershipsOf(gus.user.id, TEST_TODAY);
    expect(joined).toHaveLength(CHALLENGES_JOINED_MAX);
    // A challenge deleted between the look and the join (an operator's cancel) is not a fault.
    expect(await app.repositories.challenges.join(randomUUID(), gus.user.id, TEST_NOW.getTime())).toBe(
      "gone",
    );
  });
});
