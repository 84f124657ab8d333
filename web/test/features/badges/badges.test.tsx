import { BADGES_PATH } from "@charity-steps/shared-types";
import { act, screen, waitFor, within } from "@testing-library/react";
import { HttpResponse, http } from "msw";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { badgesToAnnounce } from "../../../src/features/badges/badge-announcer";
import { BADGES_KEY } from "../../../src/features/badges/use-badges";
import { useToastStore } from "../../../src/lib/toast-store";
import { badgesOf, signedInAs } from "../../support/handlers";
import { renderApp } from "../../support/render-app";
import { recordRequests, server } from "../../support/server";
import { testWalker } from "../../support/walker";

const NOW = new Date("2026-11-21T12:00:00Z");

describe("badges", () => {
  beforeEach(() => {
    vi.useFakeTimers({ toFake: ["Date"], now: NOW });
    localStorage.clear();
  });
  afterEach(() => vi.useRealTimers());

  it("lists the earned badges first on the Account page, each with its day, then those to earn", async () => {
    server.use(
      signedInAs(testWalker),
      http.get(BADGES_PATH, () =>
        HttpResponse.json(
          badgesOf({
            "3-day-streak": "2026-11-20T19:02:00.000Z",
            "first-10000-step-day": "2026-11-18T20:00:00.000Z",
          }),
        ),
      ),
    );
    renderApp("/account");
    const section = await screen.findByRole("region", { name: "Badges" });
    await waitFor(() =>
      expect(within(section).getByTestId("badges-count").textContent).toBe("2 of 8 earned."),
    );
    const badges = within(section).getAllByTestId("badge");
    expect(badges.map((badge) => badge.querySelector("p")?.textContent)).toEqual([
      "First 10,000-step day",
      "3-day streak",
      "7-day streak",
      "30-day streak",
      "100,000 steps in a month",
      "1,000,000 steps",
      "First prize entry",
      "Joined a group",
    ]);
    expect(badges[1]?.textContent).toContain("Earned Fri, 20 Nov 2026");
    expect(badges[2]?.textContent).toContain("Not earned yet: Reach your daily goal 7 days in a row.");
  });

  it("announces a badge newly earned once on the dashboard, and not again on the next visit", async () => {
    server.use(
      signedInAs(testWalker),
      http.get(BADGES_PATH, () =>
        HttpResponse.json(badgesOf({ "3-day-streak": "2026-11-21T11:58:00.000Z" })),
      ),
    );
    const first = renderApp("/");
    await waitFor(() => expect(useToastStore.getState().current?.title).toBe("New badge: 3-day streak"));
    expect(useToastStore.getState().current?.description).toBe("Reach your daily goal 3 days in a row.");
    first.unmount();
    useToastStore.getState().dismiss();

    const sent = recordRequests();
    const second = renderApp("/");
    await screen.findByTestId("today-goal-text");
    await waitFor(() => expect(sent.some((request) => request.url === BADGES_PATH)).toBe(true));
    // The badges have answered. waitFor settles on a timer queued after React Query's notice to its
    // observers, so the announcer has rendered with them and run its effect by then (act flushes any
    // render still pending): had it taken the badge as news, the toast would be open now.
    await waitFor(() => expect(second.queryClient.getQueryState(BADGES_KEY)?.status).toBe("success"));
    await act(async () => {});
    expect(useToastStore.getState().current).toMatchObject({ title: "New badge: 3-day streak", open: false });
  });

  it("takes as news only badges earned after the last one announced, or in the last day on a new device", () => {
    const items = badgesOf({
      "first-10000-step-day": "2026-11-01T10:00:00.000Z",
      "3-day-streak": "2026-11-21T09:00:00.000Z",
      "7-day-streak": "2026-11-21T11:00:00.000Z",
    }).items;
    const names = (announced: string | null) =>
      badgesToAnnounce(items, announced, NOW.getTime()).map((badge) => badge.name);
    expect(names(null)).toEqual(["3-day streak", "7-day streak"]);
    expect(names("2026-11-21T09:00:00.000Z")).toEqual(["7-day streak"]);
    expect(names("2026-11-21T11:00:00.000Z")).toEqual([]);
  });
});
