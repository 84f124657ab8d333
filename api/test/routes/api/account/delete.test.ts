import { randomUUID } from "node:crypto";
import { ACCOUNT_MESSAGES, ACCOUNT_PATH, addDays, DELETE_CONFIRM_WORD } from "@charity-steps/shared-types";
import { sql } from "kysely";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { FORGOT_PASSWORD_PATH } from "../../../../src/auth/provider/account-links.js";
import {
  createSignedInWalker,
  dialects,
  newWalker,
  type RunningServer,
  signIn,
  signUp,
  startTestServer,
  TestBrowser,
} from "../../../helper.js";
import {
  accountClient,
  downloadExport,
  findEverywhere,
  seedEveryFeature,
  uniqueWord,
  walkerWithData,
} from "../../../support/account-data.js";
import { TEST_MONTH, TEST_TODAY, useTestClock } from "../../../support/clock.js";
import { stepsClient } from "../../../support/steps.js";

// The walkers' data is stored for today and this month: a fixed day, so erasing it cannot straddle midnight.
useTestClock();

describe.each(dialects)("Delete my account (%s)", (dialect) => {
  let server: RunningServer;
  beforeAll(async () => {
    server = await startTestServer(dialect);
  });
  afterAll(async () => server?.close());

  const me = (cookie: string) =>
    server.app.inject({ method: "GET", url: "/api/auth/user", headers: { cookie } });

  /** A walker signed up through the built-in provider, signed in on two browsers, with data everywhere. */
  const builtInWalkerWithData = async () => {
    const { app, origin } = server;
    const details = newWalker({ firstName: uniqueWord("Anwen"), lastName: uniqueWord("Erasedottir") });
    const laptop = new TestBrowser();
    await signUp(laptop, origin, details);
    const phone = new TestBrowser();
    await signIn(phone, origin, details.email, details.password);
    // A wrong password is counted under the email too, and so is a reset asked for.
    await signIn(new TestBrowser(), origin, details.email, "not-the-password-1");
    const forgot = new TestBrowser();
    await forgot.submit(await forgot.visit(`${origin}${FORGOT_PASSWORD_PATH}`), FORGOT_PASSWORD_PATH, {
      email: details.email,
    });
    const token = await laptop.cookie(origin, "cs_session");
    const phoneToken = await phone.cookie(origin, "cs_session");
    if (!token || !phoneToken) throw new Error("not signed in");
    const cookie = `cs_session=${token}`;
    const user = (await me(cookie)).json() as { id: string };
    const row = await app.database.db
      .selectFrom("users")
      .selectAll()
      .where("id", "=", user.id)
      .executeTakeFirstOrThrow();
    const walker = await seedEveryFeature(app, { user: row, cookie, token });
    return { ...walker, details, phoneCookie: `cs_session=${phoneToken}` };
  };

  it("refuses without the account's email typed, and erases every piece of personal data with it", async () => {
    const { app, origin } = server;
    const db = app.database.db;
    const ana = await builtInWalkerWithData();
    const bob = await walkerWithData(app);
    expect((await bob.account.post("/api/groups/join", { joinCode: ana.joinCode })).statusCode).toBe(201);
    // Ana was told of her phone's sign-in and of Bob's joining, and one of her browsers gets pushes.
    const anaEndpoint = `https://fcm.googleapis.com/fcm/send/ana-${randomUUID()}`;
    await app.repositories.notifications.addSubscription({
      user_id: ana.user.id,
      endpoint: anaEndpoint,
      p256dh: "BK".padEnd(87, "A"),
      auth: "secret-auth-16by",
      expiration_time: null,
      created_at: Date.now(),
    });
    await ana.account.put("/api/notifications/preferences", { reminderTime: "20:15" });
    const anaNotifications = () =>
      db
        .selectFrom("notifications")
        .select("kind")
        .where("user_id", "=", ana.user.id)
        .orderBy("kind")
        .execute();
    expect(await anaNotifications()).toEqual([{ kind: "group_joined" }, { kind: "new_sign_in" }]);
    // Ana's subscription counts towards the charity's share of the month.
    await db
      .insertInto("subscription_payments")
      .values({
        id: randomUUID(),
        user_id: ana.user.id,
        month: TEST_MONTH,
        amount_pence: 499,
        created_at: Date.now(),
      })
      .execute();

    const month = TEST_MONTH;
    const totals = async () => ({
      revenue: (await bob.account.get("/api/revenue/current")).json(),
      month: await db
        .selectFrom("step_months")
        .select((eb) => eb.fn.sum<number>("total_steps").as("steps"))
        .where("month", "=", month)
        .executeTakeFirstOrThrow()
        .then((row) => Number(row.steps)),
      days: await db
        .selectFrom("step_days")
        .select(["user_id", "day", "total_steps", "manual_steps"])
        .orderBy("user_id")
        .orderBy("day")
        .execute(),
      bob: (
        (await bob.account.get(`/api/groups/${ana.groupId}/leaderboard`)).json() as { user: { id: string } }[]
      ).filter((entry) => entry.user.id === bob.user.id),
      // The group's month, every member's steps added up, as its leaderboard shows them.
      group: (
        (await bob.account.get(`/api/groups/${ana.groupId}/leaderboard`)).json() as { monthlySteps: number }[]
      ).reduce((sum, entry) => sum + entry.monthlySteps, 0),
    });
    const before = await totals();
    expect(before.revenue.totalRevenue).not.toBe("0.00");
    expect(before.days.find((day) => day.user_id === ana.user.id)).toMatchObject({ total_steps: 5000 });

    const sessionHashes = (
      await db.selectFrom("sessions").select("id_hash").where("user_id", "=", ana.user.id).execute()
    ).map((row) => row.id_hash);
    expect(sessionHashes).toHaveLength(2);
    const localAccount = await db
      .selectFrom("local_accounts")
      .selectAll()
      .where("id", "=", ana.user.subject)
      .executeTakeFirstOrThrow();
    const needles = {
      text: [
        ana.email,
        ana.firstName,
        ana.lastName,
        ana.note,
        ana.keyName,
        ...sessionHashes,
        localAccount.password_hash,
        ana.user.subject,
        anaEndpoint,
      ],
      bytes: [ana.photoBytes],
    };
    // The scan sees every table, a new one too: the walker's email put in one is found.
    expect(await findEverywhere(app.database, needles)).not.toEqual([]);
    await sql`create table scan_probe (note text)`.execute(db);
    await sql`insert into scan_probe values (${`Reach ${ana.email.toUpperCase()}`})`.execute(db);

    const wrong = await ana.account.delete(ACCOUNT_PATH, { confirmEmail: "someone.else@example.org" });
    expect(wrong.statusCode).toBe(400);
    expect(wrong.json()).toEqual({ message: ACCOUNT_MESSAGES.confirmEmail });
    expect((await ana.account.delete(ACCOUNT_PATH, {})).statusCode).toBe(400);
    expect((await me(ana.cookie)).statusCode).toBe(200);

    const deleted = await ana.account.delete(ACCOUNT_PATH, { confirmEmail: ` ${ana.email.toUpperCase()} ` });
    expect(deleted.statusCode, deleted.body).toBe(204);
    expect(String(deleted.headers["set-cookie"])).toMatch(/cs_session=;/);

    // Every device is signed out at once.
    expect((await me(ana.cookie)).statusCode).toBe(401);
    expect((await me(ana.phoneCookie)).statusCode).toBe(401);

    expect(await findEverywhere(app.database, needles)).toEqual([
      `scan_probe.note: ${ana.email.toLowerCase()}`,
    ]);
    await sql`drop table scan_probe`.execute(db);
    expect(await findEverywhere(app.database, needles)).toEqual([]);
    // What the app told her, and what she chose, go too.
    expect(await anaNotifications()).toEqual([]);
    expect(
      await db
        .selectFrom("notification_settings")
        .select("user_id")
        .where("user_id", "=", ana.user.id)
        .execute(),
    ).toEqual([]);

    // Totals stay: the charity's money, the month's, every day's; Bob's place in the group too. She has
    // left the group, so its board counts her month no more, and nothing else of it changes.
    const after = await totals();
    expect(after.revenue).toEqual(before.revenue);
    expect(after.month).toBe(before.month);
    expect(after.days).toEqual(before.days);
    expect(after.group).toBe(before.group - 5000);
    expect(after.bob).toEqual(before.bob);
    const manual = await db
      .selectFrom("manual_step_entries")
      .select(["steps", "note"])
      .where("user_id", "=", ana.user.id)
      .execute();
    expect(manual).toEqual([{ steps: 3000, note: "" }]);

    // The group passed to Bob, its only other member; Ana is no longer in it.
    const group = (await bob.account.get(`/api/groups/${ana.groupId}`)).json() as {
      adminUserId: string;
      memberCount: number;
    };
    expect(group).toMatchObject({ adminUserId: bob.user.id, memberCount: 1 });

    // The old password opens nothing; signing up again with the email starts an empty account.
    const again = new TestBrowser();
    await signIn(again, origin, ana.details.email, ana.details.password);
    expect(await again.cookie(origin, "cs_session")).toBeUndefined();
    const fresh = new TestBrowser();
    await signUp(fresh, origin, ana.details);
    const freshCookie = `cs_session=${await fresh.cookie(origin, "cs_session")}`;
    const freshUser = await me(freshCookie);
    expect(freshUser.statusCode).toBe(200);
    expect(freshUser.json()).toMatchObject({ email: ana.details.email.toLowerCase() });
    expect((freshUser.json() as { id: string }).id).not.toBe(ana.user.id);
    const fresh2 = accountClient(app, freshCookie);
    expect((await fresh2.get("/api/steps/today")).json()).toMatchObject({ steps: 0 });
    expect((await fresh2.get("/api/groups")).json()).toEqual([]);
    const freshExport = await downloadExport(app, freshCookie);
    expect(freshExport.json("days.json")).toEqual([]);
    expect(freshExport.json("manual-entries.json")).toEqual([]);
    expect(freshExport.json("health-keys.json")).toEqual([]);
  });

  it("confirms an account without an email with the word DELETE; a group with no one else goes", async () => {
    const { app } = server;
    const walker = await createSignedInWalker(app, "Noemail");
    await app.database.db
      .updateTable("users")
      .set({ email: null })
      .where("id", "=", walker.user.id)
      .execute();
    const account = accountClient(app, walker.cookie);
    const group = (await account.post("/api/groups", { name: "Alone" })).json() as { id: number };

    const wrong = await account.delete(ACCOUNT_PATH, { confirmEmail: "delete" });
    expect(wrong.statusCode).toBe(400);
    expect(wrong.json()).toEqual({ message: ACCOUNT_MESSAGES.confirmWord });
    expect((await account.delete(ACCOUNT_PATH, { confirmEmail: DELETE_CONFIRM_WORD })).statusCode).toBe(204);
    expect((await me(walker.cookie)).statusCode).toBe(401);
    const left = await app.database.db.selectFrom("groups").select("id").where("id", "=", group.id).execute();
    expect(left).toEqual([]);
  });

  it("keeps an erased walker's place in a challenge without their fundraising page, and a look that was waiting awards and tells nothing", async () => {
    const { app } = server;
    const walker = await createSignedInWalker(app, "Fundraiser");
    const operator = await createSignedInWalker(app, "Setter");
    const { challenges, badges } = app.services;
    const challenge = await challenges.createPublic(
      {
        name: "Erased Walk",
        description: "",
        charityName: null,
        kind: "total_steps",
        target: 1_000_000,
        dailyTarget: null,
        startsOn: TEST_TODAY,
        endsOn: addDays(TEST_TODAY, 7),
      },
      operator.user.id,
    );
    await challenges.join(challenge.id, walker.user.id);
    const page = `https://www.justgiving.com/page/${uniqueWord("erased-walker-")}`;
    await challenges.setFundraising(challenge.id, walker.user.id, page);
    // Steps that reach a badge and the day's goal: the look that tells of them waits five seconds.
    const synced = await stepsClient(app, walker.cookie).sync({
      steps: 10_200,
      date: TEST_TODAY,
      source: "device_motion",
    });
    expect(synced.statusCode, synced.body).toBe(200);

    const account = accountClient(app, walker.cookie);
    const email = walker.user.email ?? DELETE_CONFIRM_WORD;
    expect((await account.delete(ACCOUNT_PATH, { confirmEmail: email })).statusCode).toBe(204);
    await badges.flush();

    const db = app.database.db;
    expect(
      await db.selectFrom("user_badges").select("badge_id").where("user_id", "=", walker.user.id).execute(),
    ).toEqual([]);
    expect(
      await db.selectFrom("notifications").select("kind").where("user_id", "=", walker.user.id).execute(),
    ).toEqual([]);
    expect(
      await db
        .selectFrom("challenge_members")
        .select(["user_id", "fundraising_url"])
        .where("challenge_id", "=", challenge.id)
        .execute(),
    ).toEqual([{ user_id: walker.user.id, fundraising_url: null }]);
    expect(await findEverywhere(app.database, { text: [page], bytes: [] })).toEqual([]);
  });

  it("hands a group to its longest-standing member, whoever joined first", async () => {
    const { app } = server;
    const [admin, early, late] = await Promise.all(
      ["Adm", "Early", "Late"].map((name) => createSignedInWalker(app, name)),
    );
    if (!admin || !early || !late) throw new Error("walkers missing");
    const group = (await accountClient(app, admin.cookie).post("/api/groups", { name: "Relay" })).json() as {
      id: number;
      joinCode: string;
    };
    for (const walker of [late, early]) {
      await accountClient(app, walker.cookie).post("/api/groups/join", { joinCode: group.joinCode });
    }
    // Early joined before Late (by the stored dates, not the order of the calls above).
    await app.database.db
      .updateTable("group_members")
      .set({ joined_at: 1_000 })
      .where("user_id", "=", early.user.id)
      .execute();
    const deleted = await accountClient(app, admin.cookie).delete(ACCOUNT_PATH, {
      confirmEmail: admin.user.email ?? "",
    });
    expect(deleted.statusCode).toBe(204);
    const row = await app.database.db
      .selectFrom("groups")
      .select("admin_user_id")
      .where("id", "=", group.id)
      .executeTakeFirstOrThrow();
    expect(row.admin_user_id).toBe(early.user.id);
  });

  it("refuses a walker who is not signed in, and a request from another site", async () => {
    const { app } = server;
    const walker = await createSignedInWalker(app, "Csrf");
    const anonymous = await app.inject({
      method: "DELETE",
      url: ACCOUNT_PATH,
      headers: { "content-type": "application/json", "sec-fetch-site": "same-origin" },
      payload: JSON.stringify({ confirmEmail: DELETE_CONFIRM_WORD }),
    });
    expect(anonymous.statusCode).toBe(401);
    const crossSite = await app.inject({
      method: "DELETE",
      url: ACCOUNT_PATH,
      headers: { cookie: walker.cookie, "content-type": "application/json", "sec-fetch-site": "cross-site" },
      payload: JSON.stringify({ confirmEmail: walker.user.email }),
    });
    expect(crossSite.statusCode).toBe(403);
    expect((await me(walker.cookie)).statusCode).toBe(200);
  });
});
