import { addDays, type DashboardStatsResponse } from "@charity-steps/shared-types";
import { act, fireEvent, screen, waitFor } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { HttpResponse, http } from "msw";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { useToastStore } from "../../../src/lib/toast-store";
import { charityImpactAnswered, signedInAs } from "../../support/handlers";
import { renderApp } from "../../support/render-app";
import { server } from "../../support/server";
import { testWalker } from "../../support/walker";

const stats: DashboardStatsResponse = {
  date: "2026-11-21",
  month: "2026-11",
  todaySteps: 5_500,
  monthlySteps: 25_500,
  dailyGoal: 10_000,
  todayOnGoal: false,
  streak: { current: 0, best: 0 },
  monthlyGoal: 100_000,
  monthlyStepsRemaining: 74_500,
  eligibleMonthSteps: 25_500,
  pendingMonthSteps: 0,
  prizeEntries: 2,
  stepsToNextEntry: 4_500,
  charityName: "British Heart Foundation",
  prizePool: 17.97,
  appleHealthLastImportAt: null,
};

const history = {
  days: Array.from({ length: 30 }, (_, i) => ({
    date: addDays("2026-11-21", i - 29),
    steps: i * 400,
    motionSteps: i * 400,
    healthSteps: 0,
    manualSteps: 0,
    goal: 10_000,
  })),
};

interface Upload {
  idempotencyKey: string | null;
  form: FormData;
}

/**
 * The API as the dashboard sees it; `manual` answers the manual-entry upload. Returns the uploads
 * sent, each with its Idempotency-Key and form.
 */
function stubApi(manual: () => Response, statsChanges: Partial<DashboardStatsResponse> = {}): Upload[] {
  const uploads: Upload[] = [];
  server.use(
    signedInAs(testWalker),
    http.get("/api/dashboard/stats", () => HttpResponse.json({ ...stats, ...statsChanges })),
    http.get("/api/steps/history", () => HttpResponse.json(history)),
    http.post("/api/steps/add-manual-verified", async ({ request }) => {
      uploads.push({
        idempotencyKey: request.headers.get("idempotency-key"),
        form: await request.formData(),
      });
      return manual();
    }),
  );
  return uploads;
}

const currentToast = () => useToastStore.getState().current;

describe("the dashboard", () => {
  beforeEach(() => {
    vi.useFakeTimers({ toFake: ["Date"] });
    vi.setSystemTime(new Date("2026-11-21T12:00:00Z"));
  });
  afterEach(() => {
    vi.useRealTimers();
  });

  it("shows the month's ring, today's steps, prize entries and the three link tiles", async () => {
    stubApi(() => HttpResponse.json({}));
    renderApp("/dashboard");
    expect(await screen.findByTestId("month-steps")).toHaveProperty("textContent", "25,500");
    expect(screen.getByText("Goal: 100,000 steps")).toBeTruthy();
    expect(screen.getByText("74,500 steps remaining")).toBeTruthy();
    expect(screen.queryByTestId("prize-entries-waiting")).toBeNull();
    expect(screen.getByTestId("today-steps").textContent).toBe("5,500");
    expect(screen.getByTestId("today-goal-text").textContent).toBe("5,500 of 10,000 steps today");
    expect(screen.getByText("4,500 steps to go today")).toBeTruthy();
    // The ring and today's tile read as sentences, not as bare figures.
    expect(
      screen
        .getByRole("progressbar", { name: "Steps this month towards the monthly goal" })
        .getAttribute("aria-valuetext"),
    ).toBe("25,500 of 100,000 steps this month");
    expect(
      screen
        .getByRole("progressbar", { name: "Today's steps towards your daily goal" })
        .getAttribute("aria-valuetext"),
    ).toBe("55% of your daily goal");
    // No streak of one day is shown.
    expect(screen.queryByTestId("streak")).toBeNull();
    expect(screen.getByTestId("prize-entries").textContent).toBe("2");
    expect(screen.getByText("4,500 steps until next entry")).toBeTruthy();
    // The tiles below the first screen are drawn once it has been painted.
    expect(
      (await screen.findByRole("link", { name: /Your Charity British Heart Foundation/ })).getAttribute(
        "href",
      ),
    ).toBe("/charity");
    expect(screen.getByRole("link", { name: /Prize Pool £17\.97/ }).getAttribute("href")).toBe("/prize-draw");
    expect(screen.getByRole("link", { name: /Groups Join & compete/ }).getAttribute("href")).toBe("/groups");
    expect(await screen.findByRole("slider", { name: /Steps per day for the last 30 days/ })).toBeTruthy();
    expect(screen.getByRole("table", { name: "Steps per day for the last 30 days" })).toBeTruthy();
  });

  it("tells a walker whose email is not confirmed that it keeps their entries out of the draw", async () => {
    stubApi(() => HttpResponse.json({}));
    const confirmed = renderApp("/dashboard");
    expect((await screen.findByTestId("prize-entries")).textContent).toBe("2");
    expect(screen.queryByTestId("prize-entries-email")).toBeNull();
    confirmed.unmount();

    server.use(signedInAs({ ...testWalker, emailVerified: false }));
    renderApp("/dashboard");
    expect((await screen.findByTestId("prize-entries-email")).textContent).toBe(
      "Confirm your email to be in the draw",
    );
  });

  it("says the phone is offline even while it shows the totals kept from the last visit, until it is back", async () => {
    let online = false;
    const onLine = vi.spyOn(navigator, "onLine", "get").mockImplementation(() => online);
    try {
      stubApi(() => HttpResponse.json({}));
      renderApp("/dashboard");
      // The totals are there (here the stand-in server answers; a phone shows what it kept).
      expect((await screen.findByTestId("month-steps")).textContent).toBe("25,500");
      expect(screen.getByTestId("dashboard-connection").textContent).toBe(
        "You're offline. Steps counted on this phone are kept and sent when the signal is back.",
      );
      online = true;
      act(() => {
        window.dispatchEvent(new Event("online"));
      });
      expect(screen.queryByTestId("dashboard-connection")).toBeNull();
    } finally {
      onLine.mockRestore();
    }
  });

  it("says in words that steps wait for a check, not by a colour alone", async () => {
    stubApi(() => HttpResponse.json({}), { eligibleMonthSteps: 21_500, pendingMonthSteps: 4_000 });
    renderApp("/dashboard");
    expect((await screen.findByTestId("prize-entries-waiting")).textContent).toBe(
      "4,000 steps waiting for a quick check",
    );
  });

  it("refuses manual steps with the spec's toasts before sending anything", async () => {
    const uploads = stubApi(() => HttpResponse.json({}));
    const user = userEvent.setup();
    renderApp("/dashboard");
    const steps = await screen.findByLabelText("Steps");
    const send = screen.getByRole("button", { name: "Add Steps" });

    await user.click(send);
    expect(currentToast()).toMatchObject({
      title: "Invalid Steps",
      description: "Please enter a valid number of steps",
    });
    // The problem stays beside the form once the toast has gone, tied to the field, which has focus.
    expect(steps.getAttribute("aria-invalid")).toBe("true");
    expect(document.activeElement).toBe(steps);
    const problemId = steps.getAttribute("aria-describedby") ?? "";
    expect(document.getElementById(problemId)?.textContent).toBe(
      "Invalid Steps: Please enter a valid number of steps",
    );
    // Fixing the field puts the problem's toast away: it no longer holds.
    await user.type(steps, "5");
    expect(useToastStore.getState().current).toMatchObject({ title: "Invalid Steps", open: false });
    await user.clear(steps);
    await user.type(steps, "50001");
    await user.click(send);
    expect(currentToast()).toMatchObject({ title: "Too Many Steps" });
    await user.clear(steps);
    await user.type(steps, "4,000");
    // A day out of range is said before the photo is asked for.
    const date = screen.getByLabelText("Date");
    fireEvent.change(date, { target: { value: "2026-11-22" } });
    await user.click(send);
    expect(currentToast()).toMatchObject({
      title: "Invalid Date",
      description: "Sun, 22 Nov 2026 is in the future: steps can only be added for today or earlier.",
    });
    expect(date.getAttribute("aria-invalid")).toBe("true");
    fireEvent.change(date, { target: { value: "2026-11-21" } });
    await user.click(send);
    expect(currentToast()).toMatchObject({ title: "Image Required" });
    expect(steps.getAttribute("aria-invalid")).toBe("false");
    const photo = screen.getByLabelText("Photo proof");
    expect(photo.getAttribute("aria-invalid")).toBe("true");
    expect(document.getElementById(photo.getAttribute("aria-describedby") ?? "")?.textContent).toBe(
      "Image Required: Please upload an image to verify your steps",
    );
    expect(uploads).toEqual([]);
  });

  it("sends the entry with its photo and an Idempotency-Key, reusing the key on a retry", async () => {
    let attempt = 0;
    const uploads = stubApi(() =>
      ++attempt === 1
        ? HttpResponse.json({ message: "Please upload an image smaller than 5MB." }, { status: 413 })
        : HttpResponse.json({}, { status: 201 }),
    );
    const user = userEvent.setup();
    renderApp("/dashboard");
    // Written as the app writes numbers; sent as a plain one.
    await user.type(await screen.findByLabelText("Steps"), "4,000");
    await user.type(screen.getByLabelText(/Note/), "  Hike with no phone  ");
    const photo = new File([new Uint8Array([0x89, 0x50, 0x4e, 0x47])], "proof.png", { type: "image/png" });
    await user.upload(screen.getByLabelText("Photo proof"), photo);
    expect(await screen.findByText("proof.png")).toBeTruthy();

    await user.click(screen.getByRole("button", { name: "Add Steps" }));
    await waitFor(() => expect(currentToast()?.title).toBe("Error Adding Steps"));
    expect(currentToast()?.description).toBe("Please upload an image smaller than 5MB.");

    await user.click(screen.getByRole("button", { name: "Add Steps" }));
    await waitFor(() => expect(currentToast()?.title).toBe("Steps Added Successfully"));
    expect(currentToast()?.description).toBe("Your steps have been added and automatically verified!");

    expect(uploads).toHaveLength(2);
    const [first, second] = uploads;
    expect(first?.idempotencyKey).toMatch(/^[0-9a-f-]{36}$/);
    expect(second?.idempotencyKey).toBe(first?.idempotencyKey);
    const form = second?.form as FormData;
    expect(Object.fromEntries([...form.entries()].filter(([name]) => name !== "justificationImage"))).toEqual(
      {
        steps: "4000",
        note: "Hike with no phone",
        date: "2026-11-21",
        source: "manual_verified",
        manualEntry: "true",
      },
    );
    // The photo itself is sent (its name stays behind: the test browser's File reaches the
    // network as a bare Blob, so the name is checked on screen above).
    const image = form.get("justificationImage") as Blob;
    expect(image.type).toBe("image/png");
    expect(new Uint8Array(await image.arrayBuffer())).toEqual(new Uint8Array([0x89, 0x50, 0x4e, 0x47]));
    // The form is emptied for the next entry.
    expect((screen.getByLabelText("Steps") as HTMLInputElement).value).toBe("");
  });

  it("shows today against the walker's own goal, and yesterday's streak while today is short", async () => {
    stubApi(() => HttpResponse.json({}), {
      todaySteps: 5_500,
      dailyGoal: 8_000,
      todayOnGoal: false,
      streak: { current: 4, best: 9 },
    });
    renderApp("/dashboard");
    expect((await screen.findByTestId("today-goal-text")).textContent).toBe("5,500 of 8,000 steps today");
    expect(screen.getByText("2,500 steps to go today")).toBeTruthy();
    expect(screen.getByTestId("streak").textContent).toBe("4-day streak");
    expect(currentToast()).toBeNull();
  });

  it("celebrates the goal once a day on this device, and counts today in the streak", async () => {
    stubApi(() => HttpResponse.json({}), {
      todaySteps: 8_200,
      dailyGoal: 8_000,
      todayOnGoal: true,
      streak: { current: 2, best: 2 },
    });
    const { unmount } = renderApp("/dashboard");
    expect((await screen.findByTestId("goal-reached")).textContent).toBe("Daily goal reached");
    expect(screen.getByTestId("streak").textContent).toBe("2-day streak");
    await waitFor(() => expect(currentToast()?.title).toBe("Daily goal reached!"));
    // The count walked, not the goal: 8,200 of 8,000.
    expect(currentToast()?.description).toBe("8,200 steps today: your 8,000-step goal is done. Well walked!");
    unmount();
    useToastStore.setState({ current: null });
    renderApp("/dashboard");
    await screen.findByTestId("goal-reached");
    expect(currentToast()).toBeNull();
  });

  it("says what walkers did for the walker's charity this month, and no £0.00 prize pool", async () => {
    stubApi(() => HttpResponse.json({}), { prizePool: 0 });
    server.use(charityImpactAnswered);
    renderApp("/dashboard");
    expect((await screen.findByTestId("charity-impact")).textContent).toBe(
      "1 walker, 9,999 steps for British Heart Foundation this month",
    );
    expect(screen.getByRole("link", { name: /Prize Pool Monthly draw/ })).toBeTruthy();
    expect(screen.queryByText(/£0\.00/)).toBeNull();
  });
});
