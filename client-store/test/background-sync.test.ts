import { describe, expect, it, vi } from "vitest";
import { isOnlineMessage, requestBackgroundSync, STEP_SYNC_TAG } from "../src/background-sync";

function registration(sync?: { register: (tag: string) => Promise<void> }): ServiceWorkerRegistration {
  return { sync } as unknown as ServiceWorkerRegistration;
}

describe("asking the browser for a Background Sync", () => {
  it("registers the step_sync tag where the browser supports it", async () => {
    const register = vi.fn(async () => {});
    expect(await requestBackgroundSync(registration({ register }))).toBe(true);
    expect(register).toHaveBeenCalledWith(STEP_SYNC_TAG);
    expect(STEP_SYNC_TAG).toBe("step_sync");
  });

  it("answers false where Background Sync is missing (Firefox, Safari) or no worker is registered", async () => {
    expect(await requestBackgroundSync(registration())).toBe(false);
    expect(await requestBackgroundSync()).toBe(false);
  });

  it("answers false when the browser refuses the registration", async () => {
    vi.spyOn(console, "warn").mockImplementation(() => {});
    const register = vi.fn(async () => {
      throw new DOMException("denied", "NotAllowedError");
    });
    expect(await requestBackgroundSync(registration({ register }))).toBe(false);
  });

  it("recognises the page's ONLINE message", () => {
    expect(isOnlineMessage({ type: "ONLINE" })).toBe(true);
    expect(isOnlineMessage({ type: "SKIP_WAITING" })).toBe(false);
    expect(isOnlineMessage("ONLINE")).toBe(false);
  });
});
