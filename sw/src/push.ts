import type { PushPayload } from "@charity-steps/shared-types";

declare const self: ServiceWorkerGlobalScope;

/**
 * Web Push: the server's pushes arrive encrypted to this browser, and the browser hands the worker
 * their JSON, `{kind, title, body, url}`. The worker shows each as a notification; a tap opens its
 * `url` in the app, in a window already open when there is one.
 */
export function registerPush(): void {
  self.addEventListener("push", (event) => {
    const payload = pushPayload(event.data);
    if (!payload) return;
    event.waitUntil(
      self.registration.showNotification(payload.title, {
        body: payload.body,
        icon: "/pwa-192x192.png",
        // A newer notification of the same kind replaces the one still showing.
        tag: payload.kind,
        data: { url: payload.url },
      }),
    );
  });

  self.addEventListener("notificationclick", (event) => {
    event.notification.close();
    const url = inAppUrl((event.notification.data as { url?: unknown } | null)?.url);
    event.waitUntil(openInApp(url));
  });
}

/** The push's payload, or null for one that is not what the server sends. */
export function pushPayload(data: PushMessageData | null): PushPayload | null {
  if (!data) return null;
  let payload: unknown;
  try {
    payload = data.json();
  } catch {
    return null;
  }
  if (typeof payload !== "object" || payload === null) return null;
  const { kind, title, body, url } = payload as Record<string, unknown>;
  if (typeof title !== "string" || typeof body !== "string") return null;
  return {
    kind: (typeof kind === "string" ? kind : "notification") as PushPayload["kind"],
    title,
    body,
    url: inAppUrl(url),
  };
}

/** A path in the app: anything else (another site, `//host`, a script) opens the home screen. */
export function inAppUrl(url: unknown): string {
  if (typeof url !== "string" || !url.startsWith("/") || url.startsWith("//")) return "/";
  return url;
}

async function openInApp(path: string): Promise<void> {
  const target = new URL(path, self.location.origin).href;
  const windows = await self.clients.matchAll({ type: "window", includeUncontrolled: true });
  const open = windows.find((client) => new URL(client.url).origin === self.location.origin);
  if (open) {
    // A window this worker does not control cannot be sent elsewhere: a new one opens instead.
    const moved = await open.navigate(target).catch(() => null);
    if (moved) {
      await moved.focus();
      return;
    }
  }
  await self.clients.openWindow(target);
}
