import { afterEach, describe, expect, it, vi } from "vitest";
import { isOnlineMessage, isSyncLaterMessage, requestBackgroundSync } from "../src/background-sync";

/** Installs a `navigator.serviceWorker` whose registration has `active` as its worker. */
function serviceWorkerWith(active: { postMessage: (message: unknown) => void } | null, registered = true) {
  vi.stubGlobal("navigator", {
    serviceWorker: { getRegistration: async () => (registered ? { active } : undefined) },
  });
}

afterEach(() => vi.unstubAllGlobals());

describe("asking the service worker for a Background Sync", () => {
  it("posts STEP_SYNC_LATER to the active worker, which registers the sync with its Queue", async () => {
    const postMessage = vi.fn();
    serviceWorkerWith({ postMessage });
    expect(await requestBackgroundSync()).toBe(true);
    expect(postMessage).toHaveBeenCalledWith({ type: "STEP_SYNC_LATER" });
  });

  it("answers false when no worker is registered or active, or there are no service workers", async () => {
    serviceWorkerWith(null, false);
    expect(await requestBackgroundSync()).toBe(false);
    serviceWorkerWith(null);
    expect(await requestBackgroundSync()).toBe(false);
    vi.stubGlobal("navigator", {});
    expect(await requestBackgroundSync()).toBe(false);
  });

  it("answers false when the registration cannot be read", async () => {
    vi.spyOn(console, "warn").mockImplementation(() => {});
    vi.stubGlobal("navigator", {
      serviceWorker: {
        getRegistration: async () => {
          throw new DOMException("denied", "SecurityError");
        },
      },
    });
    expect(await requestBackgroundSync()).toBe(false);
  });

  it("recognises the page's ONLINE and STEP_SYNC_LATER messages", () => {
    expect(isOnlineMessage({ type: "ONLINE" })).toBe(true);
    expect(isOnlineMessage({ type: "SKIP_WAITING" })).toBe(false);
    expect(isOnlineMessage("ONLINE")).toBe(false);
    expect(isSyncLaterMessage({ type: "STEP_SYNC_LATER" })).toBe(true);
    expect(isSyncLaterMessage({ type: "ONLINE" })).toBe(false);
  });
});
