import { db } from "@charity-steps/client-store/db";
import { act, render, screen } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { MemoryRouter } from "react-router-dom";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { formatAway, formatImportTime, TrackingCard } from "../../../src/features/tracking/tracking-card";
import { useTracking } from "../../../src/features/tracking/tracking-store";

beforeEach(async () => {
  await db.delete();
  await db.open();
  useTracking.setState({
    connection: "disconnected",
    live: false,
    waitingForOtherTab: false,
    pausedFor: null,
    screen: "off",
  });
});

function renderCard(props: { appleHealthLastImportAt?: string | null } = {}) {
  return render(
    <MemoryRouter>
      <div id="root">
        <TrackingCard todaySteps={4_321} {...props} />
      </div>
    </MemoryRouter>,
  );
}

afterEach(() => {
  vi.useRealTimers();
});

describe("the tracking card", () => {
  it("leads Apple Health to its setup page, and says Google Fit is gone", async () => {
    renderCard();
    const select = screen.getByLabelText("Count steps with");
    expect(screen.getByText(/Counts while this screen is on/)).toBeTruthy();

    await userEvent.selectOptions(select, "apple_health");
    expect(screen.getByRole("link", { name: "Set up" }).getAttribute("href")).toBe("/apple-health");
    expect(screen.queryByRole("button", { name: "Enable" })).toBeNull();

    await userEvent.selectOptions(select, "google_fit");
    expect(screen.getByText(/Google has shut down Google Fit's web access/)).toBeTruthy();
    expect((screen.getByRole("button", { name: "Enable" }) as HTMLButtonElement).disabled).toBe(true);
  });

  it("says what counts while counting, and when the screen cannot be kept on", () => {
    useTracking.setState({ connection: "device_motion", live: true, screen: "kept-on" });
    const { rerender } = renderCard();
    expect(screen.getByRole("status").textContent).toBe(
      "Counting while this screen is on. The screen stays on while you count.",
    );
    act(() => useTracking.setState({ screen: "unsupported" }));
    rerender(
      <MemoryRouter>
        <TrackingCard todaySteps={4_321} />
      </MemoryRouter>,
    );
    expect(screen.getByRole("status").textContent).toMatch(/This browser cannot keep the screen on/);
  });

  it("tells the walker counting paused while away, and adds nothing", async () => {
    useTracking.setState({ connection: "device_motion", live: true, pausedFor: 65 * 60_000 });
    renderCard();
    expect(screen.getByRole("note").textContent).toMatch(
      /Counting paused for 1 h 5 min while Charity Steps was in the background\. Nothing was added/,
    );
    expect(screen.getByRole("link", { name: "send your steps from Apple Health" })).toBeTruthy();
    await userEvent.click(screen.getByRole("button", { name: "Dismiss" }));
    expect(screen.queryByRole("note")).toBeNull();
    expect(screen.getByTestId("tracking-today-steps").textContent).toBe("4,321");
  });

  it("opens the pocket screen with the live count, covering the app, and leaves it on Escape", async () => {
    useTracking.setState({ connection: "device_motion", live: true, screen: "kept-on" });
    renderCard();
    await userEvent.click(screen.getByRole("button", { name: "Pocket screen" }));
    const pocket = screen.getByRole("dialog", { name: "Pocket screen" });
    expect(screen.getByTestId("pocket-screen-steps").textContent).toBe("4,321");
    expect(document.getElementById("root")?.inert).toBe(true);
    expect(document.activeElement).toBe(pocket);
    await userEvent.keyboard("{Escape}");
    expect(screen.queryByRole("dialog", { name: "Pocket screen" })).toBeNull();
    expect(document.getElementById("root")?.inert).toBe(false);
  });

  it("shows when Apple Health last sent steps", () => {
    vi.useFakeTimers({ toFake: ["Date"] });
    vi.setSystemTime(new Date("2026-11-21T12:00:00Z"));
    renderCard({ appleHealthLastImportAt: "2026-11-21T11:02:00Z" });
    expect(screen.getByTestId("apple-health-last-import").textContent).toMatch(
      /^Apple Health: last import \d\d:\d\d$/,
    );
  });
});

describe("times on the card", () => {
  it("says how long counting paused", () => {
    expect(formatAway(30_000)).toBe("1 min");
    expect(formatAway(12 * 60_000)).toBe("12 min");
    expect(formatAway(60 * 60_000)).toBe("1 h");
    expect(formatAway(65 * 60_000)).toBe("1 h 5 min");
  });

  it("gives the last import's London time, with the date when it was not today", () => {
    const now = Date.parse("2026-07-02T17:30:00Z");
    expect(formatImportTime("2026-07-02T17:02:00Z", now)).toBe("18:02");
    expect(formatImportTime("2026-07-01T17:02:00Z", now)).toBe("1 Jul, 18:02");
  });
});
