import { type GroupInvitation, LOGIN_PATH } from "@charity-steps/shared-types";
import { screen, waitFor } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { HttpResponse, http } from "msw";
import { describe, expect, it, vi } from "vitest";
import { navigateTo } from "../../../src/lib/browser-location";
import { signedInAs } from "../../support/handlers";
import { renderApp } from "../../support/render-app";
import { recordRequests, server } from "../../support/server";
import { testWalker } from "../../support/walker";
import { lunchtimeStriders } from "./group-fixtures";

vi.mock("../../../src/lib/browser-location", () => ({ navigateTo: vi.fn(), reloadPage: vi.fn() }));

const invitation: GroupInvitation = {
  id: 12,
  name: "Lunchtime Striders",
  description: "Round the park at one.",
  memberCount: 3,
  member: false,
};

describe("a group's join link", () => {
  it("shows the group and joins it with Join {name}, then opens the group", async () => {
    const sent = recordRequests();
    server.use(
      signedInAs(testWalker),
      http.get("/api/groups/join/ABCDEFGH", () => HttpResponse.json(invitation)),
      http.post("/api/groups/join", () =>
        HttpResponse.json(lunchtimeStriders({ adminUserId: "user-2", memberCount: 4 }), { status: 201 }),
      ),
      http.get("/api/groups/12/leaderboard", () => HttpResponse.json([])),
      http.get("/api/groups/12/members", () => HttpResponse.json([])),
      http.get("/api/groups/12", () =>
        HttpResponse.json(lunchtimeStriders({ adminUserId: "user-2", memberCount: 4 })),
      ),
    );
    const user = userEvent.setup();
    // A link typed by hand: lower case is forgiven.
    renderApp("/groups/join/abcdefgh");
    expect(await screen.findByRole("heading", { name: "Lunchtime Striders" })).toBeTruthy();
    expect(screen.getByText("3 members")).toBeTruthy();
    await user.click(screen.getByRole("button", { name: "Join Lunchtime Striders" }));
    await waitFor(() =>
      expect(sent.find((request) => request.method === "POST")?.body).toEqual({ joinCode: "ABCDEFGH" }),
    );
    expect(await screen.findByRole("tab", { name: "Leaderboard" })).toBeTruthy();
  });

  it("says so when the walker is already in the group, with a way to open it", async () => {
    server.use(
      signedInAs(testWalker),
      http.get("/api/groups/join/ABCDEFGH", () => HttpResponse.json({ ...invitation, member: true })),
    );
    renderApp("/groups/join/ABCDEFGH");
    expect(await screen.findByText("You are in this group.")).toBeTruthy();
    expect(screen.getByRole("link", { name: "Open Lunchtime Striders" }).getAttribute("href")).toBe(
      "/groups/12",
    );
    expect(screen.queryByRole("button", { name: /^Join/ })).toBeNull();
  });

  it("says a code no group has is unknown", async () => {
    server.use(
      signedInAs(testWalker),
      http.get("/api/groups/join/ZZZZZZZZ", () =>
        HttpResponse.json({ message: "No group has this join code." }, { status: 404 }),
      ),
    );
    renderApp("/groups/join/ZZZZZZZZ");
    expect(
      await screen.findByText(/No group has this join code\. The group may have been deleted/),
    ).toBeTruthy();
  });

  it("signed out, keeps the link for after sign-in and goes to sign in; signed in, the home screen returns to it", async () => {
    window.history.replaceState(null, "", "/groups/join/ABCDEFGH");
    const first = renderApp("/groups/join/ABCDEFGH");
    expect(await screen.findByText("Taking you to sign in: you come back here to join.")).toBeTruthy();
    await waitFor(() => expect(navigateTo).toHaveBeenCalledWith(LOGIN_PATH));
    expect(sessionStorage.getItem("charity-steps:return-to")).toBe("/groups/join/ABCDEFGH");
    first.unmount();

    // Sign-in lands on `/`: the link's page opens instead of the dashboard, and forgets the link.
    server.use(
      signedInAs(testWalker),
      http.get("/api/groups/join/ABCDEFGH", () => HttpResponse.json(invitation)),
    );
    renderApp("/");
    expect(await screen.findByRole("button", { name: "Join Lunchtime Striders" })).toBeTruthy();
    expect(sessionStorage.getItem("charity-steps:return-to")).toBeNull();
    window.history.replaceState(null, "", "/");
  });
});
