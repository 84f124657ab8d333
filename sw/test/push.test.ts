import { beforeEach, describe, expect, it, vi } from "vitest";
import { inAppUrl, registerPush } from "../src/push";
import { installFakeWorker } from "./support/fake-worker";

/** Enough of a service worker's scope to deliver push and notification events to the handlers. */
function fakeWorker(windows: { url: string }[] = []) {
  const showNotification = vi.fn(async (_title: string, _options: NotificationOptions) => {});
  const focused = vi.fn(async () => {});
  const navigated: string[] = [];
  const clients = {
    matchAll: vi.fn(async () =>
      windows.map((window) => ({
        url: window.url,
        navigate: async (url: string) => {
          navigated.push(url);
          return { focus: focused };
        },
      })),
    ),
    openWindow: vi.fn(async (_url: string) => null),
  };
  const { dispatch } = installFakeWorker({
    registration: { showNotification },
    clients,
    location: new URL("https://steps.example.org/sw.js"),
  });
  const pushOf = (json: unknown) => ({
    data: {
      json: () => (typeof json === "string" ? JSON.parse(json) : json),
    },
  });
  return { dispatch, pushOf, showNotification, clients, focused, navigated };
}

describe("the service worker's pushes", () => {
  beforeEach(() => vi.restoreAllMocks());

  it("shows a push as a notification with its title, text and place in the app", async () => {
    const worker = fakeWorker();
    registerPush();
    await worker.dispatch(
      "push",
      worker.pushOf({
        kind: "group_joined",
        title: "New member in Canal Walkers",
        body: "Joanna W joined Canal Walkers.",
        url: "/groups/7",
      }),
    );
    expect(worker.showNotification).toHaveBeenCalledWith("New member in Canal Walkers", {
      body: "Joanna W joined Canal Walkers.",
      icon: "/pwa-192x192.png",
      tag: "group_joined",
      data: { url: "/groups/7" },
    });
  });

  it("shows nothing for a push that is not the server's", async () => {
    const worker = fakeWorker();
    registerPush();
    await worker.dispatch("push", { data: null });
    await worker.dispatch("push", worker.pushOf("not json {"));
    await worker.dispatch("push", worker.pushOf({ kind: "x", body: 3 }));
    expect(worker.showNotification).not.toHaveBeenCalled();
  });

  it("opens the notification's place in an open window of the app on a tap, or in a new one", async () => {
    const open = fakeWorker([{ url: "https://steps.example.org/dashboard" }]);
    registerPush();
    const close = vi.fn();
    await open.dispatch("notificationclick", { notification: { close, data: { url: "/prize-draw" } } });
    expect(close).toHaveBeenCalled();
    expect(open.navigated).toEqual(["https://steps.example.org/prize-draw"]);
    expect(open.focused).toHaveBeenCalled();
    expect(open.clients.openWindow).not.toHaveBeenCalled();

    const none = fakeWorker([{ url: "https://elsewhere.example.com/" }]);
    registerPush();
    await none.dispatch("notificationclick", { notification: { close, data: { url: "/account" } } });
    expect(none.clients.openWindow).toHaveBeenCalledWith("https://steps.example.org/account");
  });

  it("never opens another site from a notification", () => {
    for (const url of ["https://evil.example", "//evil.example/x", "javascript:alert(1)", 42, null]) {
      expect(inAppUrl(url)).toBe("/");
    }
    expect(inAppUrl("/groups/join/ABC123")).toBe("/groups/join/ABC123");
  });
});
