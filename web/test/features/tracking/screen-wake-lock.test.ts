import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import {
  keepScreenOn,
  type ScreenKeeper,
  type ScreenState,
} from "../../../src/features/tracking/screen-wake-lock";
import { fakeWakeLock } from "../../support/wake-lock";

let visibility: DocumentVisibilityState = "visible";
function setVisibility(state: DocumentVisibilityState) {
  visibility = state;
  document.dispatchEvent(new Event("visibilitychange"));
}

beforeEach(() => {
  visibility = "visible";
  Object.defineProperty(document, "visibilityState", { get: () => visibility, configurable: true });
});
let keeper: ScreenKeeper | undefined;
/** Keeps the screen on, noting every state it reports, once the first request is answered. */
async function keepOn(states: ScreenState[]): Promise<ScreenKeeper> {
  keeper = keepScreenOn((state) => states.push(state));
  await keeper.taken;
  return keeper;
}

afterEach(async () => {
  await keeper?.letSleep();
  keeper = undefined;
  Reflect.deleteProperty(navigator, "wakeLock");
});

const settle = () => new Promise((resolve) => setTimeout(resolve, 0));

describe("keeping the screen on while counting", () => {
  it("takes the lock, lets it go when hidden, takes it again on return, and releases it on stop", async () => {
    const wakeLock = fakeWakeLock();
    const states: ScreenState[] = [];
    const screen = await keepOn(states);
    expect(wakeLock.request).toHaveBeenCalledWith("screen");
    expect(wakeLock.held()).toBe(1);

    setVisibility("hidden");
    await settle();
    expect(wakeLock.held()).toBe(0);

    setVisibility("visible");
    await settle();
    expect(wakeLock.request).toHaveBeenCalledTimes(2);
    expect(wakeLock.held()).toBe(1);

    await screen.letSleep();
    expect(wakeLock.held()).toBe(0);
    setVisibility("visible");
    await settle();
    expect(wakeLock.request).toHaveBeenCalledTimes(2);
    expect(states).toEqual(["kept-on", "off", "kept-on", "off", "off"]);
  });

  it("says the browser cannot keep the screen on where there is no Wake Lock", async () => {
    const states: ScreenState[] = [];
    await keepOn(states);
    expect(states).toEqual(["unsupported"]);
  });

  it("says so when the browser refuses the lock", async () => {
    Object.defineProperty(navigator, "wakeLock", {
      value: {
        request: vi.fn(async () => Promise.reject(new DOMException("Battery saver", "NotAllowedError"))),
      },
      configurable: true,
    });
    const states: ScreenState[] = [];
    await keepOn(states);
    expect(states).toEqual(["refused"]);
  });
});
