import { clientsClaim } from "workbox-core";

declare const self: ServiceWorkerGlobalScope;

/**
 * A new version waits until the walker accepts the "Reload" prompt (registerType "prompt"); the
 * page then posts SKIP_WAITING. Once active, it takes over open tabs straight away.
 */
export function registerUpdateMessages(): void {
  self.addEventListener("message", (event) => {
    if (isSkipWaitingMessage(event.data)) void self.skipWaiting();
  });
  clientsClaim();
}

function isSkipWaitingMessage(data: unknown): boolean {
  return typeof data === "object" && data !== null && (data as { type?: unknown }).type === "SKIP_WAITING";
}
