import { createECDH, randomBytes, randomUUID } from "node:crypto";
import { isDeepStrictEqual } from "node:util";
import {
  ACCOUNT_EXPORT_PATH,
  ACCOUNT_PATH,
  ACCOUNT_PREFERENCES_PATH,
  ACCOUNT_SESSIONS_PATH,
  APPLE_HEALTH_IMPORT_PATH,
  addDays,
  BADGES_PATH,
  CHALLENGES_PATH,
  CHARITY_IMPACT_PATH,
  type ChallengeInput,
  challengeCertificatePath,
  challengeFundraisingPath,
  challengeJoinPath,
  challengeLeaderboardPath,
  challengeLeavePath,
  challengePath,
  challengePublicPath,
  DRAW_RULES_PATH,
  DRAWS_PATH,
  drawMinePath,
  drawResultsPath,
  drawTicketsPath,
  EMAIL_UNSUBSCRIBE_PATH,
  END_OTHER_SESSIONS_PATH,
  groupChallengesPath,
  groupInvitationPath,
  HEALTH_KEYS_PATH,
  MANUAL_ENTRIES_PATH,
  MY_PRIZES_PATH,
  monthOfDay,
  NOTIFICATION_PREFERENCES_PATH,
  NOTIFICATIONS_PATH,
  NOTIFICATIONS_READ_PATH,
  OPERATOR_AUDIT_LOG_PATH,
  OPERATOR_CHALLENGES_PATH,
  OPERATOR_POSTAL_ENTRIES_PATH,
  OPERATOR_REVIEW_WALKERS_PATH,
  OPERATOR_REVIEWS_PATH,
  operatorChallengePath,
  operatorDrawOutliersPath,
  operatorDrawPath,
  operatorDrawRunPath,
  operatorDrawTiersPath,
  operatorPrizeClaimPath,
  operatorPrizeRedrawPath,
  operatorReviewMonthPath,
  operatorReviewPath,
  operatorReviewPhotoPath,
  PACE_REVIEWS_PATH,
  PUSH_KEY_PATH,
  PUSH_SUBSCRIPTIONS_PATH,
  prizeClaimPath,
  SIGN_UP_PATH,
  WEEK_SUMMARY_PATH,
} from "@charity-steps/shared-types";
import { sql } from "kysely";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { hashSessionToken } from "../../src/repositories/sessions.js";
import { dialects, startTestServer, type TestApp } from "../helper.js";
import { TEST_MONTH, TEST_TODAY, useTestClock } from "../support/clock.js";
import { groupsWalker } from "../support/groups.js";
import { walkerWithEmail } from "../support/operators.js";
import { manualForm, multipartBody, photo, walkedOn } from "../support/steps.js";

/**
 * Every route × every kind of caller, with the status each must get.
 * The "owner" of what a route names (the group's admin, the photo's walker, the `userId` of a
 * sync-local) is the group admin; the group member and another walker are everyone else.
 * The "step-import key" caller sends the group admin's step-import key (`Authorization: Bearer`)
 * and no cookie: it opens the Apple Health import and nothing else, which no cookie opens.
 * The "operator" is a walker whose confirmed email is in OPERATOR_EMAILS: outside the operator
 * routes they are one more walker with nothing of anyone else's, so unless a route says otherwise
 * they get what "another walker" gets.
 */
const ACTORS = [
  "signed out",
  "expired session",
  "forged cookie",
  "altered cookie",
  "another walker",
  "group member",
  "group admin",
  "step-import key",
  "operator",
] as const;
type Actor = (typeof ACTORS)[number];
type Expected = Record<Exclude<Actor, "operator">, number> & { operator?: number };
const OPERATOR_EMAIL = "matrix.operator@example.org";

interface World {
  groupId: number;
  joinCode: string;
  adminId: string;
  photoUrl: string;
  /** The group admin's step-import key's id. */
  keyId: string;
  /** The public id of a second session of the group admin's (another of their devices). */
  sessionId: string;
  /** The group admin's one-click link to stop the week's summary by email (signed, public). */
  unsubscribePath: string;
  /** The group admin's manual entry, waiting for a check (its photo says nothing of its day). */
  entryId: string;
  /** The group admin's push subscription (one of their browsers). */
  subscriptionId: string;
  /** The group's challenge, set by its admin, who joined it and completed it (the member has not joined). */
  groupChallengeId: string;
  /** A public challenge starting tomorrow, set by the operator. */
  publicChallengeId: string;
}

interface Call {
  method: "GET" | "POST" | "PUT" | "DELETE";
  url: (world: World) => string;
  body?: (world: World) => unknown;
  multipart?: true;
  expected: Expected;
}

const SIGNED_OUT = {
  "signed out": 401,
  "expired session": 401,
  "forged cookie": 401,
  "altered cookie": 401,
  "step-import key": 401,
};
/** Routes about the caller's own data: every walker gets `status`, nobody else gets in. */
const anyWalker = (status: number): Record<Actor, number> => ({
  ...SIGNED_OUT,
  "another walker": status,
  "group member": status,
  "group admin": status,
  operator: status,
});
/** Operator routes: operators get `status`, walkers find nothing (404), nobody else gets in. */
const operatorOnly = (status: number): Expected => ({ ...anyWalker(404), operator: status });
/** Public routes: the same for everyone. */
const everyone = (status: number): Record<Actor, number> =>
  Object.fromEntries(ACTORS.map((actor) => [actor, status])) as Record<Actor, number>;

// The matrix is about who gets in, not about dates: it runs on a fixed day, well inside its month
// (a postal entry received today is refused from the 26th, when this month's postal entries close).
useTestClock();
const today = TEST_TODAY;
const sync = { steps: 1234, date: today, source: "device_motion" };

const MATRIX: Call[] = [
  { method: "GET", url: () => "/api/health", expected: everyone(200) },
  { method: "GET", url: () => "/api/openapi.json", expected: everyone(200) },
  // A mailed link: anyone holding it may stop that mail (RFC 8058), signed in or not.
  { method: "GET", url: (world) => world.unsubscribePath, expected: everyone(200) },
  { method: "POST", url: (world) => world.unsubscribePath, expected: everyone(200) },
  { method: "GET", url: () => drawResultsPath(TEST_MONTH), expected: everyone(200) },
  { method: "GET", url: () => DRAW_RULES_PATH, expected: everyone(200) },
  { method: "GET", url: () => DRAWS_PATH, expected: everyone(200) },
  { method: "GET", url: () => `${CHARITY_IMPACT_PATH}?month=${TEST_MONTH}`, expected: everyone(200) },
  { method: "GET", url: () => "/api/login", expected: everyone(302) },
  // Get Started: the same sign-in, opening on the provider's sign-up form.
  { method: "GET", url: () => SIGN_UP_PATH, expected: everyone(302) },
  // A callback this browser never started (no state cookie, made-up code) signs nobody in.
  { method: "GET", url: () => "/api/callback?code=made-up&state=made-up", expected: everyone(400) },
  { method: "GET", url: () => "/api/logout", expected: everyone(302) },
  // The sign-out confirmation page's button (this origin's own post: these requests say nothing else).
  { method: "POST", url: () => "/api/logout", expected: everyone(302) },
  { method: "GET", url: () => "/api/auth/user", expected: anyWalker(200) },
  { method: "POST", url: () => "/api/steps/sync", body: () => sync, expected: anyWalker(200) },
  { method: "POST", url: () => "/api/steps/sync-background", body: () => sync, expected: anyWalker(200) },
  {
    method: "POST",
    url: () => "/api/steps/sync-local",
    body: (world) => ({ ...sync, userId: world.adminId }),
    expected: { ...SIGNED_OUT, "another walker": 403, "group member": 403, "group admin": 200 },
  },
  {
    method: "POST",
    url: () => "/api/steps/realtime",
    body: () => ({ steps: 10, source: "device_motion" }),
    expected: anyWalker(200),
  },
  { method: "GET", url: () => "/api/steps/today", expected: anyWalker(200) },
  { method: "GET", url: () => "/api/steps/monthly", expected: anyWalker(200) },
  { method: "GET", url: () => "/api/steps/history", expected: anyWalker(200) },
  { method: "POST", url: () => "/api/steps/add-manual-verified", multipart: true, expected: anyWalker(201) },
  {
    method: "GET",
    url: (world) => world.photoUrl,
    expected: { ...SIGNED_OUT, "another walker": 404, "group member": 404, "group admin": 200 },
  },
  { method: "GET", url: () => "/api/dashboard/stats", expected: anyWalker(200) },
  { method: "GET", url: () => `${WEEK_SUMMARY_PATH}?start=2026-11-16`, expected: anyWalker(200) },
  { method: "GET", url: () => BADGES_PATH, expected: anyWalker(200) },
  { method: "GET", url: () => NOTIFICATIONS_PATH, expected: anyWalker(200) },
  { method: "POST", url: () => NOTIFICATIONS_READ_PATH, body: () => ({}), expected: anyWalker(200) },
  { method: "GET", url: () => NOTIFICATION_PREFERENCES_PATH, expected: anyWalker(200) },
  {
    method: "PUT",
    url: () => NOTIFICATION_PREFERENCES_PATH,
    body: () => ({ kinds: { goal_reached: { push: false } }, reminderTime: "18:00" }),
    expected: anyWalker(200),
  },
  // The key browsers subscribe with: public.
  { method: "GET", url: () => PUSH_KEY_PATH, expected: everyone(200) },
  { method: "GET", url: () => PUSH_SUBSCRIPTIONS_PATH, expected: anyWalker(200) },
  {
    method: "POST",
    url: () => PUSH_SUBSCRIPTIONS_PATH,
    body: () => browserSubscription(),
    expected: anyWalker(201),
  },
  {
    method: "DELETE",
    url: (world) => `${PUSH_SUBSCRIPTIONS_PATH}/${world.subscriptionId}`,
    expected: { ...SIGNED_OUT, "another walker": 404, "group member": 404, "group admin": 204 },
  },
  // Challenges: a group's for its members, a public one's totals for anyone, operators set public ones.
  { method: "GET", url: () => CHALLENGES_PATH, expected: anyWalker(200) },
  ...(
    [
      ["GET", challengePath, { member: 200, admin: 200 }],
      ["POST", challengeJoinPath, { member: 201, admin: 200 }],
      ["POST", challengeLeavePath, { member: 200, admin: 200 }],
      ["GET", challengeLeaderboardPath, { member: 200, admin: 200 }],
      ["GET", challengeCertificatePath, { member: 404, admin: 200 }],
      ["DELETE", challengeFundraisingPath, { member: 409, admin: 204 }],
    ] as const
  ).map(
    ([method, path, { member, admin }]): Call => ({
      method,
      url: (world) => path(world.groupChallengeId),
      expected: { ...SIGNED_OUT, "another walker": 404, "group member": member, "group admin": admin },
    }),
  ),
  {
    method: "PUT",
    url: (world) => challengeFundraisingPath(world.groupChallengeId),
    body: () => ({ url: "https://www.justgiving.com/page/matrix" }),
    expected: { ...SIGNED_OUT, "another walker": 404, "group member": 409, "group admin": 204 },
  },
  { method: "GET", url: (world) => challengePublicPath(world.publicChallengeId), expected: everyone(200) },
  {
    method: "POST",
    url: (world) => groupChallengesPath(world.groupId),
    body: () => matrixChallenge(),
    expected: { ...SIGNED_OUT, "another walker": 404, "group member": 403, "group admin": 201 },
  },
  {
    method: "POST",
    url: () => OPERATOR_CHALLENGES_PATH,
    body: () => matrixChallenge(),
    expected: operatorOnly(201),
  },
  {
    method: "PUT",
    url: (world) => operatorChallengePath(world.publicChallengeId),
    body: () => matrixChallenge(),
    expected: operatorOnly(200),
  },
  {
    method: "DELETE",
    url: (world) => operatorChallengePath(world.publicChallengeId),
    expected: operatorOnly(204),
  },
  { method: "POST", url: () => "/api/daily-reset", expected: anyWalker(200) },
  { method: "POST", url: () => "/api/monthly-reset", expected: anyWalker(200) },
  { method: "GET", url: () => "/api/charity/selection", expected: anyWalker(200) },
  { method: "GET", url: () => "/api/charity/current", expected: anyWalker(200) },
  {
    method: "POST",
    url: () => "/api/charity/select",
    body: () => ({ charityName: "British Heart Foundation" }),
    expected: anyWalker(200),
  },
  { method: "GET", url: () => "/api/revenue/current", expected: anyWalker(200) },
  { method: "GET", url: () => "/api/subscription/status", expected: anyWalker(200) },
  { method: "GET", url: () => "/api/groups", expected: anyWalker(200) },
  {
    method: "POST",
    url: () => "/api/groups",
    body: () => ({ name: "Another walk", description: "" }),
    expected: anyWalker(201),
  },
  { method: "GET", url: (world) => groupInvitationPath(world.joinCode), expected: anyWalker(200) },
  {
    method: "POST",
    url: () => "/api/groups/join",
    body: (world) => ({ joinCode: world.joinCode }),
    expected: { ...SIGNED_OUT, "another walker": 201, "group member": 200, "group admin": 200 },
  },
  ...(["", "/members", "/leaderboard"] as const).map(
    (suffix): Call => ({
      method: "GET",
      url: (world) => `/api/groups/${world.groupId}${suffix}`,
      expected: { ...SIGNED_OUT, "another walker": 403, "group member": 200, "group admin": 200 },
    }),
  ),
  {
    method: "POST",
    url: (world) => `/api/groups/${world.groupId}/leave`,
    expected: { ...SIGNED_OUT, "another walker": 403, "group member": 204, "group admin": 403 },
  },
  {
    method: "DELETE",
    url: (world) => `/api/groups/${world.groupId}`,
    expected: { ...SIGNED_OUT, "another walker": 403, "group member": 403, "group admin": 204 },
  },
  { method: "GET", url: () => HEALTH_KEYS_PATH, expected: anyWalker(200) },
  {
    method: "POST",
    url: () => HEALTH_KEYS_PATH,
    body: () => ({ name: "Spare iPhone" }),
    expected: anyWalker(201),
  },
  {
    method: "DELETE",
    url: (world) => `${HEALTH_KEYS_PATH}/${world.keyId}`,
    expected: { ...SIGNED_OUT, "another walker": 404, "group member": 404, "group admin": 204 },
  },
  // Password and email are changed here for built-in accounts only: these walkers come from
  // another issuer, so every one of them is refused (their provider manages them).
  {
    method: "POST",
    url: () => "/api/account/password",
    body: () => ({ currentPassword: "long-walks-2026", newPassword: "a-fresh-walking-phrase" }),
    expected: anyWalker(403),
  },
  {
    method: "POST",
    url: () => "/api/account/email",
    body: () => ({ newEmail: "moved@example.org", currentPassword: "long-walks-2026" }),
    expected: anyWalker(403),
  },
  { method: "POST", url: () => "/api/account/email-confirmation", expected: anyWalker(403) },
  // The pages mailed links open: public, and a made-up token opens nothing.
  { method: "GET", url: () => "/auth/forgot-password", expected: everyone(200) },
  { method: "GET", url: () => "/auth/password-reset/made-up-token", expected: everyone(400) },
  { method: "GET", url: () => "/auth/confirm-email/made-up-token", expected: everyone(400) },
  // Only a page's button acts, by POST with the token in the body: a made-up one changes nothing.
  {
    method: "POST",
    url: () => "/auth/password-reset",
    body: () => ({ token: "made-up-token", password: "a-fresh-walking-phrase" }),
    expected: everyone(400),
  },
  {
    method: "POST",
    url: () => "/auth/confirm-email",
    body: () => ({ token: "made-up-token" }),
    expected: everyone(400),
  },
  { method: "GET", url: () => ACCOUNT_EXPORT_PATH, expected: anyWalker(200) },
  { method: "GET", url: () => ACCOUNT_SESSIONS_PATH, expected: anyWalker(200) },
  { method: "GET", url: () => ACCOUNT_PREFERENCES_PATH, expected: anyWalker(200) },
  {
    method: "PUT",
    url: () => ACCOUNT_PREFERENCES_PATH,
    body: () => ({ dailyGoal: 8_000, theme: "dark", onboarded: true }),
    expected: anyWalker(200),
  },
  {
    method: "DELETE",
    url: (world) => `${ACCOUNT_SESSIONS_PATH}/${world.sessionId}`,
    expected: { ...SIGNED_OUT, "another walker": 404, "group member": 404, "group admin": 204 },
  },
  { method: "POST", url: () => END_OTHER_SESSIONS_PATH, expected: anyWalker(200) },
  // Deleting an account takes its own email typed: these walkers all have one, so DELETE is refused.
  {
    method: "DELETE",
    url: () => ACCOUNT_PATH,
    body: () => ({ confirmEmail: "DELETE" }),
    expected: anyWalker(400),
  },
  // Only a key opens the import: the walker's own session cookie does not.
  {
    method: "POST",
    url: () => APPLE_HEALTH_IMPORT_PATH,
    body: () => ({ steps: 1234, date: today }),
    expected: { ...everyone(401), "step-import key": 200 },
  },
  {
    method: "GET",
    url: () => `${OPERATOR_POSTAL_ENTRIES_PATH}?month=${TEST_MONTH}`,
    expected: operatorOnly(200),
  },
  {
    method: "POST",
    url: () => OPERATOR_POSTAL_ENTRIES_PATH,
    body: () => ({
      month: TEST_MONTH,
      fullName: "Posted Entrant",
      address: "1 Letterbox Lane",
      receivedOn: today,
    }),
    expected: operatorOnly(201),
  },
  { method: "GET", url: () => OPERATOR_AUDIT_LOG_PATH, expected: operatorOnly(200) },
  { method: "GET", url: () => MANUAL_ENTRIES_PATH, expected: anyWalker(200) },
  { method: "GET", url: () => PACE_REVIEWS_PATH, expected: anyWalker(200) },
  { method: "GET", url: () => OPERATOR_REVIEWS_PATH, expected: operatorOnly(200) },
  { method: "GET", url: () => OPERATOR_REVIEW_WALKERS_PATH, expected: operatorOnly(200) },
  // The group admin's month holds their manual entry that waits: one decision takes it.
  {
    method: "POST",
    url: (world) => operatorReviewMonthPath(world.adminId, monthOfDay(today)),
    body: () => ({ decision: "approve" }),
    expected: operatorOnly(200),
  },
  { method: "GET", url: (world) => operatorReviewPhotoPath(world.entryId), expected: operatorOnly(200) },
  {
    method: "POST",
    url: (world) => operatorReviewPath(world.entryId),
    body: () => ({ decision: "approve" }),
    expected: operatorOnly(200),
  },
  // This month is not drawn: its ticket list is not published yet, for anyone.
  { method: "GET", url: () => drawTicketsPath(TEST_MONTH), expected: everyone(404) },
  { method: "GET", url: () => drawMinePath(TEST_MONTH), expected: anyWalker(200) },
  { method: "GET", url: () => MY_PRIZES_PATH, expected: anyWalker(200) },
  // Nobody has won a prize by this id: a walker's claim finds nothing (a winner's is in the draw tests).
  {
    method: "POST",
    url: () => prizeClaimPath("made-up-prize"),
    body: () => ({ over18: true, publicName: "A. Walker", county: "Kent", deliveryAddress: "1 High St" }),
    expected: anyWalker(404),
  },
  { method: "GET", url: () => operatorDrawPath(TEST_MONTH), expected: operatorOnly(200) },
  { method: "GET", url: () => operatorDrawOutliersPath(TEST_MONTH), expected: operatorOnly(200) },
  {
    method: "PUT",
    url: () => operatorDrawTiersPath(TEST_MONTH),
    body: () => ({ tiers: [{ name: "Platinum", prizes: 1, description: "A weekend away" }] }),
    expected: operatorOnly(200),
  },
  // This month has not closed: running its draw is refused, even to an operator.
  { method: "POST", url: () => operatorDrawRunPath(TEST_MONTH), expected: operatorOnly(409) },
  { method: "POST", url: () => operatorPrizeRedrawPath("made-up-prize"), expected: operatorOnly(404) },
  {
    method: "POST",
    url: () => operatorPrizeClaimPath("made-up-prize"),
    body: () => ({
      over18: true,
      publicName: "P. Post",
      county: "Devon",
      deliveryAddress: "1 Letterbox Lane",
    }),
    expected: operatorOnly(404),
  },
];

/** A challenge from tomorrow for a week, as both create routes take it. */
function matrixChallenge() {
  return {
    name: "Matrix miles",
    description: "",
    charityName: null,
    kind: "total_steps",
    target: 50_000,
    dailyTarget: null,
    startsOn: addDays(today, 1),
    endsOn: addDays(today, 7),
  };
}

/** What a browser's PushSubscription.toJSON() gives, for Chrome's push service (never posted to here). */
function browserSubscription() {
  const ecdh = createECDH("prime256v1");
  ecdh.generateKeys();
  return {
    endpoint: `https://fcm.googleapis.com/fcm/send/${randomUUID()}`,
    expirationTime: null,
    keys: { p256dh: ecdh.getPublicKey().toString("base64url"), auth: randomBytes(16).toString("base64url") },
  };
}

const labelOf = (call: Call) =>
  `${call.method} ${call.url({ groupId: 7, joinCode: "", adminId: "", photoUrl: "/api/steps/photos/:id", keyId: ":id", sessionId: ":id", entryId: ":id", subscriptionId: ":id", unsubscribePath: EMAIL_UNSUBSCRIBE_PATH, groupChallengeId: ":id", publicChallengeId: ":id" })}`;

/**
 * MATRIX_ROUTES, a regular expression, keeps only the routes whose "METHOD path" it matches:
 * `pnpm test:calendar` runs the ones that take or answer dates at each of its moments.
 */
const ROUTES = process.env.MATRIX_ROUTES
  ? MATRIX.filter((call) => new RegExp(process.env.MATRIX_ROUTES ?? "").test(labelOf(call)))
  : MATRIX;

const CASES = ROUTES.flatMap((call) =>
  ACTORS.map((actor) => ({
    call,
    actor,
    status:
      actor === "operator"
        ? (call.expected.operator ?? call.expected["another walker"])
        : call.expected[actor],
    label: labelOf(call),
  })),
);

describe.each(dialects)("the authorisation matrix (%s)", (dialect) => {
  let testApp: TestApp;
  let png: Buffer;
  const tally = { cases: 0, asExpected: 0, worlds: 0 };
  beforeAll(async () => {
    // Listening: /api/login asks the built-in provider (this same server) over HTTP.
    testApp = await startTestServer(dialect, { OPERATOR_EMAILS: OPERATOR_EMAIL });
    png = await photo("png");
  });
  afterAll(async () => {
    console.log(
      `authorisation matrix (${dialect}): ${ROUTES.length} routes × ${ACTORS.length} callers = ${tally.cases} cases, ${tally.asExpected} answered as expected, in ${tally.worlds} worlds`,
    );
    await testApp.close();
  });

  /**
   * A group with its admin and a member, the admin's proof photo and step-import key, another
   * walker, and each caller's cookie (or key).
   */
  const world = async () => {
    const { app } = testApp;
    const admin = await groupsWalker(app, "Admin");
    const member = await groupsWalker(app, "Member");
    const outsider = await groupsWalker(app, "Outsider");
    const operator = await walkerWithEmail(app, OPERATOR_EMAIL, true);
    const group = (await admin.api.createGroup("Lunch loop", "")).json();
    expect((await member.api.join(group.joinCode)).statusCode).toBe(201);
    const entry = await manualEntry(admin.cookie);
    expect(entry.statusCode).toBe(201);
    const importKey = await app.repositories.stepImportKeys.create(admin.user.id, "Admin's iPhone");
    if (!importKey) throw new Error("no step-import key made");

    const adminElsewhere = await app.repositories.sessions.open(admin.user.id, 60 * 60_000);
    const { public_id: sessionId } = await app.database.db
      .selectFrom("sessions")
      .select("public_id")
      .where("id_hash", "=", hashSessionToken(adminElsewhere.token))
      .executeTakeFirstOrThrow();
    const expired = await app.repositories.sessions.open(member.user.id, 60_000);
    await app.database.db
      .updateTable("sessions")
      .set({ expires_at: Date.now() - 1 })
      .where("id_hash", "=", hashSessionToken(expired.token))
      .execute();
    const flipped = admin.token.at(-1) === "A" ? "B" : "A";
    const cookies: Record<Actor, string | null> = {
      "signed out": null,
      "expired session": `cs_session=${expired.token}`,
      "forged cookie": `cs_session=${randomBytes(32).toString("base64url")}`,
      "altered cookie": `cs_session=${admin.token.slice(0, -1)}${flipped}`,
      "another walker": outsider.cookie,
      "group member": member.cookie,
      "group admin": admin.cookie,
      "step-import key": null,
      operator: operator.cookie,
    };
    const authorizations: Partial<Record<Actor, string>> = { "step-import key": `Bearer ${importKey.key}` };
    const facts: World = {
      groupId: group.id,
      joinCode: group.joinCode,
      adminId: admin.user.id,
      photoUrl: entry.json().entry.photoUrl,
      keyId: importKey.row.id,
      sessionId,
      entryId: entry.json().entry.id,
      subscriptionId: (
        await app.repositories.notifications.addSubscription({
          user_id: admin.user.id,
          ...((subscription) => ({
            endpoint: subscription.endpoint,
            p256dh: subscription.keys.p256dh,
            auth: subscription.keys.auth,
          }))(browserSubscription()),
          expiration_time: null,
          created_at: Date.now(),
        })
      ).id,
      unsubscribePath: ((url) => `${url.pathname}${url.search}`)(
        new URL(await app.services.unsubscribeLinks.url(admin.user.id, "weekly_summary")),
      ),
      groupChallengeId: await (async () => {
        const { challenges } = app.services;
        const made = await challenges.createForGroup(
          group.id,
          { ...matrixChallenge(), kind: "total_steps", startsOn: today, target: 1_000 } as ChallengeInput,
          admin.user.id,
        );
        await challenges.join(made.id, admin.user.id);
        await walkedOn(app, admin.user.id, today, 2_000);
        expect((await challenges.item(made.id, admin.user.id)).completedAt).not.toBeNull();
        return made.id;
      })(),
      publicChallengeId: (
        await app.services.challenges.createPublic(matrixChallenge() as ChallengeInput, operator.user.id)
      ).id,
    };
    return { facts, cookies, authorizations };
  };

  const manualEntry = (cookie: string | null, authorization?: string) => {
    const { body, contentType } = multipartBody(
      manualForm(
        { steps: "2500", date: today },
        { bytes: png, filename: "proof.png", contentType: "image/png" },
      ),
    );
    return testApp.app.inject({
      method: "POST",
      url: "/api/steps/add-manual-verified",
      headers: {
        ...(cookie ? { cookie } : {}),
        ...(authorization ? { authorization } : {}),
        "content-type": contentType,
        "idempotency-key": randomUUID(),
      },
      payload: body,
    });
  };

  /**
   * The world the next case runs in, with what is stored in it. A world serves the next case only
   * while every request sent in it was refused (each refusal checked to change nothing) or was a
   * read after which everything stored was as before; any other answer may have changed it (a
   * group left, a key removed), so the next case gets a new one.
   */
  let unchanged: {
    world: Awaited<ReturnType<typeof world>>;
    stored: Awaited<ReturnType<typeof storedState>>;
  } | null = null;

  it.each(CASES)("$label by $actor answers $status", async ({ call, actor, status }) => {
    let current = unchanged;
    unchanged = null;
    if (!current) {
      const made = await world();
      current = { world: made, stored: await storedState() };
      tally.worlds++;
    }
    const { facts, cookies, authorizations } = current.world;
    const cookie = cookies[actor];
    const authorization = authorizations[actor];
    const before = current.stored;
    const response = call.multipart
      ? await manualEntry(cookie, authorization)
      : await testApp.app.inject({
          method: call.method,
          url: call.url(facts),
          headers: {
            ...(cookie ? { cookie } : {}),
            ...(authorization ? { authorization } : {}),
            ...(call.body ? { "content-type": "application/json" } : {}),
          },
          ...(call.body ? { payload: JSON.stringify(call.body(facts)) } : {}),
        });
    tally.cases++;
    expect(response.statusCode, response.body.slice(0, 300)).toBe(status);
    tally.asExpected++;
    if (status === 401 || status === 403 || status === 404) {
      expect(response.json().message).toEqual(expect.any(String));
      // A refused caller changes nothing of anybody's: steps, entries, photos, groups, members, keys,
      // postal entries, the audit log.
      expect(await storedState()).toEqual(before);
      unchanged = current;
    } else if (call.method === "GET" && isDeepStrictEqual(await storedState(), before)) {
      // A read that left everything as it was leaves the world to the next case too (building one
      // was most of this file's time); a read that did change something (a badge awarded on
      // reading, say) does not.
      unchanged = current;
    }
  });

  /** What a refused caller must leave as it was, read in two queries. */
  const storedState = async () => {
    const { db } = testApp.app.database;
    const { rows } = await sql<Record<string, number | string>>`
      select
        (select coalesce(sum(total_steps), 0) from step_days) as steps,
        (select count(*) from step_counters) as counters,
        (select count(*) from manual_step_entries) as entries,
        (select count(*) from step_photos) as photos,
        (select count(*) from groups) as groups,
        (select count(*) from group_members) as members,
        (select count(*) from users) as users,
        (select count(*) from step_import_keys) as import_keys,
        (select count(*) from postal_entries) as postal_entries,
        (select count(*) from audit_log) as audit_log,
        (select count(*) from challenges) as challenges,
        (select count(*) from challenge_members) as challenge_members,
        (select count(*) from challenge_members where fundraising_url is not null) as fundraising`.execute(
      db,
    );
    const counts = rows[0] ?? {};
    const charities = await db.selectFrom("users").select(["id", "charity_name"]).orderBy("id").execute();
    return {
      steps: Number(counts.steps),
      counters: Number(counts.counters),
      entries: Number(counts.entries),
      photos: Number(counts.photos),
      groups: Number(counts.groups),
      members: Number(counts.members),
      users: Number(counts.users),
      importKeys: Number(counts.import_keys),
      postalEntries: Number(counts.postal_entries),
      auditLog: Number(counts.audit_log),
      challenges: Number(counts.challenges),
      challengeMembers: Number(counts.challenge_members),
      fundraising: Number(counts.fundraising),
      charities,
    };
  };
});
