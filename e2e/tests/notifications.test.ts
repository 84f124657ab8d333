import { isolated } from "@charity-steps/shared-types";
import type { Browser, BrowserContext, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type AppServer, startAppServer } from "../support/app-server.js";
import { expectAccessible } from "../support/axe.js";
import { launchChromium, phoneContext, screenshot, watchForErrors } from "../support/chromium.js";
import { newSignedInWalker } from "../support/walker.js";

let server: AppServer;
let browser: Browser;
const walkers: { context: BrowserContext; page: Page; errors: string[] }[] = [];

beforeAll(async () => {
  [server, browser] = await Promise.all([startAppServer(), launchChromium()]);
  for (let i = 0; i < 2; i++) {
    const context = await phoneContext(browser);
    // Every call the page makes to ask for notification permission, counted: it must come from a tap.
    await context.addInitScript(() => {
      const asked = { count: 0 };
      Object.assign(window, { permissionAsked: asked });
      Notification.requestPermission = async () => {
        asked.count++;
        return "denied";
      };
    });
    const page = await context.newPage();
    walkers.push({ context, page, errors: watchForErrors(page) });
  }
});
afterAll(async () => {
  await browser?.close();
  await server?.stop();
});

const admin = () => walkers[0]?.page as Page;
const joiner = () => walkers[1]?.page as Page;
const permissionAsked = (page: Page) =>
  page.evaluate(() => (window as unknown as { permissionAsked: { count: number } }).permissionAsked.count);

describe("notifications", () => {
  it("shows a group admin who joined on the bell, lists it, and marks it read", async () => {
    await newSignedInWalker(admin(), server.origin, { firstName: "Ada" });
    // A name in Arabic, set apart in the English sentence so each keeps its own direction.
    await newSignedInWalker(joiner(), server.origin, { firstName: "سارة", lastName: "Walker" });
    const created = await admin()
      .context()
      .request.post(`${server.origin}/api/groups`, {
        data: { name: "Canal Walkers", description: "" },
      });
    expect(created.status()).toBe(201);
    const { joinCode } = (await created.json()) as { joinCode: string };
    const joined = await joiner().context().request.post(`${server.origin}/api/groups/join`, {
      data: { joinCode },
    });
    expect(joined.status()).toBe(201);

    const page = admin();
    await page.goto(`${server.origin}/dashboard`);
    const bell = page.getByRole("link", { name: "Notifications, 1 unread" });
    await bell.waitFor();
    await bell.click();
    await page.getByRole("heading", { level: 1, name: "Notifications" }).waitFor();
    const item = page.getByTestId("notification");
    await item.getByText(`New member in ${isolated("Canal Walkers")}`).waitFor();
    expect(await item.textContent()).toContain(
      `${isolated("سارة W")} joined ${isolated("Canal Walkers")}. The group now has 2 members.`,
    );
    await screenshot(page, "128-notifications");
    await expectAccessible(page, "notifications");

    await page.getByRole("button", { name: "Mark all as read" }).click();
    await page.getByRole("link", { name: "Notifications", exact: true }).waitFor();
    await page.getByText("All read.").waitFor();
    // Opening one goes where it points.
    await item.click();
    await page.waitForURL(/\/groups\/\d+$/);
    expect(walkers[0]?.errors).toEqual([]);
  });

  it("asks for permission only on a tap, and keeps each kind's switches", async () => {
    const page = admin();
    await page.goto(`${server.origin}/account`);
    const section = page.getByRole("region", { name: "Notifications" });
    const turnOn = section.getByRole("button", { name: "Turn on notifications on this device" });
    await turnOn.waitFor();
    expect(await permissionAsked(page)).toBe(0);
    const goalPush = section.getByRole("checkbox", { name: "Daily goal reached: push" });
    expect(await goalPush.isChecked()).toBe(true);
    await goalPush.uncheck();
    await expect
      .poll(async () => {
        const response = await page.context().request.get(`${server.origin}/api/notifications/preferences`);
        return ((await response.json()) as { kinds: { goal_reached: { push: boolean } } }).kinds.goal_reached
          .push;
      })
      .toBe(false);

    // A time typed digit by digit is saved once, when the walker moves on, and says so.
    const saves: unknown[] = [];
    page.on("request", (request) => {
      if (request.method() === "PUT" && request.url().endsWith("/api/notifications/preferences"))
        saves.push(request.postDataJSON());
    });
    const reminder = section.getByLabel("Streak reminder at");
    await reminder.focus();
    await page.keyboard.type("0630A");
    expect(saves).toEqual([]);
    // Then taps elsewhere.
    await section.getByRole("heading", { name: "Notifications" }).click();
    await section.getByRole("status").filter({ hasText: "Saved" }).waitFor();
    expect(saves).toEqual([{ reminderTime: "06:30" }]);
    expect(await reminder.inputValue()).toBe("06:30");
    await reminder.evaluate((element) => element.scrollIntoView({ block: "center" }));
    await screenshot(page, "129-account-notification-times", { fullPage: false });

    await section.evaluate((element) => element.scrollIntoView({ block: "start" }));
    await screenshot(page, "129-account-notifications", { fullPage: false });
    await expectAccessible(page, "account notifications", { include: "#notification-settings-title" });

    // The walker says no in the browser's prompt: the section says where to allow them.
    await turnOn.click();
    await section.getByText("Notifications are blocked for Charity Steps").waitFor();
    expect(await permissionAsked(page)).toBe(1);

    await page.reload();
    await section.getByRole("checkbox", { name: "Daily goal reached: push" }).waitFor();
    expect(await section.getByRole("checkbox", { name: "Daily goal reached: push" }).isChecked()).toBe(false);
    expect(await section.getByLabel("Streak reminder at").inputValue()).toBe("06:30");
    expect(await permissionAsked(page)).toBe(0);
  });

  it("shows both screens in the dark theme", async () => {
    const page = admin();
    const dark = await page.context().request.put(`${server.origin}/api/account/preferences`, {
      data: { theme: "dark" },
    });
    expect(dark.status()).toBe(200);
    await page.goto(`${server.origin}/notifications`);
    await page.getByTestId("notification").first().waitFor();
    await page.waitForFunction(() => document.documentElement.dataset.theme === "dark");
    await screenshot(page, "128-notifications-dark");
    await expectAccessible(page, "notifications, dark");
    await page.goto(`${server.origin}/account`);
    const section = page.getByRole("region", { name: "Notifications" });
    await section.getByRole("checkbox", { name: "Daily goal reached: push" }).waitFor();
    await section.evaluate((element) => element.scrollIntoView({ block: "start" }));
    await screenshot(page, "129-account-notifications-dark", { fullPage: false });
    await section
      .getByLabel("Streak reminder at")
      .evaluate((element) => element.scrollIntoView({ block: "center" }));
    await screenshot(page, "129-account-notification-times-dark", { fullPage: false });
    await expectAccessible(page, "account notifications, dark");
  });

  it("shows a push its service worker receives, and a tap on it opens its page in the app", async () => {
    const { context, page, errors } = walkers[1] as (typeof walkers)[number];
    await context.grantPermissions(["notifications"], { origin: server.origin });
    await page.goto(`${server.origin}/dashboard`);
    await page.evaluate(async () => {
      await navigator.serviceWorker.ready;
    });
    // The push as the browser hands it to the worker once decrypted: Chromium's DevTools protocol
    // delivers it to the page's registration, as a push service's message would arrive.
    const cdp = await context.newCDPSession(page);
    const registrationId = new Promise<string>((resolve) => {
      cdp.on("ServiceWorker.workerRegistrationUpdated", ({ registrations }) => {
        const ours = registrations.find((registration) => registration.scopeURL === `${server.origin}/`);
        if (ours && !ours.isDeleted) resolve(ours.registrationId);
      });
    });
    await cdp.send("ServiceWorker.enable");
    // The browser's own record of the push event, as DevTools' Push Messaging panel shows it: the
    // test reads the notifications only once the worker's handler has finished. Chromium can drop a
    // notification from that list for good when a page reads the list while a worker shows it (the
    // handler's showNotification resolved, and the worker then found nothing); the app itself never
    // reads the list.
    const completed = new Promise<string | undefined>((resolve) => {
      cdp.on("BackgroundService.backgroundServiceEventReceived", ({ backgroundServiceEvent: event }) => {
        if (event.eventName !== "Push event completed") return;
        resolve(event.eventMetadata.find((entry) => entry.key === "Status")?.value);
      });
    });
    await cdp.send("BackgroundService.startObserving", { service: "pushMessaging" });
    await cdp.send("BackgroundService.setRecording", { service: "pushMessaging", shouldRecord: true });
    const push = {
      kind: "group_joined",
      title: `New member in ${isolated("Canal Walkers")}`,
      body: `${isolated("Joanna W")} joined ${isolated("Canal Walkers")}. The group now has 2 members.`,
      url: "/groups",
    };
    await cdp.send("ServiceWorker.deliverPushMessage", {
      origin: server.origin,
      registrationId: await registrationId,
      data: JSON.stringify(push),
    });
    expect(await completed).toBe("Success");
    const shown = () =>
      page.evaluate(async () =>
        (await (await navigator.serviceWorker.ready).getNotifications()).map((notification) => ({
          title: notification.title,
          body: notification.body,
          tag: notification.tag,
          icon: new URL(notification.icon).pathname,
          data: notification.data as unknown,
        })),
      );
    await expect.poll(shown).toEqual([
      {
        title: push.title,
        body: push.body,
        tag: push.kind,
        icon: "/pwa-192x192.png",
        data: { url: "/groups" },
      },
    ]);

    // The walker taps it: the worker's own click handler runs (a tap the test cannot make in a
    // headless browser, so the event is dispatched in the worker), closes it, and takes the open
    // window of the app to its page.
    const [worker] = context.serviceWorkers();
    expect(worker?.url()).toBe(`${server.origin}/sw.js`);
    await worker?.evaluate(async () => {
      // This file's types are the page's; the worker's scope and its NotificationEvent, as used here.
      const scope = self as unknown as {
        registration: ServiceWorkerRegistration;
        NotificationEvent: new (type: string, init: { notification: Notification }) => Event;
      } & EventTarget;
      const [notification] = await scope.registration.getNotifications();
      if (!notification) throw new Error("no notification showing");
      // A dispatched event is not trusted, so the handler's waitUntil throws (reported in the
      // worker) once the window's move has started; the move goes on.
      scope.dispatchEvent(new scope.NotificationEvent("notificationclick", { notification }));
    });
    await page.waitForURL(`${server.origin}/groups`);
    await page.getByRole("heading", { level: 1, name: "Groups" }).waitFor();
    await expect.poll(shown).toEqual([]);
    expect(errors).toEqual([]);
  });
});
