import { screen, within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { describe, expect, it, vi } from "vitest";
import { renderApp, testWalker } from "../../render-app";

/** Group 12, whose admin is `adminUserId`; every request is recorded as "METHOD url". */
function stubGroup(adminUserId: string): string[] {
  const requests: string[] = [];
  vi.stubGlobal(
    "fetch",
    vi.fn(async (input: RequestInfo | URL, init?: RequestInit) => {
      const url = String(input);
      requests.push(`${init?.method ?? "GET"} ${url}`);
      if (url === "/api/auth/user") return Response.json(testWalker);
      if (url === "/api/groups/12/leaderboard") return Response.json([]);
      if (url === "/api/groups/12/members") return Response.json([]);
      if (url === "/api/groups/12" && (init?.method ?? "GET") === "GET") {
        return Response.json({
          id: 12,
          name: "Lunchtime Striders",
          description: "",
          joinCode: "ABCDEFGH",
          adminUserId,
          createdAt: "2026-11-01T12:00:00.000Z",
          memberCount: 2,
        });
      }
      if (url === "/api/groups/12" || url === "/api/groups/12/leave") return Response.json({ ok: true });
      if (url === "/api/groups") return Response.json([]);
      return Response.json({ message: "not stubbed" }, { status: 404 });
    }),
  );
  return requests;
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
    expect(requests).not.toContain("DELETE /api/groups/12");

    await user.click(screen.getByRole("button", { name: "Delete" }));
    await user.click(within(screen.getByRole("dialog")).getByRole("button", { name: "Delete group" }));
    await vi.waitFor(() => expect(requests).toContain("DELETE /api/groups/12"));
  });

  it("a member's Leave asks; Leave group leaves", async () => {
    const requests = stubGroup("user-2");
    const user = userEvent.setup();
    renderApp("/groups/12");
    await user.click(await screen.findByRole("button", { name: "Leave" }));
    const dialog = screen.getByRole("dialog", { name: "Are you sure you want to leave this group?" });
    expect(requests).not.toContain("POST /api/groups/12/leave");
    await user.click(within(dialog).getByRole("button", { name: "Leave group" }));
    await vi.waitFor(() => expect(requests).toContain("POST /api/groups/12/leave"));
  });
});
