import { afterEach, describe, expect, it, vi } from "vitest";
import { applyTheme, resolvedTheme, storedTheme } from "../../src/lib/theme";

/** A device whose dark setting the test turns on and off, as the system menu would. */
function deviceTheme(dark: boolean) {
  const listeners = new Set<() => void>();
  const media = {
    matches: dark,
    addEventListener: (_: string, listener: () => void) => listeners.add(listener),
    removeEventListener: (_: string, listener: () => void) => listeners.delete(listener),
  };
  vi.stubGlobal("matchMedia", () => media);
  return {
    set(next: boolean) {
      media.matches = next;
      for (const listener of listeners) listener();
    },
    listeners,
  };
}

describe("the theme", () => {
  afterEach(() => vi.unstubAllGlobals());

  it("resolves the walker's choice on a device that prefers dark or not", () => {
    expect(resolvedTheme("system", true)).toBe("dark");
    expect(resolvedTheme("system", false)).toBe("light");
    expect(resolvedTheme("light", true)).toBe("light");
    expect(resolvedTheme("dark", false)).toBe("dark");
  });

  it("follows the device under 'system', and keeps the choice for the next visit's first paint", () => {
    const device = deviceTheme(false);
    const stop = applyTheme("system");
    expect(document.documentElement.dataset.theme).toBe("light");
    device.set(true);
    expect(document.documentElement.dataset.theme).toBe("dark");
    expect(storedTheme()).toBe("system");
    stop();
    expect(device.listeners.size).toBe(0);

    applyTheme("light");
    device.set(true);
    expect(document.documentElement.dataset.theme).toBe("light");
    expect(storedTheme()).toBe("light");
  });

  it("takes anything stored that is not a theme as the device's", () => {
    localStorage.setItem("charity-steps:theme", "sepia");
    expect(storedTheme()).toBe("system");
  });
});
