import { screen } from "@testing-library/react";
import { describe, expect, it, vi } from "vitest";
import { renderApp, testWalker } from "../../render-app";

/** The signed-in walker, and `status` with the server's message for everything about group 12. */
function stubGroupAnswer(status: number, message: string) {
  vi.stubGlobal(
    "fetch",
    vi.fn(async (input: RequestInfo | URL) => {
      const url = String(input);
      if (url === "/api/auth/user") return Response.json(testWalker);
      if (url.startsWith("/api/groups/12")) return Response.json({ message }, { status });
      return Response.json({ message: "not stubbed" }, { status: 404 });
    }),
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
