import { vi } from "vitest";

/** The browser's Screen Wake Lock as jsdom lacks it: records each lock asked for and released. */
export function fakeWakeLock() {
  const locks: Array<EventTarget & { released: boolean; release: () => Promise<void> }> = [];
  const request = vi.fn(async () => {
    const lock = Object.assign(new EventTarget(), {
      released: false,
      type: "screen",
      async release() {
        if (lock.released) return;
        lock.released = true;
        lock.dispatchEvent(new Event("release"));
      },
    });
    locks.push(lock);
    return lock;
  });
  Object.defineProperty(navigator, "wakeLock", { value: { request }, configurable: true });
  return { request, held: () => locks.filter((lock) => !lock.released).length };
}
