import {
  NOTIFICATIONS_PATH,
  type NotificationsResponse,
  PUSH_SUBSCRIPTIONS_PATH,
} from "@charity-steps/shared-types";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  dialects,
  newWalker,
  type RunningServer,
  signIn,
  signOut,
  signUp,
  startTestServer,
  TestBrowser,
} from "../helper.js";
import { useTestClock } from "../support/clock.js";
import { PushReceiver } from "../support/push-receiver.js";

const PHONE =
  "Mozilla/5.0 (iPhone; CPU iPhone OS 17_5 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.5 Mobile/15E148 Safari/604.1";
const LAPTOP =
  "Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36";

// 23:00 in London: inside the default quiet hours, which a new sign-in does not wait for.
useTestClock(new Date("2026-11-21T23:00:00Z"));

describe.each(dialects)("a sign-in from a new browser (%s)", (dialect) => {
  let server: RunningServer;
  let receiver: PushReceiver;
  beforeAll(async () => {
    receiver = await PushReceiver.start();
    server = await startTestServer(dialect, { PUSH_ENDPOINT_ORIGINS: receiver.origin });
  });
  afterAll(async () => {
    await server?.close();
    await receiver?.close();
  });

  const notifications = async (browser: TestBrowser) =>
    JSON.parse((await browser.visit(`${server.origin}${NOTIFICATIONS_PATH}`)).body) as NotificationsResponse;

  it("is told, at once and by push, from a browser the walker never signed in from; their first and later ones are not", async () => {
    const walker = newWalker({ firstName: "Nadia" });
    const phone = new TestBrowser({ "user-agent": PHONE });
    await signUp(phone, server.origin, walker);
    // Signing up is a first sign-in: no news.
    expect((await notifications(phone)).items).toEqual([]);
    const browser = receiver.browser();
    const subscribed = await phone.visit(`${server.origin}${PUSH_SUBSCRIPTIONS_PATH}`, {
      method: "POST",
      headers: { "content-type": "application/json", origin: server.origin },
      body: JSON.stringify(browser.subscription),
    });
    expect(subscribed.response.status, subscribed.body).toBe(201);

    // The same phone again, after signing out: still no news.
    await signOut(phone, server.origin);
    await signIn(phone, server.origin, walker.email, walker.password);
    expect((await notifications(phone)).items).toEqual([]);

    const laptop = new TestBrowser({ "user-agent": LAPTOP });
    await signIn(laptop, server.origin, walker.email, walker.password);
    await receiver.waitFor(() => receiver.pushesTo(browser.id).length === 1);
    const [push] = receiver.pushesTo(browser.id);
    expect(push?.urgency).toBe("high");
    expect(push?.payload).toEqual({
      kind: "new_sign_in",
      title: "New sign-in to your account",
      body: "Chrome on Linux signed in to your account on 21 November 2026 at 23:00 (London time). If it was not you, change your password and sign out of your other devices on the Account page.",
      url: "/account",
    });
    expect(JSON.stringify(push?.payload)).not.toContain(walker.email);
    const listed = await notifications(laptop);
    expect(listed.items.map((item) => item.kind)).toEqual(["new_sign_in"]);

    // The laptop is known now.
    await signOut(laptop, server.origin);
    await signIn(laptop, server.origin, walker.email, walker.password);
    expect((await notifications(laptop)).items).toHaveLength(1);
  });
});
