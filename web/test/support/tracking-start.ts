import { expect, vi } from "vitest";

/**
 * For a test of a signed-in screen: the app starts the walker's step tracking beside it, whose
 * last step asks the browser to keep the step store. The returned function waits for that ask, so
 * that no tracking work is still running when the test's page is torn down.
 */
export function trackingStartWatched(): () => Promise<void> {
  const persisted = vi.fn(async () => false);
  Object.defineProperty(navigator, "storage", {
    value: { persisted, persist: vi.fn(async () => false) },
    configurable: true,
  });
  return () => vi.waitFor(() => expect(persisted).toHaveBeenCalled(), { timeout: 5_000 });
}
