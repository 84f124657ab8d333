import { screen, within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { HttpResponse, http } from "msw";
import { describe, expect, it, vi } from "vitest";
import { signedInAs } from "../../support/handlers";
import { renderApp } from "../../support/render-app";
import { recordRequests, server } from "../../support/server";
import { testWalker } from "../../support/walker";
import { lunchtimeStriders } from "./group-fixtures";

/** Group 12, whose admin is `adminUserId`; returns the requests sent so far, each as "METHOD url". */
function stubGroup(adminUserId: string): () => string[] {
  server.use(
    signedInAs(testWalker),
    http.get("/api/groups/12/leaderboard", () => HttpResponse.json([])),
    http.get("/api/groups/12/members", () => HttpResponse.json([])),
    http.get("/api/groups/12", () => HttpResponse.json(lunchtimeStriders({ adminUserId, memberCount: 2 }))),
    http.delete("/api/groups/12", () => HttpResponse.json({ ok: true })),
    http.post("/api/groups/12/leave", () => HttpResponse.json({ ok: true })),
  );
  const sent = recordRequests();
  return () => sent.map(({ method, url }) => `${method} ${url}`);
}

// Where focus goes (Cancel first, back to the button on Escape) is the browser's showModal at work,
// which jsdom lacks: e2e/tests/accessibility.test.ts checks it in Chromium.
describe("leaving or deleting a group asks first, in the app's own dialog", () => {
  it("the admin's Delete asks; Cancel deletes nothing, Delete group deletes", async () => {
    const requests = stubGroup(testWalker.id);
    const user = userEvent.setup();
    renderApp("/groups/12");
    await user.click(await screen.findByRole("button", { name: "Delete" }));
    const dialog = screen.getByRole("dialog", {
      name: 'Are you sure you want to delete "Lunchtime Striders"?',
    });
    expect(dialog.textContent).toContain("This action cannot be undone and will remove all members.");
    await user.click(within(dialog).getByRole("button", { name: "Cancel" }));
    expect(screen.queryByRole("dialog")).toBeNull();
    expect(requests()).not.toContain("DELETE /api/groups/12");

    await user.click(screen.getByRole("button", { name: "Delete" }));
    await user.click(within(screen.getByRole("dialog")).getByRole("button", { name: "Delete group" }));
    await vi.waitFor(() => expect(requests()).toContain("DELETE /api/groups/12"));
  });

  it("a member's Leave asks; Leave group leaves", async () => {
    const requests = stubGroup("user-2");
    const user = userEvent.setup();
    renderApp("/groups/12");
    await user.click(await screen.findByRole("button", { name: "Leave" }));
    const dialog = screen.getByRole("dialog", { name: "Are you sure you want to leave this group?" });
    expect(requests()).not.toContain("POST /api/groups/12/leave");
    await user.click(within(dialog).getByRole("button", { name: "Leave group" }));
    await vi.waitFor(() => expect(requests()).toContain("POST /api/groups/12/leave"));
  });
});
