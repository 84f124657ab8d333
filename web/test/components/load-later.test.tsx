import { act, render, screen } from "@testing-library/react";
import { afterEach, describe, expect, it, vi } from "vitest";
import { LOAD_LATER_MS, LoadLater } from "../../src/components/load-later";

/** A screen the test scrolls: the observer's callback, called as the browser would. */
function stubScreen() {
  const seen: { callback?: IntersectionObserverCallback } = {};
  vi.stubGlobal(
    "IntersectionObserver",
    class {
      constructor(callback: IntersectionObserverCallback) {
        seen.callback = callback;
      }
      observe() {}
      disconnect() {}
    },
  );
  return {
    scrollNear: () =>
      act(() =>
        seen.callback?.([{ isIntersecting: true } as IntersectionObserverEntry], {} as IntersectionObserver),
      ),
  };
}

const later = () => (
  <LoadLater id="add-steps" placeholder={<p>placeholder</p>}>
    <p>the form</p>
  </LoadLater>
);

describe("a part loaded later", () => {
  afterEach(() => {
    vi.useRealTimers();
    window.history.replaceState(null, "", "/");
  });

  it("keeps its place until the walker scrolls near it", () => {
    const screenEdge = stubScreen();
    render(later());
    expect(screen.getByText("placeholder")).toBeTruthy();
    expect(screen.queryByText("the form")).toBeNull();
    screenEdge.scrollNear();
    expect(screen.getByText("the form")).toBeTruthy();
  });

  it("loads a few seconds after the page shows, or at once when the address names it", () => {
    stubScreen();
    vi.useFakeTimers();
    const first = render(later());
    expect(screen.queryByText("the form")).toBeNull();
    act(() => vi.advanceTimersByTime(LOAD_LATER_MS));
    expect(screen.getByText("the form")).toBeTruthy();
    first.unmount();

    window.history.replaceState(null, "", "/dashboard#add-steps");
    render(later());
    expect(screen.getByText("the form")).toBeTruthy();
  });
});
