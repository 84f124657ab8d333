import { randomUUID } from "node:crypto";
import { once } from "node:events";
import { connect } from "node:net";
import {
  ACCOUNT_EXPORT_PATH,
  ACCOUNT_MESSAGES,
  ACCOUNT_PREFERENCES_PATH,
  addDays,
  BADGES_PATH,
  type BadgesResponse,
  isolated,
  NOTIFICATION_PREFERENCES_PATH,
  type NotificationItem,
  type NotificationPreferences,
  type PreferencesResponse,
} from "@charity-steps/shared-types";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { EXPORT_PAGE_ROWS } from "../../../../src/repositories/account-data.js";
import { MAX_CONCURRENT_EXPORTS } from "../../../../src/routes/api/account/data.js";
import {
  buildTestApp,
  createSignedInWalker,
  dialects,
  type RunningServer,
  startTestServer,
  type TestApp,
} from "../../../helper.js";
import { downloadExport, walkerWithData } from "../../../support/account-data.js";
import { TEST_MONTH, TEST_TODAY, useTestClock } from "../../../support/clock.js";

// The walkers' data is stored for today and this month: a fixed day, so the export cannot straddle midnight.
useTestClock();

interface ExportedDay {
  date: string;
  totalSteps: number;
  manualSteps: number;
  counters: { kind: string; deviceId: string | null; source: string; steps: number }[];
}

describe.each(dialects)("Download my data (%s)", (dialect) => {
  let testApp: TestApp;
  beforeAll(async () => {
    testApp = await buildTestApp(dialect);
  });
  afterAll(async () => testApp?.close());

  it("answers a ZIP of the walker's profile, days, months, manual entries with their photos, groups, sessions and keys", async () => {
    const { app } = testApp;
    const ana = await walkerWithData(app);
    const other = await walkerWithData(app);
    const joined = await other.account.post("/api/groups/join", { joinCode: ana.joinCode });
    expect(joined.statusCode, joined.body).toBe(201);
    const settings = await ana.account.put(ACCOUNT_PREFERENCES_PATH, {
      dailyGoal: 8_000,
      theme: "dark",
      onboarded: true,
    });
    expect(settings.statusCode, settings.body).toBe(200);
    const { onboardedAt } = settings.json<PreferencesResponse>();
    // Reading the badges awards all that are due, so the export holds them whatever the timing.
    const earned = (await ana.account.get(BADGES_PATH))
      .json<BadgesResponse>()
      .items.flatMap((badge) => (badge.earnedAt === null ? [] : [{ id: badge.id, earnedAt: badge.earnedAt }]))
      .sort((a, b) => a.earnedAt.localeCompare(b.earnedAt) || a.id.localeCompare(b.id));
    expect(earned.map((badge) => badge.id)).toContain("joined-a-group");

    // A browser of Ana's gets pushes (subscribed after the join, so nothing is pushed to it here).
    await app.repositories.notifications.addSubscription({
      user_id: ana.user.id,
      endpoint: "https://fcm.googleapis.com/fcm/send/the-capability-to-push-to-ana",
      p256dh: "BK".padEnd(87, "A"),
      auth: "secret-auth-16by",
      expiration_time: null,
      created_at: Date.UTC(2026, 10, 21, 12, 0),
    });
    await ana.account.put(NOTIFICATION_PREFERENCES_PATH, { quietHours: { start: "22:00", end: "07:00" } });

    // A challenge Ana is in, with her fundraising page.
    const operatorId = (
      await app.repositories.users.upsertFromIdentity({
        issuer: "https://issuer.test",
        subject: `operator-${dialect}`,
        email: null,
        firstName: "Op",
        lastName: null,
        pictureUrl: null,
      })
    ).id;
    const challenge = await app.services.challenges.createPublic(
      {
        name: "Ana's Winter Walk",
        description: "",
        charityName: "British Heart Foundation",
        kind: "total_steps",
        target: 50_000,
        dailyTarget: null,
        startsOn: "2026-11-21",
        endsOn: "2026-11-30",
      },
      operatorId,
    );
    await app.services.challenges.join(challenge.id, ana.user.id);
    await app.services.challenges.setFundraising(challenge.id, ana.user.id, "https://www.bhf.org.uk/ana");

    const download = await downloadExport(app, ana.cookie);
    const { response } = download;
    const confirmed = Date.UTC(2026, 10, 2, 9, 0);
    await app.database.db
      .updateTable("users")
      .set({ email_verified_at: confirmed })
      .where("id", "=", other.user.id)
      .execute();
    expect((await downloadExport(app, other.cookie)).json("profile.json")).toMatchObject({
      emailConfirmed: true,
      emailConfirmedAt: new Date(confirmed).toISOString(),
    });
    expect(response.headers["content-type"]).toBe("application/zip");
    expect(response.headers["content-disposition"]).toMatch(
      /^attachment; filename="charity-steps-data-\d{4}-\d{2}-\d{2}\.zip"$/,
    );
    expect(response.headers["cache-control"]).toBe("no-store");

    const names = Object.keys(download.files).sort();
    expect(names.filter((name) => !name.startsWith("photos/"))).toEqual([
      "challenges.json",
      "days.csv",
      "days.json",
      "groups.json",
      "health-keys.json",
      "manual-entries.json",
      "months.json",
      "notifications.json",
      "prize-draws.json",
      "profile.json",
      "sessions.json",
    ]);

    const notifications = download.json<{
      preferences: NotificationPreferences;
      notifications: NotificationItem[];
      pushSubscriptions: unknown[];
    }>("notifications.json");
    expect(notifications.preferences.quietHours).toEqual({ start: "22:00", end: "07:00" });
    expect(notifications.notifications).toEqual([
      expect.objectContaining({ kind: "group_joined", title: `New member in ${isolated(ana.groupName)}` }),
    ]);
    // Where pushes go, shortened to the push service: the full endpoint is a capability.
    expect(notifications.pushSubscriptions).toEqual([
      {
        endpointOrigin: "https://fcm.googleapis.com",
        createdAt: "2026-11-21T12:00:00.000Z",
        lastSuccessAt: null,
      },
    ]);
    expect(download.text("notifications.json")).not.toContain("the-capability-to-push-to-ana");
    expect(download.json("challenges.json")).toEqual([
      {
        id: challenge.id,
        name: "Ana's Winter Walk",
        kind: "total_steps",
        target: 50_000,
        dailyTarget: null,
        startsOn: "2026-11-21",
        endsOn: "2026-11-30",
        charity: "British Heart Foundation",
        joinedAt: expect.stringMatching(/^2026-11-21T/),
        completedAt: null,
        fundraisingUrl: "https://www.bhf.org.uk/ana",
      },
    ]);

    expect(download.json("profile.json")).toEqual({
      firstName: ana.firstName,
      lastName: ana.lastName,
      email: ana.email,
      createdAt: new Date(ana.user.created_at).toISOString(),
      charity: "British Heart Foundation",
      emailConfirmed: false,
      emailConfirmedAt: null,
      theme: "dark",
      welcomedAt: onboardedAt,
      weeklyEmail: true,
      dailyGoals: [{ from: TEST_TODAY, steps: 8_000, setAt: onboardedAt }],
      badges: earned,
    });

    const days = download.json<ExportedDay[]>("days.json");
    expect(days).toHaveLength(1);
    expect(days[0]).toMatchObject({ date: ana.today, totalSteps: 5000, manualSteps: 3000 });
    expect(
      days[0]?.counters.map(({ kind, deviceId, source, steps }) => ({ kind, deviceId, source, steps })),
    ).toEqual(
      [
        { kind: "motion", deviceId: ana.phoneId, source: "device_motion", steps: 1200 },
        { kind: "motion", deviceId: ana.watchId, source: "device_motion", steps: 800 },
      ].sort((a, b) => (`device:${a.deviceId}` < `device:${b.deviceId}` ? -1 : 1)),
    );
    const csv = download.text("days.csv").trimEnd().split("\r\n");
    expect(csv[0]).toBe(
      "date,total_steps,motion_steps,health_steps,manual_steps,counter_kind,device_id,source,counter_steps",
    );
    expect(csv.slice(1).sort()).toEqual(
      [
        `${ana.today},5000,2000,0,3000,motion,${ana.phoneId},device_motion,1200`,
        `${ana.today},5000,2000,0,3000,motion,${ana.watchId},device_motion,800`,
      ].sort(),
    );

    expect(download.json("months.json")).toEqual([
      { month: TEST_MONTH, totalSteps: 5000, updatedAt: expect.any(String) },
    ]);

    const entries =
      download.json<{ date: string; steps: number; note: string; photo: string }[]>("manual-entries.json");
    expect(entries).toEqual([
      expect.objectContaining({ date: ana.today, steps: 3000, note: ana.note, photo: expect.any(String) }),
    ]);
    // Its test photo carries no capture date, so it waits for a check: the export says so, and why.
    expect(entries[0]).toMatchObject({ status: "pending", decisionReason: null, decidedAt: null });
    expect((entries[0] as unknown as { reasons: string[] }).reasons).toContain("capture-date-missing");
    const photoName = entries[0]?.photo ?? "";
    expect(photoName).toMatch(/^photos\/[0-9a-f-]+\.(jpg|png|webp)$/);
    expect(Buffer.from(download.files[photoName] ?? [])).toEqual(ana.photoBytes);
    expect(names.filter((name) => name.startsWith("photos/"))).toEqual([photoName]);

    const groups = download.json<Record<string, unknown>[]>("groups.json");
    expect(groups).toEqual([
      expect.objectContaining({
        name: ana.groupName,
        role: "admin",
        members: [
          { firstName: ana.firstName, lastName: ana.lastName, joinedAt: expect.any(String), you: true },
          { firstName: other.firstName, lastName: other.lastName, joinedAt: expect.any(String), you: false },
        ],
      }),
    ]);

    const sessions = download.json<Record<string, unknown>[]>("sessions.json");
    expect(sessions).toEqual([
      expect.objectContaining({
        browser: expect.any(String),
        createdAt: expect.any(String),
        thisDevice: true,
      }),
    ]);
    const keys = download.json("health-keys.json");
    expect(keys).toEqual([{ name: ana.keyName, createdAt: expect.any(String), lastUsedAt: null }]);

    // Nothing secret and nothing of another walker's (but the names the leaderboard shows).
    const hashes = await app.database.db.selectFrom("sessions").select("id_hash").execute();
    const keyHashes = await app.database.db.selectFrom("step_import_keys").select("key_hash").execute();
    const everything = Object.entries(download.files)
      .filter(([name]) => !name.startsWith("photos/"))
      .map(([, bytes]) => Buffer.from(bytes).toString("utf8"))
      .join("\n");
    for (const secret of [
      ana.token,
      ana.keySecret,
      ...hashes.map((row) => row.id_hash),
      ...keyHashes.map((row) => row.key_hash),
      other.email,
      other.note,
      other.keyName,
      other.groupName,
      other.phoneId,
      other.watchId,
    ]) {
      expect(everything).not.toContain(secret);
    }
    for (const bytes of Object.values(download.files)) {
      expect(Buffer.from(bytes).includes(other.photoBytes)).toBe(false);
    }
  });

  it("writes a walker with nothing yet as empty lists", async () => {
    const { app } = testApp;
    const walker = await createSignedInWalker(app, "Newcomer");
    const download = await downloadExport(app, walker.cookie);
    for (const name of [
      "days.json",
      "months.json",
      "manual-entries.json",
      "groups.json",
      "health-keys.json",
      "prize-draws.json",
    ]) {
      expect(download.json(name), name).toEqual([]);
    }
    expect(download.text("days.csv").split("\r\n")[1]).toBe("");
  });

  it("prepares one export per walker at a time (429), and only a few at once on the process (503)", async () => {
    const { app } = testApp;
    const ana = await walkerWithData(app);
    const exportOf = (cookie: string) =>
      app.inject({ method: "GET", url: ACCOUNT_EXPORT_PATH, headers: { cookie } });

    const [first, second] = await Promise.all([exportOf(ana.cookie), exportOf(ana.cookie)]);
    expect(first.statusCode).toBe(200);
    expect(second.statusCode).toBe(429);
    expect(second.json()).toEqual({ message: ACCOUNT_MESSAGES.exportRunning });

    const others = await Promise.all(
      Array.from({ length: MAX_CONCURRENT_EXPORTS + 1 }, () => walkerWithData(app)),
    );
    const answers = await Promise.all(others.map((walker) => exportOf(walker.cookie)));
    expect(answers.map((answer) => answer.statusCode)).toEqual([
      ...Array.from({ length: MAX_CONCURRENT_EXPORTS }, () => 200),
      503,
    ]);
    const busy = answers.at(-1);
    expect(busy?.headers["retry-after"]).toMatch(/^\d+$/);
    expect(busy?.json()).toEqual({ message: ACCOUNT_MESSAGES.exportBusy });

    // Once they are done, each can download again.
    expect((await exportOf(ana.cookie)).statusCode).toBe(200);
    expect((await exportOf(others.at(-1)?.cookie ?? "")).statusCode).toBe(200);
  });

  it("refuses a walker who is not signed in", async () => {
    const response = await testApp.app.inject({ method: "GET", url: ACCOUNT_EXPORT_PATH });
    expect(response.statusCode).toBe(401);
  });
});

/** Shorter than production's, so that a test can wait it out. */
const STALLED_DOWNLOAD_MS = 1_500;

describe.each(dialects)("Download my data, a long history (%s)", (dialect) => {
  let server: RunningServer;
  beforeAll(async () => {
    server = await startTestServer(
      dialect,
      {},
      { connectionLimits: { stalledDownloadMs: STALLED_DOWNLOAD_MS } },
    );
  });
  afterAll(async () => server?.close());

  /** Years of days and hundreds of manual entries with photos, written straight to the tables. */
  const walkerWithHistory = async (days: number, entries: number, photoBytes: number) => {
    const { app } = server;
    const walker = await createSignedInWalker(app, "Longtime");
    const { db } = app.database;
    const dayRows = Array.from({ length: days }, (_, index) => {
      const day = addDays("2024-01-01", index);
      return { day, month: day.slice(0, 7), steps: 1000 + index };
    });
    for (let start = 0; start < dayRows.length; start += 100) {
      const page = dayRows.slice(start, start + 100);
      await db
        .insertInto("step_days")
        .values(
          page.map(({ day, month, steps }) => ({
            user_id: walker.user.id,
            day,
            month,
            motion_steps: steps,
            health_steps: 0,
            manual_steps: 0,
            total_steps: steps,
            updated_at: 1,
          })),
        )
        .execute();
      await db
        .insertInto("step_counters")
        .values(
          page.map(({ day, steps }) => ({
            user_id: walker.user.id,
            day,
            counter_id: "device:phone",
            kind: "motion" as const,
            source: "device_motion",
            steps,
            updated_at: 1,
          })),
        )
        .execute();
    }
    for (let index = 0; index < entries; index++) {
      const photoId = randomUUID();
      await db
        .insertInto("step_photos")
        .values({
          id: photoId,
          user_id: walker.user.id,
          content_type: "image/webp",
          width: 1,
          height: 1,
          byte_size: photoBytes,
          data: Buffer.alloc(photoBytes, index % 251),
          created_at: 1_000 + index,
        })
        .execute();
      await db
        .insertInto("manual_step_entries")
        .values({
          id: randomUUID(),
          user_id: walker.user.id,
          day: "2024-06-01",
          steps: 1,
          note: `entry ${index}`,
          idempotency_key: randomUUID(),
          photo_id: photoId,
          created_at: 1_000 + index,
        })
        .execute();
    }
    return { ...walker, dayRows };
  };

  it("reads every day and entry across many pages, each photo whole", async () => {
    const walker = await walkerWithHistory(EXPORT_PAGE_ROWS * 2 + 50, EXPORT_PAGE_ROWS + 5, 2_000);
    const download = await downloadExport(server.app, walker.cookie);
    const days = download.json<{ date: string; totalSteps: number }[]>("days.json");
    expect(days.map(({ date, totalSteps }) => [date, totalSteps])).toEqual(
      walker.dayRows.map(({ day, steps }) => [day, steps]),
    );
    expect(download.text("days.csv").trimEnd().split("\r\n")).toHaveLength(walker.dayRows.length + 1);
    const entries = download.json<{ note: string; photo: string }[]>("manual-entries.json");
    expect(entries.map((entry) => entry.note)).toEqual(
      Array.from({ length: EXPORT_PAGE_ROWS + 5 }, (_, index) => `entry ${index}`),
    );
    entries.forEach((entry, index) => {
      expect(Buffer.from(download.files[entry.photo] ?? []).equals(Buffer.alloc(2_000, index % 251))).toBe(
        true,
      );
    });
  });

  it("lets the walker download again as soon as a download they abandoned is closed", async () => {
    // More than the sockets hold, so the server is still writing when the walker gives up.
    const walker = await walkerWithHistory(10, 40, 1_000_000);
    const url = `${server.origin}${ACCOUNT_EXPORT_PATH}`;
    const abandoned = new AbortController();
    const first = await fetch(url, { headers: { cookie: walker.cookie }, signal: abandoned.signal });
    expect(first.status).toBe(200);
    const reader = first.body?.getReader();
    await reader?.read();
    const whileRunning = await fetch(url, { headers: { cookie: walker.cookie } });
    expect(whileRunning.status).toBe(429);
    await whileRunning.arrayBuffer();
    abandoned.abort();
    await expect
      .poll(async () => {
        const again = await fetch(url, { headers: { cookie: walker.cookie } });
        await again.arrayBuffer();
        return again.status;
      })
      .toBe(200);
  });

  /** How a chunked body ends when the server finishes it. */
  const LAST_CHUNK = "\r\n0\r\n\r\n";

  /**
   * A download whose client reads its first bytes and then stops reading: a socket of its own, paused,
   * so that nothing but the kernel's buffers holds what the server sends.
   */
  const stalledDownload = async (cookie: string) => {
    const socket = connect({ host: "127.0.0.1", port: Number(new URL(server.origin).port) });
    let text = "";
    socket.on("data", (chunk: Buffer) => {
      text += chunk.toString("latin1");
      if (text.endsWith(LAST_CHUNK)) ended();
    });
    let ended: () => void = () => {};
    // The connection's close, or the chunked body's last chunk were the download whole (a failure).
    const closed = new Promise<void>((done) => {
      ended = done;
    });
    socket.once("close", () => ended());
    await once(socket, "connect");
    socket.write(`GET ${ACCOUNT_EXPORT_PATH} HTTP/1.1\r\nHost: 127.0.0.1\r\nCookie: ${cookie}\r\n\r\n`);
    await once(socket, "data");
    socket.pause();
    /** Takes what is left, once the server has closed the connection; the whole answer. */
    const readToEnd = async () => {
      socket.resume();
      await closed;
      return text;
    };
    return { head: text.slice(0, text.indexOf("\r\n")), readToEnd };
  };

  it("cuts a download its client stopped taking, so that walkers who hold every slot do not keep others out", async () => {
    // Each export is more than the sockets hold, so the server is still writing when its client stops reading.
    const holders = await Promise.all(
      Array.from({ length: MAX_CONCURRENT_EXPORTS }, () => walkerWithHistory(10, 24, 1_000_000)),
    );
    const stalled = await Promise.all(holders.map((holder) => stalledDownload(holder.cookie)));
    // No stall can have begun before its answer started: the time to the slot's freeing counts from here.
    const stalledSince = performance.now();
    expect(stalled.map((download) => download.head)).toEqual(stalled.map(() => "HTTP/1.1 200 OK"));
    const url = `${server.origin}${ACCOUNT_EXPORT_PATH}`;
    const other = await walkerWithHistory(1, 0, 0);
    const busy = await fetch(url, { headers: { cookie: other.cookie } });
    expect(busy.status).toBe(503);
    expect(await busy.json()).toEqual({ message: ACCOUNT_MESSAGES.exportBusy });

    // Every slot frees: two other walkers get their downloads at the same time. (One freed slot is
    // not enough to read the stalled answers below: the other might still be waiting to be cut.)
    const another = await walkerWithHistory(1, 0, 0);
    await expect
      .poll(
        async () => {
          const answers = await Promise.all(
            [other, another].map(async (walker) => {
              const again = await fetch(url, { headers: { cookie: walker.cookie } });
              await again.arrayBuffer();
              return again.status;
            }),
          );
          return answers.join(" ");
        },
        { timeout: 30_000, interval: 250 },
      )
      .toBe("200 200");
    expect(performance.now() - stalledSince).toBeGreaterThanOrEqual(STALLED_DOWNLOAD_MS - 250);

    // The stalled downloads were cut: each connection closed before the chunked body's last chunk.
    for (const download of stalled) {
      const answer = await download.readToEnd();
      expect(answer.length).toBeGreaterThan(0);
      expect(answer.endsWith(LAST_CHUNK)).toBe(false);
    }
  });
});
