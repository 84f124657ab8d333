import {
  ACCOUNT_PREFERENCES_PATH,
  type DayString,
  EMAIL_UNSUBSCRIBE_PATH,
  NOTIFICATION_PREFERENCES_PATH,
  NOTIFICATIONS_PATH,
  type NotificationPreferences,
  type NotificationsResponse,
  type PreferencesResponse,
  UNSUBSCRIBE_LINK_NOT_VALID_MESSAGE,
} from "@charity-steps/shared-types";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { escapeHtml } from "../../src/auth/provider/pages.js";
import { SUMMARIES_TOLD_AT_ONCE } from "../../src/notifications/weekly-summaries.js";
import { buildTestApp, createSignedInWalker, dialects, type TestApp } from "../helper.js";
import { atMoment, useTestClock } from "../support/clock.js";
import { warningsWhile, watchNoticesRecorded } from "../support/notices.js";
import { mailHeader, startSmtpServer, type TestSmtpServer, waitFor } from "../support/smtp-server.js";
import { mailedWalker, walkedOn } from "../support/steps.js";

// Walkers sign in at a fixed moment (21 November 2026), whatever day the tests run on.
useTestClock();

describe.each(dialects)("the week's summary (%s)", (dialect) => {
  let smtp: TestSmtpServer;
  let testApp: TestApp;
  beforeAll(async () => {
    smtp = await startSmtpServer();
    testApp = await buildTestApp(dialect, {
      SMTP_URL: smtp.url,
      MAIL_FROM: "Charity Steps <steps@example.org>",
    });
  });
  afterAll(async () => {
    await testApp?.close();
    await smtp?.close();
  });

  const walker = (name: string, options?: { confirmed?: boolean }) =>
    mailedWalker(testApp.app, name, options);
  const walked = (userId: string, day: DayString, steps: number) => walkedOn(testApp.app, userId, day, steps);
  // The mail a look queues is sent before the clock moves on: a send that began at one moment and
  // went on at another would find its timers' deadlines months away.
  const tick = (iso: string) =>
    atMoment(iso, async () => {
      const told = await testApp.app.services.weeklySummaries.tick();
      await testApp.app.services.mail.idle();
      return told;
    });
  const listed = async (cookie: string) =>
    (
      await testApp.app.inject({ method: "GET", url: NOTIFICATIONS_PATH, headers: { cookie } })
    ).json<NotificationsResponse>().items;
  const preferences = async (cookie: string) =>
    (
      await testApp.app.inject({ method: "GET", url: ACCOUNT_PREFERENCES_PATH, headers: { cookie } })
    ).json<PreferencesResponse>();

  it("tells Monday's card once to each walker who walked, and mails it to those who want it, with a one-click unsubscribe that works", async () => {
    const ada = await walker("Ada");
    await ada.api.post("/api/charity/select", { charityName: "British Heart Foundation" });
    await walked(ada.user.id, "2026-11-17", 10_000);
    await walked(ada.user.id, "2026-11-18", 8_000);
    // Not mailed: an email not confirmed, and a walker who stopped it (both told in the app); no
    // steps in the two weeks (not told at all).
    const bo = await walker("Bo", { confirmed: false });
    await walked(bo.user.id, "2026-11-17", 12_000);
    await walker("Cy");
    const dee = await walker("Dee");
    await walked(dee.user.id, "2026-11-17", 12_000);
    const off = await dee.api.put(ACCOUNT_PREFERENCES_PATH, { weeklyEmail: false });
    expect(off.json<PreferencesResponse>().weeklyEmail).toBe(false);

    // Monday 23 November: nothing before 07:00 London, then Ada's, Bo's and Dee's, once, however
    // often it looks; a mail to Ada alone.
    expect(await tick("2026-11-23T06:59:00Z")).toBe(0);
    // The clock stays at that Monday while the mail goes out: the queue sends what is due by its clock.
    await atMoment("2026-11-23T07:00:00Z", async () => {
      const { weeklySummaries } = testApp.app.services;
      expect(await weeklySummaries.tick()).toBe(3);
      expect(await weeklySummaries.tick()).toBe(0);
      await waitFor(() => smtp.received.length === 1);
    });
    expect(await tick("2026-11-25T12:00:00Z")).toBe(0);
    for (const told of [ada, bo, dee]) {
      expect(
        (await listed(told.cookie)).map(({ kind, title, body, url }) => ({ kind, title, body, url })),
      ).toEqual([
        {
          kind: "weekly_summary",
          title: "Your week from Mon 16 Nov",
          body:
            told === ada
              ? "18,000 steps, 1 of 7 days on goal. Your first week of steps with us."
              : "12,000 steps, 1 of 7 days on goal. Your first week of steps with us.",
          url: "/dashboard",
        },
      ]);
    }
    const [mail] = smtp.received;
    expect(mail?.to).toMatchObject({ text: ada.user.email });
    expect(mail?.subject).toBe("Your week: 18,000 steps");
    expect(mail?.text).toContain("Your week from Mon 16 Nov:");
    expect(mail?.text).toContain("- Days on goal: 1 of 7");
    expect(mail?.text).toContain("- Best day: Tue 17 Nov: 10,000 steps");
    expect(mail?.text).toContain("- Your first week of steps with us");
    expect(mail?.text).toContain("- Your 18,000 steps last week walked for British Heart Foundation");
    expect(mail?.text).toMatch(/See it in Charity Steps: http\S+\/dashboard\n/);
    // Told whatever the day a look reaches the walker: from Monday, or later in the week.
    expect(mail?.text).toContain("You get this once a week, after each week ends. To stop it: ");
    expect(mail?.html).toContain("You get this once a week, after each week ends.");
    expect(`${mail?.text}${mail?.html}`).not.toContain("every Monday");
    // The headers as the mail client reads them (RFC 8058).
    const header = (name: string) => mailHeader(mail, name);
    expect(header("list-unsubscribe-post")).toBe("List-Unsubscribe=One-Click");
    const link = new URL(/^<([^>]+)>$/.exec(header("list-unsubscribe") ?? "")?.[1] ?? "");
    expect(link.pathname).toBe(EMAIL_UNSUBSCRIBE_PATH);
    expect(mail?.text).toContain(link.href);

    // The mail client's one click: a POST with the RFC 8058 body, no session, from another server.
    const clicked = await testApp.app.inject({
      method: "POST",
      url: `${link.pathname}${link.search}`,
      headers: { "content-type": "application/x-www-form-urlencoded" },
      payload: "List-Unsubscribe=One-Click",
    });
    expect(clicked.statusCode).toBe(200);
    expect(clicked.body).toContain("The weekly summary stopped");
    // One choice, read alike by the Account page's switch and the Notifications section.
    expect((await preferences(ada.cookie)).weeklyEmail).toBe(false);
    const notificationPreferences = await testApp.app.inject({
      method: "GET",
      url: NOTIFICATION_PREFERENCES_PATH,
      headers: { cookie: ada.cookie },
    });
    expect(notificationPreferences.json<NotificationPreferences>().kinds.weekly_summary).toEqual({
      push: true,
      email: false,
    });

    // The next Monday: Ada walked, but asked for no more mail; the three are told in the app.
    await walked(ada.user.id, "2026-11-24", 11_000);
    expect(await tick("2026-11-30T08:00:00Z")).toBe(3);
    // Turned back on from the Notifications section, the Monday after brings the mail again.
    const on = await ada.api.put(NOTIFICATION_PREFERENCES_PATH, {
      kinds: { weekly_summary: { email: true } },
    });
    expect(on.json<NotificationPreferences>().kinds.weekly_summary.email).toBe(true);
    expect((await preferences(ada.cookie)).weeklyEmail).toBe(true);
    await atMoment("2026-12-07T08:00:00Z", async () => {
      expect(await testApp.app.services.weeklySummaries.tick()).toBe(1);
      await waitFor(() => smtp.received.length === 2);
    });
    // A week without steps after one with them: no best day of 0, and the change in words.
    const quiet = smtp.received[1];
    expect(quiet?.subject).toBe("Your week: 0 steps");
    expect(quiet?.text).toContain("- Steps: 0\n- Days on goal: 0 of 7\n");
    expect(quiet?.text).toContain("- No steps that week, after 11,000 steps the week before\n");
    expect(`${quiet?.text}${quiet?.html}`).not.toContain("Best day");
    expect(`${quiet?.text}${quiet?.html}`).not.toContain("fewer steps");
    expect(quiet?.html).toContain("<li>No steps that week, after 11,000 steps the week before</li>");
    expect((await listed(ada.cookie)).find(({ title }) => title === "Your week from Mon 30 Nov")?.body).toBe(
      "0 steps, 0 of 7 days on goal. No steps that week, after 11,000 steps the week before.",
    );
  });

  it("tells the others their week when one walker's cannot be stored, logs whose, and tells that walker at the next look", async () => {
    const walkers = [await walker("Fay"), await walker("Gus"), await walker("Hal")];
    for (const { user } of walkers) await walked(user.id, "2027-01-05", 9_000);
    const unlucky = walkers[1]?.user.id as string;
    // Until the fault clears, no transaction holding the unlucky walker's summary commits.
    const fault = watchNoticesRecorded(testApp.app.repositories.notifications, { refusing: unlucky });
    let warnings: Awaited<ReturnType<typeof warningsWhile>> = [];
    try {
      warnings = await warningsWhile(testApp.app.log, async () => {
        expect(await tick("2027-01-11T08:00:00Z")).toBe(2);
      });
    } finally {
      fault.restore();
    }
    expect(warnings.map(({ fields, message }) => [message, fields.userIds])).toEqual([
      ["weekly summaries: some could not be told", [unlucky]],
    ]);
    const summaries = async (cookie: string) =>
      (await listed(cookie)).filter(({ kind }) => kind === "weekly_summary").map(({ title }) => title);
    expect(await Promise.all(walkers.map(({ cookie }) => summaries(cookie)))).toEqual([
      ["Your week from Mon 4 Jan"],
      [],
      ["Your week from Mon 4 Jan"],
    ]);
    // The fault cleared, the next look tells the walker left out; the others' stored summaries keep
    // them from being told twice.
    expect(await tick("2027-01-11T08:05:00Z")).toBe(1);
    expect(await tick("2027-01-11T08:10:00Z")).toBe(0);
    expect(await summaries(walkers[1]?.cookie as string)).toEqual(["Your week from Mon 4 Jan"]);
  });

  /** One batch and one walker more, who walked on `day`, not mailed (their emails are not confirmed). */
  const batchAndOne = async (day: DayString) => {
    const walkers: string[] = [];
    for (let n = 0; n <= SUMMARIES_TOLD_AT_ONCE; n += 1) {
      const { user } = await createSignedInWalker(testApp.app, `Batch${n}`);
      await walked(user.id, day, 6_000);
      walkers.push(user.id);
    }
    // Walkers are told in the order of their ids: the first batch holds the first fifty.
    return walkers.sort();
  };
  const summaryOwners = async (week: DayString) =>
    (
      await testApp.app.database.db
        .selectFrom("notifications")
        .select("user_id")
        .where("kind", "=", "weekly_summary")
        .where("event_key", "=", week)
        .orderBy("user_id")
        .execute()
    ).map(({ user_id }) => user_id);
  /** Runs `work` with the weeks' reads watched (each call's walkers) and, with `failing`, refused. */
  const weeksReadWhile = async (
    work: () => Promise<void>,
    failing?: (userIds: readonly string[]) => boolean,
  ) => {
    const { habits } = testApp.app.repositories;
    const read = habits.weeks.bind(habits);
    const asked: string[][] = [];
    const spy = vi.spyOn(habits, "weeks").mockImplementation((walkers, start) => {
      const userIds = walkers.map((walker) => walker.id);
      asked.push(userIds);
      return failing?.(userIds)
        ? Promise.reject(new Error("the disk could not be read"))
        : read(walkers, start);
    });
    try {
      await work();
    } finally {
      spy.mockRestore();
    }
    return asked;
  };

  it("tells the rest of a batch one at a time when it fails together, names the walker it could not tell, and tells them at the next look", async () => {
    const walkers = await batchAndOne("2027-02-02");
    const [firstBatch, unlucky] = [walkers.slice(0, -1), walkers[0] as string];
    // The read of any weeks that hold the unlucky walker's fails, and so their whole first batch.
    let warnings: Awaited<ReturnType<typeof warningsWhile>> = [];
    const asked = await weeksReadWhile(
      async () => {
        warnings = await warningsWhile(testApp.app.log, async () => {
          expect(await tick("2027-02-08T08:00:00Z")).toBe(SUMMARIES_TOLD_AT_ONCE);
        });
      },
      (userIds) => userIds.includes(unlucky),
    );
    // The batch together, then each of its walkers alone, then the batch after.
    expect(asked).toEqual([firstBatch, ...firstBatch.map((userId) => [userId]), walkers.slice(-1)]);
    expect(warnings.map(({ fields, message }) => [message, fields.userIds])).toEqual([
      ["weekly summaries: some could not be told", [unlucky]],
    ]);
    expect(await summaryOwners("2027-02-01")).toEqual(walkers.slice(1));
    // The read mended, the next look tells the walker left out, and the one after tells no one twice.
    expect(await tick("2027-02-08T08:05:00Z")).toBe(1);
    expect(await tick("2027-02-08T08:10:00Z")).toBe(0);
    expect(await summaryOwners("2027-02-01")).toEqual(walkers);
  });

  it("tells a batch whose read failed once a walker at a time, and says the batch failed together", async () => {
    const walkers: string[] = [];
    for (const name of ["Ida", "Jo", "Kit"]) {
      const { user } = await createSignedInWalker(testApp.app, name);
      await walked(user.id, "2027-04-06", 6_000);
      walkers.push(user.id);
    }
    walkers.sort();
    let warnings: Awaited<ReturnType<typeof warningsWhile>> = [];
    const asked = await weeksReadWhile(
      async () => {
        warnings = await warningsWhile(testApp.app.log, async () => {
          expect(await tick("2027-04-12T08:00:00Z")).toBe(3);
        });
      },
      // The read of the three weeks together fails; each read alone answers.
      (userIds) => userIds.length > 1,
    );
    expect(asked).toEqual([walkers, ...walkers.map((userId) => [userId])]);
    expect(warnings.map(({ fields, message }) => [message, fields.userIds])).toEqual([
      ["weekly summaries: a batch failed together; each of its walkers was told on their own", []],
    ]);
    expect(await summaryOwners("2027-04-05")).toEqual(walkers);
  });

  it("stops the look when the database does not answer, naming the walkers it could not tell, and tells them at the next look", async () => {
    const walkers = await batchAndOne("2027-03-02");
    const firstBatch = walkers.slice(0, -1);
    const { health } = testApp.app.repositories;
    const down = vi.spyOn(health, "check").mockRejectedValue(new Error("connection refused"));
    let warnings: Awaited<ReturnType<typeof warningsWhile>> = [];
    let asked: string[][] = [];
    try {
      asked = await weeksReadWhile(
        async () => {
          warnings = await warningsWhile(testApp.app.log, async () => {
            expect(await tick("2027-03-08T08:00:00Z")).toBe(0);
          });
        },
        () => true,
      );
    } finally {
      down.mockRestore();
    }
    // The batch together, its first walker alone, then nothing more: not the batch after either.
    expect(asked).toEqual([firstBatch, [firstBatch[0]]]);
    expect(warnings.map(({ fields, message }) => [message, fields.userIds])).toEqual([
      ["weekly summaries: the database did not answer; the next look tries again", firstBatch],
    ]);
    expect(await summaryOwners("2027-03-01")).toEqual([]);
    // The database back, the next look tells them all, their weeks read a batch at a time.
    const mended = await weeksReadWhile(async () => {
      expect(await tick("2027-03-08T08:05:00Z")).toBe(walkers.length);
    });
    expect(mended).toEqual([firstBatch, walkers.slice(-1)]);
    expect(await summaryOwners("2027-03-01")).toEqual(walkers);
  });

  it("tells a walker only of weeks they had an account in: the week they joined, not the ones before", async () => {
    // The week of Monday 3 May 2027 (British Summer Time) ends at 23:00 UTC on Sunday 9 May.
    const joinedAt = (iso: string, name: string) =>
      atMoment(iso, () => createSignedInWalker(testApp.app, name));
    const before = await createSignedInWalker(testApp.app, "Lee");
    const lastEvening = await joinedAt("2027-05-09T22:30:00Z", "Mo");
    const afterMidnight = await joinedAt("2027-05-09T23:30:00Z", "Ned");
    // Each brought the week's steps with them (a phone's history, synced on joining).
    for (const { user } of [before, lastEvening, afterMidnight]) await walked(user.id, "2027-05-05", 7_000);

    // Monday's look: Ned joined once the week was over.
    expect(await tick("2027-05-10T07:00:00Z")).toBe(2);
    expect(await summaryOwners("2027-05-03")).toEqual([before.user.id, lastEvening.user.id].sort());
    // Nor is a walker who joins later in the week told of the week before they came, whenever it looks.
    const thursday = await joinedAt("2027-05-13T12:00:00Z", "Ola");
    await walked(thursday.user.id, "2027-05-07", 9_000);
    await walked(thursday.user.id, "2027-05-12", 4_000);
    expect(await tick("2027-05-13T12:05:00Z")).toBe(0);
    expect(await summaryOwners("2027-05-03")).toEqual([before.user.id, lastEvening.user.id].sort());

    // The week they joined in is theirs, part of it as it was. Ned walked none of his first week,
    // and his only steps came from before his account: he has nothing to look back on.
    expect(await tick("2027-05-17T07:00:00Z")).toBe(3);
    expect(await summaryOwners("2027-05-10")).toEqual(
      [before, lastEvening, thursday].map(({ user }) => user.id).sort(),
    );
    const told = await testApp.app.database.db
      .selectFrom("notifications")
      .select(["title", "body"])
      .where("user_id", "=", thursday.user.id)
      .where("kind", "=", "weekly_summary")
      .execute();
    expect(told).toEqual([
      {
        title: "Your week from Mon 10 May",
        // The week before, from their phone's history, was before the account: this is their first.
        body: "4,000 steps, 0 of 7 days on goal. Your first week of steps with us.",
      },
    ]);
  });

  it("asks a person who opens the link before stopping anything, and refuses a link not signed for its walker", async () => {
    const eve = await walker("Eve");
    const link = new URL(await testApp.app.services.unsubscribeLinks.url(eve.user.id, "weekly_summary"));
    const opened = await testApp.app.inject({ method: "GET", url: `${link.pathname}${link.search}` });
    expect(opened.statusCode).toBe(200);
    expect(opened.headers["content-type"]).toBe("text/html; charset=utf-8");
    expect(opened.body).toContain("Stop the weekly summary?");
    expect(opened.body).toContain('<button type="submit">Stop these emails</button>');
    // Opening it (as a link scanner would) stops nothing.
    expect((await preferences(eve.cookie)).weeklyEmail).toBe(true);

    const other = await walker("Fay");
    const forged = new URL(link);
    forged.searchParams.set("u", other.user.id);
    // Eve's link, changed to stop another kind of her mail.
    const otherKind = new URL(link);
    otherKind.searchParams.set("kind", "prize_won");
    const tampered = new URL(link);
    // One character off (a different one whatever the signature ends with).
    const signature = link.searchParams.get("t") ?? "";
    tampered.searchParams.set("t", `${signature.slice(0, -1)}${signature.endsWith("A") ? "B" : "A"}`);
    for (const url of [forged, otherKind, tampered]) {
      for (const method of ["GET", "POST"] as const) {
        const refused = await testApp.app.inject({
          method,
          url: `${url.pathname}${url.search}`,
          ...(method === "POST"
            ? {
                headers: { "content-type": "application/x-www-form-urlencoded" },
                payload: "List-Unsubscribe=One-Click",
              }
            : {}),
        });
        expect(refused.statusCode, `${method} ${url.search}`).toBe(400);
        expect(refused.json().message).toBe(UNSUBSCRIBE_LINK_NOT_VALID_MESSAGE);
      }
    }
    expect((await preferences(eve.cookie)).weeklyEmail).toBe(true);
    expect((await preferences(other.cookie)).weeklyEmail).toBe(true);
    // A link cut short (no kind, no signature) is one that is not valid, whichever way it comes.
    for (const method of ["GET", "POST"] as const) {
      const noKind = await testApp.app.inject({ method, url: `${EMAIL_UNSUBSCRIBE_PATH}?u=${eve.user.id}` });
      expect(noKind.statusCode, method).toBe(400);
      expect(noKind.json().message, method).toBe(UNSUBSCRIBE_LINK_NOT_VALID_MESSAGE);
    }
    // A one-click body the route does not take is told what is wrong with it, not that the link is bad.
    const wrongBody = await testApp.app.inject({
      method: "POST",
      url: `${link.pathname}${link.search}`,
      headers: { "content-type": "application/x-www-form-urlencoded" },
      payload: `List-Unsubscribe=${"x".repeat(65)}`,
    });
    expect(wrongBody.statusCode).toBe(400);
    expect(wrongBody.json().message).toBe("List-Unsubscribe must be at most 64 characters.");

    // A person who opens a spoiled link in a browser is shown a page that says what to do, not JSON:
    // a tampered one, and one a mail client cut short.
    for (const url of [
      `${tampered.pathname}${tampered.search}`,
      `${EMAIL_UNSUBSCRIBE_PATH}?u=${eve.user.id}`,
    ]) {
      const opened = await testApp.app.inject({
        method: "GET",
        url,
        headers: { accept: "text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8" },
      });
      expect(opened.statusCode, url).toBe(400);
      expect(opened.headers["content-type"], url).toBe("text/html; charset=utf-8");
      expect(opened.headers.vary, url).toBe("Accept");
      expect(opened.body, url).toContain("<h1>This link does not work</h1>");
      expect(opened.body, url).toContain(escapeHtml(UNSUBSCRIBE_LINK_NOT_VALID_MESSAGE));
      expect(opened.body, url).toContain('<a class="button" href="/account">Open your Account page</a>');
    }
    expect((await preferences(eve.cookie)).weeklyEmail).toBe(true);
  });
});
