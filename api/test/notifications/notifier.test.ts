import {
  isolated,
  NOTIFICATION_PREFERENCES_PATH,
  NOTIFICATIONS_PATH,
  type NotificationPreferences,
  type NotificationsResponse,
} from "@charity-steps/shared-types";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { buildTestApp, dialects, type TestApp } from "../helper.js";
import { useTestClock } from "../support/clock.js";
import { mailHeader, startSmtpServer, type TestSmtpServer, waitFor } from "../support/smtp-server.js";
import { mailedWalker } from "../support/steps.js";

// 21 November 2026, 12:00 London: outside the default quiet hours.
useTestClock();

describe.each(dialects)("notifications by email (%s)", (dialect) => {
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
  const notify = (userId: string, kind: "new_sign_in" | "goal_reached", eventKey: string) =>
    testApp.app.services.notifier.notify({
      userId,
      kind,
      eventKey,
      title: kind === "new_sign_in" ? "A new sign-in to your account" : "Daily goal reached",
      body:
        kind === "new_sign_in"
          ? "Someone signed in with Firefox on Android at 12:00 on 21 November."
          : "You walked 10,000 steps today.",
      url: kind === "new_sign_in" ? "/account" : "/dashboard",
    });
  const mailsTo = (email: string | null) =>
    smtp.received.filter((mail) => mail.to && "text" in mail.to && mail.to.text === email);
  const listed = async (cookie: string) =>
    (
      await testApp.app.inject({ method: "GET", url: NOTIFICATIONS_PATH, headers: { cookie } })
    ).json<NotificationsResponse>().items;
  const preferences = async (cookie: string) =>
    (
      await testApp.app.inject({ method: "GET", url: NOTIFICATION_PREFERENCES_PATH, headers: { cookie } })
    ).json<NotificationPreferences>();

  it("mails the kinds that go by email to a confirmed address, once per event, with a one-click unsubscribe for that kind", async () => {
    const ada = await walker("Ada");
    expect(await notify(ada.user.id, "new_sign_in", "device-1")).toBeDefined();
    // The same event again (another process, a second look): nothing more.
    expect(await notify(ada.user.id, "new_sign_in", "device-1")).toBeUndefined();
    // Off by email unless the walker turns it on.
    await notify(ada.user.id, "goal_reached", "2026-11-21");
    await waitFor(() => mailsTo(ada.user.email).length === 1);
    const [mail] = mailsTo(ada.user.email);
    expect(mail?.subject).toBe("A new sign-in to your account");
    expect(mail?.text).toContain(`Hello ${isolated("Ada")},`);
    expect(mail?.text).toContain("Someone signed in with Firefox on Android at 12:00 on 21 November.");
    const { publicUrl } = testApp.app.config;
    expect(mail?.text).toContain(`Open Charity Steps:\n${publicUrl}/account`);
    expect(mailHeader(mail, "list-unsubscribe-post")).toBe("List-Unsubscribe=One-Click");
    const link = new URL(/^<([^>]+)>$/.exec(mailHeader(mail, "list-unsubscribe") ?? "")?.[1] ?? "");
    expect(link.origin).toBe(new URL(publicUrl).origin);
    expect(link.searchParams.get("kind")).toBe("new_sign_in");
    expect(mail?.text).toContain("“A sign-in from a new browser” is on in your notification settings");
    expect(mail?.text).toContain(link.href);
    expect(mail?.html).toContain("Stop these emails</a>");

    // A person who opens the link is asked first.
    const opened = await testApp.app.inject({ method: "GET", url: `${link.pathname}${link.search}` });
    expect(opened.statusCode).toBe(200);
    expect(opened.body).toContain("Stop emails for “A sign-in from a new browser”?");
    // The mail client's one click, with no session: that kind stops, and nothing else.
    const clicked = await testApp.app.inject({
      method: "POST",
      url: `${link.pathname}${link.search}`,
      headers: { "content-type": "application/x-www-form-urlencoded" },
      payload: "List-Unsubscribe=One-Click",
    });
    expect(clicked.statusCode).toBe(200);
    expect(clicked.body).toContain("Emails for “A sign-in from a new browser” stopped");
    const after = await preferences(ada.cookie);
    expect(after.kinds.new_sign_in).toEqual({ push: true, email: false });
    expect(after.kinds.prize_won).toEqual({ push: true, email: true });
    expect(after.kinds.weekly_summary).toEqual({ push: true, email: true });

    // The next new sign-in is listed, and mailed no more.
    await notify(ada.user.id, "new_sign_in", "device-2");
    // A kind turned on by email is mailed.
    await ada.api.put(NOTIFICATION_PREFERENCES_PATH, { kinds: { goal_reached: { email: true } } });
    await notify(ada.user.id, "goal_reached", "2026-11-22");
    await waitFor(() => mailsTo(ada.user.email).length === 2);
    expect(mailsTo(ada.user.email).map((each) => each.subject)).toEqual([
      "A new sign-in to your account",
      "Daily goal reached",
    ]);
    expect((await listed(ada.cookie)).map((item) => item.kind).sort()).toEqual([
      "goal_reached",
      "goal_reached",
      "new_sign_in",
      "new_sign_in",
    ]);
    const queued = await testApp.app.database.db
      .selectFrom("mail_outbox")
      .select("unsubscribe_url")
      .where("user_id", "=", ada.user.id)
      .execute();
    expect(queued.map((row) => new URL(row.unsubscribe_url ?? "").searchParams.get("kind")).sort()).toEqual([
      "goal_reached",
      "new_sign_in",
    ]);
  });

  it("mails nobody whose address is not confirmed, and still lists what happened", async () => {
    const bo = await walker("Bo", { confirmed: false });
    expect(await notify(bo.user.id, "new_sign_in", "device-1")).toBeDefined();
    expect(await listed(bo.cookie)).toHaveLength(1);
    const queued = await testApp.app.database.db
      .selectFrom("mail_outbox")
      .select("id")
      .where("user_id", "=", bo.user.id)
      .execute();
    expect(queued).toEqual([]);
  });
});
