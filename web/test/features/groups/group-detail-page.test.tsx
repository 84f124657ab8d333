import { screen, within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { HttpResponse, http } from "msw";
import { describe, expect, it } from "vitest";
import { signedInAs } from "../../support/handlers";
import { renderApp } from "../../support/render-app";
import { server } from "../../support/server";
import { testWalker } from "../../support/walker";
import { lunchtimeStriders } from "./group-fixtures";

/** The signed-in walker, and `status` with the server's message for everything about group 12. */
function stubGroupAnswer(status: number, message: string) {
  server.use(
    signedInAs(testWalker),
    http.get("/api/groups/12*", () => HttpResponse.json({ message }, { status })),
  );
}

describe("a group's page the walker cannot see", () => {
  it("says the group is for its members only when the server answers 403", async () => {
    stubGroupAnswer(403, "Only members can see this group.");
    renderApp("/groups/12");
    expect(await screen.findByText("This group is for its members only.")).toBeTruthy();
  });

  it("says there is no such group when the server answers 404", async () => {
    stubGroupAnswer(404, "Group not found.");
    renderApp("/groups/12");
    expect(await screen.findByText("There is no such group.")).toBeTruthy();
  });

  it("says the group could not be loaded when the server fails", async () => {
    stubGroupAnswer(500, "Something went wrong.");
    renderApp("/groups/12");
    expect(await screen.findByText("This group could not be loaded. Check your connection.")).toBeTruthy();
  });

  it("says the link names no group for an address that is not a group id", async () => {
    stubGroupAnswer(404, "Group not found.");
    renderApp("/groups/abc");
    expect(await screen.findByText("This link does not name a group.")).toBeTruthy();
  });
});

/** Group 12 with four walkers on its leaderboard (the fourth the signed-in walker), steps as given. */
function stubGroupOfFour(monthlySteps = [40_000, 35_000, 30_000, 25_000], pendingSteps: number[] = []) {
  const walker = (id: string, firstName: string) => ({
    id,
    firstName,
    lastName: null,
    profileImageUrl: null,
  });
  const leaderboard = ["Ann", "Bea", "Cy", "Ada"].map((name, index) => ({
    user: index === 3 ? walker(testWalker.id, "Ada") : walker(`user-${index + 2}`, name),
    rank: index + 1,
    todaySteps: 1_000,
    monthlySteps: monthlySteps[index] ?? 0,
    ...(pendingSteps[index] ? { pendingSteps: pendingSteps[index] } : {}),
  }));
  server.use(
    signedInAs(testWalker),
    http.get("/api/groups/12/leaderboard", () => HttpResponse.json(leaderboard)),
    http.get("/api/groups/12/members", () => HttpResponse.json([])),
    http.get("/api/groups/12", () =>
      HttpResponse.json(lunchtimeStriders({ adminUserId: "user-2", memberCount: 4 })),
    ),
  );
}

describe("a group's leaderboard", () => {
  it("marks the top three with a medal that is read out, not with a tint alone", async () => {
    stubGroupOfFour();
    renderApp("/groups/12");
    const rows = await screen.findAllByTestId("leaderboard-row");
    expect(rows).toHaveLength(4);
    const medals = rows.map((row) => within(row).queryByRole("img", { name: "Top three" }) !== null);
    expect(medals).toEqual([true, true, true, false]);
  });

  it('marks the walker\'s own row "You", and gives no medal to a member with no steps this month', async () => {
    stubGroupOfFour([12_000, 0, 0, 0]);
    renderApp("/groups/12");
    const rows = await screen.findAllByTestId("leaderboard-row");
    const medals = rows.map((row) => within(row).queryByRole("img", { name: "Top three" }) !== null);
    expect(medals).toEqual([true, false, false, false]);
    expect(rows.map((row) => row.getAttribute("aria-current"))).toEqual([null, null, null, "true"]);
    expect(within(rows[3] as HTMLElement).getByText("You")).toBeTruthy();
    expect(rows.filter((row) => within(row).queryByText("You"))).toHaveLength(1);
  });
});

describe("a group's leaderboard's pictures", () => {
  it("shows a member whose name begins with an emoji by that whole emoji, not half of it", async () => {
    const member = (id: string, firstName: string, lastName: string | null) => ({
      user: { id, firstName, lastName, profileImageUrl: null },
      rank: 1,
      todaySteps: 1_000,
      monthlySteps: 20_000,
    });
    server.use(
      signedInAs(testWalker),
      http.get("/api/groups/12/leaderboard", () =>
        HttpResponse.json([
          member("user-2", "\u{1F6B6}Sam", "\u{1F1EC}\u{1F1E7}Smith"),
          member(testWalker.id, "zo\u00EB", "\u00E9vans"),
        ]),
      ),
      http.get("/api/groups/12/members", () => HttpResponse.json([])),
      http.get("/api/groups/12", () =>
        HttpResponse.json(lunchtimeStriders({ adminUserId: "user-2", memberCount: 2 })),
      ),
    );
    renderApp("/groups/12");
    const rows = await screen.findAllByTestId("leaderboard-row");
    expect(rows.map((row) => row.querySelector("[aria-hidden='true']")?.textContent)).toEqual([
      "\u{1F6B6}\u{1F1EC}\u{1F1E7}",
      "Z\u00C9",
    ]);
  });
});

describe("a group's leaderboard's waiting steps", () => {
  it("says under a member's steps how many wait for a check, and nothing where none do", async () => {
    stubGroupOfFour([40_000, 35_000, 30_000, 25_000], [0, 12_000]);
    renderApp("/groups/12");
    const rows = await screen.findAllByTestId("leaderboard-row");
    expect(
      rows.map((row) => within(row).queryByText(/waiting for a quick check/)?.textContent ?? null),
    ).toEqual([null, "12,000 steps waiting for a quick check", null, null]);
  });
});

describe("a group's two tabs", () => {
  it("are one Tab stop, moved between with the arrow keys, each naming the panel it shows", async () => {
    stubGroupOfFour();
    const user = userEvent.setup();
    renderApp("/groups/12");
    const leaderboardTab = await screen.findByRole("tab", { name: "Leaderboard" });
    const membersTab = screen.getByRole("tab", { name: "Members" });
    expect([leaderboardTab.tabIndex, membersTab.tabIndex]).toEqual([0, -1]);
    expect(screen.getByRole("tabpanel", { name: "Leaderboard" }).id).toBe(
      leaderboardTab.getAttribute("aria-controls"),
    );

    leaderboardTab.focus();
    await user.keyboard("{ArrowRight}");
    expect(document.activeElement).toBe(membersTab);
    expect(membersTab.getAttribute("aria-selected")).toBe("true");
    expect(screen.getByRole("tabpanel", { name: "Members" })).toBeTruthy();
    expect([leaderboardTab.tabIndex, membersTab.tabIndex]).toEqual([-1, 0]);

    await user.keyboard("{ArrowRight}");
    expect(document.activeElement).toBe(leaderboardTab);
    await user.keyboard("{End}");
    expect(document.activeElement).toBe(membersTab);
    await user.keyboard("{Home}");
    expect(screen.getByRole("tabpanel", { name: "Leaderboard" })).toBeTruthy();
  });
});
