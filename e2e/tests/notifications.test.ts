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
    await newSignedInWalker(joiner(), server.origin, { firstName: "Joanna", lastName: "Walker" });
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
    await item.getByText("New member in Canal Walkers").waitFor();
    expect(await item.textContent()).toContain("Joanna W joined Canal Walkers. The group now has 2 members.");
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
    await expectAccessible(page, "account notifications, dark");
  });
});
