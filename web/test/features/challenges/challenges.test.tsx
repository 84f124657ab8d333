import {
  CHALLENGES_PATH,
  type ChallengeItem,
  challengeFundraisingPath,
  challengeLeaderboardPath,
  challengePath,
  challengeProgress,
} from "@charity-steps/shared-types";
import { screen, waitFor, within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { HttpResponse, http } from "msw";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { signedInAs } from "../../support/handlers";
import { renderApp } from "../../support/render-app";
import { server } from "../../support/server";
import { testWalker } from "../../support/walker";

// Monday 23 November 2026, noon in London: the third day of a ten-day challenge.
const NOW = new Date("2026-11-23T12:00:00Z");

const challenge = (overrides: Partial<ChallengeItem>): ChallengeItem => ({
  id: "0b3c1a53-6a52-4d4a-9c1e-000000000001",
  name: "Ten Day Hundred K",
  description: "",
  charityName: "British Heart Foundation",
  kind: "total_steps",
  target: 100_000,
  dailyTarget: null,
  startsOn: "2026-11-21",
  endsOn: "2026-11-30",
  scope: "public",
  groupId: null,
  joined: true,
  progress: challengeProgress(30_000, 100_000),
  completedAt: null,
  ...overrides,
});

describe("challenges", () => {
  beforeEach(() => {
    vi.useFakeTimers({ toFake: ["Date"], now: NOW });
    localStorage.clear();
  });
  afterEach(() => vi.useRealTimers());

  it("shows each open challenge's progress, days left, and whether the walker is on track or what a day would finish it", async () => {
    server.use(
      signedInAs(testWalker),
      http.get(CHALLENGES_PATH, () =>
        HttpResponse.json({
          items: [
            challenge({}),
            challenge({
              id: "0b3c1a53-6a52-4d4a-9c1e-000000000002",
              name: "Canal Team",
              kind: "team_total",
              scope: "group",
              groupId: 7,
              charityName: null,
              progress: challengeProgress(20_000, 100_000),
            }),
            challenge({
              id: "0b3c1a53-6a52-4d4a-9c1e-000000000003",
              name: "Not yet in",
              joined: false,
              progress: null,
            }),
            challenge({
              id: "0b3c1a53-6a52-4d4a-9c1e-000000000004",
              name: "October's",
              startsOn: "2026-10-01",
              endsOn: "2026-10-31",
              completedAt: "2026-10-20T18:00:00.000Z",
              progress: challengeProgress(120_000, 100_000),
            }),
          ],
        }),
      ),
    );
    renderApp("/challenges");
    const open = await screen.findByRole("list", { name: "Open challenges" });
    const cards = within(open).getAllByTestId("challenge-card");
    expect(cards.map((card) => within(card).getByTestId("challenge-pace").textContent)).toEqual([
      "8 days left · On track",
      "8 days left · 10,000 steps a day to finish",
      "Not joined · ends Mon 30 Nov",
    ]);
    expect(
      within(cards[0] as HTMLElement)
        .getByRole("progressbar")
        .getAttribute("aria-valuetext"),
    ).toBe("30,000 of 100,000 steps, 30%");
    expect(cards[1]?.textContent).toContain("100,000 steps together · your group");
    const ended = screen.getByRole("list", { name: "Challenges just ended" });
    expect(within(ended).getByTestId("challenge-pace").textContent).toBe("Completed");
  });

  it("shows a challenge's period in words and marks the steps on its leaderboard that wait for a check", async () => {
    const item = challenge({ startsOn: "2026-11-28", endsOn: "2026-12-04" });
    server.use(
      signedInAs(testWalker),
      http.get(challengePath(item.id), () => HttpResponse.json(item)),
      http.get(challengeLeaderboardPath(item.id), () =>
        HttpResponse.json({
          items: [
            {
              rank: 1,
              displayName: "Ada L",
              progress: challengeProgress(35_000, 100_000),
              fundraisingUrl: null,
              pendingSteps: 5_000,
            },
            {
              rank: 2,
              displayName: "Ben K",
              progress: challengeProgress(1_000, 100_000),
              fundraisingUrl: null,
            },
          ],
          nextCursor: null,
        }),
      ),
    );
    renderApp(`/challenges/${item.id}`);
    expect(await screen.findByText("100,000 steps, 28 Nov – 4 Dec 2026")).toBeTruthy();
    const rows = await screen.findAllByTestId("challenge-row");
    expect(rows.map((row) => row.textContent)).toEqual([
      "1Ada L35,000 steps5,000 steps waiting for a quick check",
      "2Ben K1,000 steps",
    ]);
  });

  it("takes a fundraising address typed without https://, as people say it, and saves it over https", async () => {
    const item = challenge({});
    const saved: unknown[] = [];
    server.use(
      signedInAs(testWalker),
      http.get(challengePath(item.id), () => HttpResponse.json(item)),
      http.get(challengeLeaderboardPath(item.id), () => HttpResponse.json({ items: [], nextCursor: null })),
      http.put(challengeFundraisingPath(item.id), async ({ request }) => {
        saved.push(await request.json());
        return new HttpResponse(null, { status: 204 });
      }),
    );
    const user = userEvent.setup({ advanceTimers: vi.advanceTimersByTime });
    renderApp(`/challenges/${item.id}`);
    await user.type(await screen.findByLabelText("Address"), "justgiving.com/page/ada");
    await user.click(screen.getByRole("button", { name: "Save" }));
    await waitFor(() => expect(saved).toEqual([{ url: "https://justgiving.com/page/ada" }]));
  });
});
