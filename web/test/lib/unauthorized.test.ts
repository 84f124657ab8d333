import { LOGIN_PATH, UNAUTHORIZED_REDIRECT_DELAY_MS } from "@charity-steps/shared-types";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { ApiError } from "../../src/lib/api-client";
import { navigateTo } from "../../src/lib/browser-location";
import { loadToaster } from "../../src/lib/toast-host";
import { useToastStore } from "../../src/lib/toast-store";
import { handleUnauthorizedError } from "../../src/lib/unauthorized";

vi.mock("../../src/lib/browser-location", () => ({ navigateTo: vi.fn(), reloadPage: vi.fn() }));

beforeEach(() => {
  vi.useFakeTimers();
  vi.mocked(navigateTo).mockClear();
});
afterEach(() => vi.useRealTimers());

describe("a mutation that fails because the session ended", () => {
  it("announces it, then goes to sign in the redirect delay after the toast can show", async () => {
    await loadToaster();
    expect(handleUnauthorizedError(new ApiError(401, "Sign in first.", true))).toBe(true);
    // The timer starts once the (already loaded) toaster's promise settles.
    await vi.advanceTimersByTimeAsync(0);

    expect(useToastStore.getState().current).toMatchObject({
      title: "Unauthorized",
      description: "You are logged out. Logging in again...",
      variant: "destructive",
    });
    vi.advanceTimersByTime(UNAUTHORIZED_REDIRECT_DELAY_MS - 1);
    expect(navigateTo).not.toHaveBeenCalled();
    vi.advanceTimersByTime(1);
    expect(navigateTo).toHaveBeenCalledWith(LOGIN_PATH);
  });

  it("leaves other failures to the screen", () => {
    expect(handleUnauthorizedError(new ApiError(500, "Internal Server Error"))).toBe(false);
    vi.runAllTimers();
    expect(useToastStore.getState().current).toBeNull();
    expect(navigateTo).not.toHaveBeenCalled();
  });
});
