import {
  ACCOUNT_PREFERENCES_PATH,
  defaultNotificationPreferences,
  NOTIFICATION_PREFERENCES_PATH,
  NOTIFICATIONS_PATH,
  NOTIFICATIONS_READ_PATH,
  type NotificationItem,
  type NotificationsResponse,
} from "@charity-steps/shared-types";
import { act, fireEvent, screen, waitFor, within } from "@testing-library/react";
import { HttpResponse, http } from "msw";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { signedInAs } from "../../support/handlers";
import { renderApp } from "../../support/render-app";
import { recordRequests, server } from "../../support/server";
import { testWalker } from "../../support/walker";

const NOW = new Date("2026-11-21T12:00:00Z");
/** A first render can take seconds on a busy machine. */
const LOADED = { timeout: 10_000 };

const joined: NotificationItem = {
  id: "0b3c1a53-6a52-4d4a-9c1e-111111111111",
  kind: "group_joined",
  title: "New member in Canal Walkers",
  body: "Joanna W joined Canal Walkers. The group now has 2 members.",
  url: "/groups/7",
  createdAt: "2026-11-21T11:30:00.000Z",
  readAt: null,
};
const won: NotificationItem = {
  id: "0b3c1a53-6a52-4d4a-9c1e-222222222222",
  kind: "prize_won",
  title: "You won a prize!",
  body: "Your ticket won a Gold prize in the draw for October 2026.",
  url: "/prizes/abc/claim",
  createdAt: "2026-11-20T09:00:00.000Z",
  readAt: "2026-11-20T10:00:00.000Z",
};

/** The server's list, which marking read changes. */
function notificationsServer(items: NotificationItem[]) {
  let stored = items;
  const answer = (): NotificationsResponse => ({
    items: stored,
    unread: stored.filter((item) => item.readAt === null).length,
    next: null,
  });
  server.use(
    http.get(NOTIFICATIONS_PATH, () => HttpResponse.json(answer())),
    http.post(NOTIFICATIONS_READ_PATH, async ({ request }) => {
      const { ids } = (await request.json()) as { ids?: string[] };
      stored = stored.map((item) =>
        !ids || ids.includes(item.id) ? { ...item, readAt: item.readAt ?? NOW.toISOString() } : item,
      );
      return HttpResponse.json({ unread: answer().unread });
    }),
  );
}

describe("notifications", () => {
  beforeEach(() => {
    vi.useFakeTimers({ toFake: ["Date"], now: NOW });
    localStorage.clear();
  });
  afterEach(() => vi.useRealTimers());

  it("shows the unread count on the header's bell, and the list newest first on its screen", async () => {
    server.use(signedInAs(testWalker));
    notificationsServer([joined, won]);
    renderApp("/notifications");
    const bell = await screen.findByRole("link", { name: "Notifications, 1 unread" });
    expect(within(bell).getByTestId("unread-count").textContent).toBe("1");
    expect(await screen.findByRole("heading", { level: 1, name: "Notifications" })).toBeTruthy();
    const items = await screen.findAllByTestId("notification");
    expect(items.map((item) => item.textContent)).toEqual([
      "Unread: New member in Canal WalkersJoanna W joined Canal Walkers. The group now has 2 members.21 November 2026 at 11:30",
      "You won a prize!Your ticket won a Gold prize in the draw for October 2026.20 November 2026 at 09:00",
    ]);
    expect(items[0]?.getAttribute("href")).toBe("/groups/7");
    expect(screen.getByTestId("unread-summary").textContent).toBe("1 unread.");
  });

  it("marks everything read from the list, and the bell's count goes", async () => {
    server.use(signedInAs(testWalker));
    notificationsServer([joined, { ...won, id: "0b3c1a53-6a52-4d4a-9c1e-333333333333", readAt: null }]);
    const sent = recordRequests();
    renderApp("/notifications");
    await screen.findByRole("link", { name: "Notifications, 2 unread" });
    fireEvent.click(await screen.findByRole("button", { name: "Mark all as read" }));
    await screen.findByRole("link", { name: "Notifications" });
    await waitFor(() => expect(screen.getByTestId("unread-summary").textContent).toBe("All read."));
    // (The app's own month and day checks may post too, after a cleared localStorage.)
    expect(sent.filter((request) => request.url === NOTIFICATIONS_READ_PATH)).toEqual([
      { method: "POST", url: NOTIFICATIONS_READ_PATH, body: {} },
    ]);
  });

  it("says so when there is nothing yet", async () => {
    server.use(signedInAs(testWalker));
    renderApp("/notifications");
    expect(await screen.findByText("Nothing yet")).toBeTruthy();
    // The bell joins the header once the screen has been painted.
    expect(await screen.findByRole("link", { name: "Notifications" })).toBeTruthy();
  });

  it("lists every kind on the Account page with a push and an email switch, and saves one change", async () => {
    server.use(signedInAs(testWalker));
    const sent = recordRequests();
    server.use(
      http.put(NOTIFICATION_PREFERENCES_PATH, () => {
        const saved = defaultNotificationPreferences();
        saved.kinds.goal_reached.push = false;
        return HttpResponse.json(saved);
      }),
    );
    renderApp("/account");
    const section = await screen.findByRole("region", { name: "Notifications" });
    const goalPush = await within(section).findByRole("checkbox", { name: "Daily goal reached: push" });
    expect((goalPush as HTMLInputElement).checked).toBe(true);
    expect(within(section).getAllByRole("checkbox")).toHaveLength(20);
    // Permission is asked for only on a tap: this browser (jsdom) cannot show notifications at all.
    expect(within(section).getByTestId("push-state").textContent).toContain(
      "This browser cannot show notifications.",
    );
    fireEvent.click(goalPush);
    await waitFor(() => expect((goalPush as HTMLInputElement).checked).toBe(false));
    await waitFor(() =>
      expect(sent.filter((request) => request.method === "PUT")).toEqual([
        {
          method: "PUT",
          url: NOTIFICATION_PREFERENCES_PATH,
          body: { kinds: { goal_reached: { push: false } } },
        },
      ]),
    );
  });

  it("saves the streak reminder's time once, when the walker leaves the field, not at each keystroke", async () => {
    server.use(signedInAs(testWalker));
    const sent = recordRequests();
    server.use(
      http.put(NOTIFICATION_PREFERENCES_PATH, async ({ request }) => {
        const saved = defaultNotificationPreferences();
        saved.reminderTime = ((await request.json()) as { reminderTime: string }).reminderTime;
        return HttpResponse.json(saved);
      }),
    );
    renderApp("/account");
    const section = await screen.findByRole("region", { name: "Notifications" }, LOADED);
    const reminder = (await within(section).findByLabelText(
      "Streak reminder at",
      {},
      LOADED,
    )) as HTMLInputElement;
    act(() => reminder.focus());
    // A time input reports each segment as it is typed: 06:30 passes through 06:03 on the way.
    for (const typed of ["06:00", "06:03", "06:30"]) fireEvent.change(reminder, { target: { value: typed } });
    expect(reminder.value).toBe("06:30");
    expect(sent.filter((request) => request.method === "PUT")).toEqual([]);
    act(() => reminder.blur());
    expect(await within(section).findByText("Saved", {}, LOADED)).toBeTruthy();
    expect(sent.filter((request) => request.method === "PUT")).toEqual([
      { method: "PUT", url: NOTIFICATION_PREFERENCES_PATH, body: { reminderTime: "06:30" } },
    ]);
    expect(reminder.value).toBe("06:30");
    // Leaving it again unchanged saves nothing more.
    act(() => reminder.focus());
    act(() => reminder.blur());
    expect(sent.filter((request) => request.method === "PUT")).toHaveLength(1);
  });

  it("saves quiet hours' end on leaving the field, keeping their start, and Escape puts a half-typed time back", async () => {
    server.use(signedInAs(testWalker));
    const sent = recordRequests();
    server.use(
      http.put(NOTIFICATION_PREFERENCES_PATH, async ({ request }) => {
        const saved = defaultNotificationPreferences();
        saved.quietHours = (
          (await request.json()) as { quietHours: { start: string; end: string } }
        ).quietHours;
        return HttpResponse.json(saved);
      }),
    );
    renderApp("/account");
    const section = await screen.findByRole("region", { name: "Notifications" }, LOADED);
    const from = (await within(section).findByLabelText("From", {}, LOADED)) as HTMLInputElement;
    const to = within(section).getByLabelText("to") as HTMLInputElement;
    const start = from.value;
    act(() => from.focus());
    fireEvent.change(from, { target: { value: "23:15" } });
    fireEvent.keyDown(from, { key: "Escape" });
    expect(from.value).toBe(start);
    act(() => from.blur());
    act(() => to.focus());
    fireEvent.change(to, { target: { value: "06:45" } });
    fireEvent.keyDown(to, { key: "Enter" });
    expect(await within(section).findByText("Saved", {}, LOADED)).toBeTruthy();
    expect(sent.filter((request) => request.method === "PUT")).toEqual([
      { method: "PUT", url: NOTIFICATION_PREFERENCES_PATH, body: { quietHours: { start, end: "06:45" } } },
    ]);
  });

  it("keeps both ends of quiet hours when the second is left before the first's answer, and says Saved for each", async () => {
    server.use(signedInAs(testWalker));
    const sent = recordRequests();
    let answerFirst = () => {};
    const firstHeld = new Promise<void>((resolve) => {
      answerFirst = resolve;
    });
    let puts = 0;
    server.use(
      http.put(NOTIFICATION_PREFERENCES_PATH, async ({ request }) => {
        const { quietHours } = (await request.json()) as { quietHours: { start: string; end: string } };
        if (++puts === 1) await firstHeld;
        const saved = defaultNotificationPreferences();
        saved.quietHours = quietHours;
        return HttpResponse.json(saved);
      }),
    );
    renderApp("/account");
    const section = await screen.findByRole("region", { name: "Notifications" }, LOADED);
    const from = (await within(section).findByLabelText("From", {}, LOADED)) as HTMLInputElement;
    const to = within(section).getByLabelText("to") as HTMLInputElement;
    act(() => from.focus());
    fireEvent.change(from, { target: { value: "22:30" } });
    act(() => from.blur());
    act(() => to.focus());
    fireEvent.change(to, { target: { value: "07:15" } });
    act(() => to.blur());
    // The second change waits for the first's answer, so the two cannot be answered out of order.
    await waitFor(() => expect(sent.filter((request) => request.method === "PUT")).toHaveLength(1), LOADED);
    expect(puts).toBe(1);
    answerFirst();
    await waitFor(() => expect(sent.filter((request) => request.method === "PUT")).toHaveLength(2), LOADED);
    expect(sent.filter((request) => request.method === "PUT").map((request) => request.body)).toEqual([
      { quietHours: { start: "22:30", end: defaultNotificationPreferences().quietHours.end } },
      { quietHours: { start: "22:30", end: "07:15" } },
    ]);
    // Each field heard its own answer: both say Saved, and neither is stuck waiting.
    await waitFor(() => expect(within(section).getAllByText("Saved")).toHaveLength(2), LOADED);
    expect([from.value, to.value]).toEqual(["22:30", "07:15"]);
  });

  it("shows one choice for the week's email: the Account page's switch and the section's agree after either changes", async () => {
    server.use(signedInAs(testWalker));
    let weeklyEmail = true;
    server.use(
      http.get(NOTIFICATION_PREFERENCES_PATH, () => {
        const stored = defaultNotificationPreferences();
        stored.kinds.weekly_summary.email = weeklyEmail;
        return HttpResponse.json(stored);
      }),
      http.put(ACCOUNT_PREFERENCES_PATH, async ({ request }) => {
        weeklyEmail = ((await request.json()) as { weeklyEmail: boolean }).weeklyEmail;
        return HttpResponse.json({ dailyGoal: 10_000, theme: "system", onboardedAt: null, weeklyEmail });
      }),
    );
    renderApp("/account");
    const section = await screen.findByRole("region", { name: "Notifications" });
    const weekEmail = await within(section).findByRole("checkbox", {
      name: "A look back on your week: email",
    });
    expect((weekEmail as HTMLInputElement).checked).toBe(true);
    fireEvent.click(await screen.findByRole("checkbox", { name: /Email me a look back on my week/ }));
    await waitFor(() => expect((weekEmail as HTMLInputElement).checked).toBe(false));
  });
});
