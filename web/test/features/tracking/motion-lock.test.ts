import { afterEach, describe, expect, it, vi } from "vitest";

/**
 * A Web Locks stand-in shared by "tabs": each tab is a fresh copy of the module, as each browser tab
 * has its own, and one lock name is held by one of them at a time.
 */
function fakeLocks() {
  let held = false;
  const queue: Array<() => void> = [];
  return {
    request(_name: string, { signal }: { signal: AbortSignal }, callback: () => Promise<void>) {
      return new Promise<void>((resolve, reject) => {
        const grant = () => {
          held = true;
          void callback().then(() => {
            held = false;
            queue.shift()?.();
            resolve();
          });
        };
        if (!held) return grant();
        queue.push(grant);
        signal.addEventListener("abort", () => {
          queue.splice(queue.indexOf(grant), 1);
          reject(new DOMException("Aborted", "AbortError"));
        });
      });
    },
  };
}

async function newTab() {
  vi.resetModules();
  return import("../../../src/features/tracking/motion-lock");
}

function handlers(wanted = true) {
  const stop = vi.fn();
  return {
    stop,
    stillWanted: vi.fn(async () => wanted),
    start: vi.fn(() => stop),
    waiting: vi.fn(),
  };
}

const settle = () => new Promise((resolve) => setTimeout(resolve, 0));

afterEach(() => {
  Reflect.deleteProperty(navigator, "locks");
});

describe("one tab counts motion", () => {
  it("lets the second tab wait, and hands it the sensors when the first stops", async () => {
    Object.defineProperty(navigator, "locks", { value: fakeLocks(), configurable: true });
    const [first, second] = [await newTab(), await newTab()];
    const one = handlers();
    const two = handlers();

    first.acquireMotionLock(one);
    await settle();
    second.acquireMotionLock(two);
    await settle();
    expect(one.start).toHaveBeenCalledTimes(1);
    expect(two.waiting).toHaveBeenLastCalledWith(true);
    expect(two.start).not.toHaveBeenCalled();

    // Asking again while counting or waiting changes nothing.
    first.acquireMotionLock(one);
    second.acquireMotionLock(two);
    await settle();
    expect(one.start).toHaveBeenCalledTimes(1);

    first.releaseMotionLock();
    await settle();
    expect(one.stop).toHaveBeenCalledTimes(1);
    expect(two.start).toHaveBeenCalledTimes(1);
  });

  it("withdraws a waiting tab's request when it stops, and does not count where the walker disconnected", async () => {
    Object.defineProperty(navigator, "locks", { value: fakeLocks(), configurable: true });
    const [first, second] = [await newTab(), await newTab()];
    const one = handlers(false);
    const two = handlers();
    first.acquireMotionLock(handlers());
    await settle();
    second.acquireMotionLock(two);
    second.releaseMotionLock();
    await settle();
    expect(two.waiting).toHaveBeenLastCalledWith(false);

    first.releaseMotionLock();
    await settle();
    expect(two.start).not.toHaveBeenCalled();
    const third = await newTab();
    third.acquireMotionLock(one);
    await settle();
    expect(one.stillWanted).toHaveBeenCalled();
    expect(one.start).not.toHaveBeenCalled();
  });

  it("can count later in a tab whose walker had disconnected by the time the lock came", async () => {
    Object.defineProperty(navigator, "locks", { value: fakeLocks(), configurable: true });
    const tab = await newTab();
    const unwanted = handlers(false);
    tab.acquireMotionLock(unwanted);
    await settle();
    expect(unwanted.start).not.toHaveBeenCalled();

    const enabledAgain = handlers();
    tab.acquireMotionLock(enabledAgain);
    await settle();
    expect(enabledAgain.start).toHaveBeenCalledTimes(1);
  });

  it("counts at once where the browser has no Web Locks", async () => {
    const tab = await newTab();
    const one = handlers();
    tab.acquireMotionLock(one);
    await settle();
    expect(one.start).toHaveBeenCalledTimes(1);
    expect(one.waiting).not.toHaveBeenCalled();
    tab.releaseMotionLock();
    expect(one.stop).toHaveBeenCalledTimes(1);
  });
});
