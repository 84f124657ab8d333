import { act, render, screen as view } from "@testing-library/react";
import { useLayoutEffect } from "react";
import { describe, expect, it, vi } from "vitest";
import { Screen, type ScreenCode, ScreenShown, screen } from "../../src/app/screen";
import { ErrorBoundary } from "../../src/features/errors/error-boundary";

function Dashboard() {
  return <h1>Dashboard</h1>;
}

/** Sets the screen's code as loaded after the render and before the passive effects, as a preload may. */
function CodeArrives({ code }: { code: { loaded: ScreenCode["loaded"] } }) {
  useLayoutEffect(() => {
    code.loaded = Dashboard;
  }, [code]);
  return null;
}

/** A chunk that arrives when the test says so. */
function slowChunk() {
  let arrive!: () => void;
  let fail!: (error: Error) => void;
  const load = vi.fn(
    () =>
      new Promise<{ Dashboard: typeof Dashboard }>((resolve, reject) => {
        arrive = () => resolve({ Dashboard });
        fail = reject;
      }),
  );
  return {
    load,
    arrive: () => act(async () => arrive()),
    fail: (error: Error) => act(async () => fail(error)),
  };
}

/**
 * Frames pass only when the test says: jsdom runs frames on a real 16 ms clock, so on a busy
 * machine one could pass while the test waits for something else. `painted` runs the frames asked
 * for so far, then the task after them, as the browser paints between the two.
 */
function heldFrames() {
  const frames = new Map<number, FrameRequestCallback>();
  let last = 0;
  vi.stubGlobal("requestAnimationFrame", (callback: FrameRequestCallback) => {
    frames.set(++last, callback);
    return last;
  });
  vi.stubGlobal("cancelAnimationFrame", (id: number) => frames.delete(id));
  return {
    painted: () =>
      act(async () => {
        const due = [...frames.values()];
        frames.clear();
        for (const frame of due) frame(performance.now());
        await new Promise((resolve) => setTimeout(resolve, 0));
      }),
  };
}

describe("a screen loaded on demand", () => {
  it("shows a spinner while its code loads, then the screen", async () => {
    const chunk = slowChunk();
    const code = screen(chunk.load, (module) => module.Dashboard);
    render(<Screen of={code} />);
    expect(view.getByRole("status", { name: "Loading" })).toBeTruthy();
    await chunk.arrive();
    expect(await view.findByRole("heading", { name: "Dashboard" })).toBeTruthy();
    expect(view.queryByRole("status", { name: "Loading" })).toBeNull();
  });

  it("shows a preloaded screen in its first render, without a spinner or a second request", async () => {
    const chunk = slowChunk();
    const code = screen(chunk.load, (module) => module.Dashboard);
    const preloaded = code.preload();
    await chunk.arrive();
    await preloaded;
    render(<Screen of={code} />);
    expect(view.getByRole("heading", { name: "Dashboard" })).toBeTruthy();
    expect(chunk.load).toHaveBeenCalledTimes(1);
  });

  it("shows the screen when its code arrives between drawing the spinner and the spinner's effects", async () => {
    // The preload started as the app did, and finished after the first render but before its effects.
    const code: { loaded: ScreenCode["loaded"]; preload: ScreenCode["preload"] } = {
      loaded: undefined,
      preload: async () => Dashboard,
    };
    render(
      <>
        <Screen of={code} />
        <CodeArrives code={code} />
      </>,
    );
    expect(await view.findByRole("heading", { name: "Dashboard" })).toBeTruthy();
  });

  it("tells the layout once the screen has been painted, not before", async () => {
    const { painted } = heldFrames();
    const chunk = slowChunk();
    const code = screen(chunk.load, (module) => module.Dashboard);
    const shown = vi.fn();
    render(
      <ScreenShown value={shown}>
        <Screen of={code} />
      </ScreenShown>,
    );
    await painted();
    expect(shown).not.toHaveBeenCalled();
    await chunk.arrive();
    await view.findByRole("heading", { name: "Dashboard" });
    expect(shown).not.toHaveBeenCalled();
    await painted();
    expect(shown).toHaveBeenCalled();
  });

  it("says the page could not be shown when its code fails to load, and asks again next time", async () => {
    const failing = slowChunk();
    const code = screen(failing.load, (module) => module.Dashboard);
    vi.spyOn(console, "error").mockImplementation(() => {});
    const { unmount } = render(
      <ErrorBoundary>
        <Screen of={code} />
      </ErrorBoundary>,
    );
    await failing.fail(new Error("Failed to fetch dynamically imported module"));
    expect(await view.findByRole("heading", { name: "Something went wrong" })).toBeTruthy();
    unmount();

    render(<Screen of={code} />);
    expect(failing.load).toHaveBeenCalledTimes(2);
    await failing.arrive();
    expect(await view.findByRole("heading", { name: "Dashboard" })).toBeTruthy();
  });
});
