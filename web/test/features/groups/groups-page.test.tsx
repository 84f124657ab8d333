import { GROUP_DESCRIPTION_MAX_CHARS, GROUP_NAME_MAX_CHARS, type MyGroup } from "@charity-steps/shared-types";
import { fireEvent, screen, waitFor } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { HttpResponse, http } from "msw";
import { describe, expect, it } from "vitest";
import { joinCodeTyped } from "../../../src/features/groups/groups-page";
import { signedInAs } from "../../support/handlers";
import { renderApp } from "../../support/render-app";
import { recordRequests, server } from "../../support/server";
import { testWalker } from "../../support/walker";
import { lunchtimeStriders } from "./group-fixtures";

/** The first render loads the app's lazy chunks: slow while other files run beside this one. */
const LOADED = { timeout: 10_000 };

const striders: MyGroup = {
  ...lunchtimeStriders({ adminUserId: "user-2", memberCount: 4 }),
  description: "Round the park at one.\nBack by two.",
  isAdmin: false,
  joinedAt: "2026-11-02T09:00:00.000Z",
};

describe("the groups page", () => {
  it("joins with a code pasted with spaces around it and inside it", async () => {
    const sent = recordRequests();
    let joined = false;
    server.use(
      signedInAs(testWalker),
      http.get("/api/groups", () => HttpResponse.json(joined ? [striders] : [])),
      http.post("/api/groups/join", () => {
        joined = true;
        return HttpResponse.json(striders, { status: 201 });
      }),
    );
    renderApp("/groups");
    fireEvent.click(await screen.findByRole("button", { name: "Join Group" }, LOADED));
    const field = screen.getByLabelText("Join code");
    // A paste arrives as one change of the whole text (a field with a maxLength would have cut it
    // to its first eight characters first).
    fireEvent.change(field, { target: { value: " abcd efgh " } });
    expect((field as HTMLInputElement).value).toBe("ABCDEFGH");
    expect(field.hasAttribute("maxlength")).toBe(false);
    fireEvent.click(screen.getByRole("button", { name: "Join" }));
    await screen.findByRole("heading", { name: "Lunchtime Striders" }, LOADED);
    await waitFor(() =>
      expect(sent.find((request) => request.method === "POST")?.body).toEqual({ joinCode: "ABCDEFGH" }),
    );
  });

  it("shows a group's description with its line breaks", async () => {
    server.use(
      signedInAs(testWalker),
      http.get("/api/groups", () => HttpResponse.json([striders])),
    );
    renderApp("/groups");
    const description = await screen.findByText(/Round the park at one\./);
    expect(description.textContent).toBe("Round the park at one.\nBack by two.");
    expect(description.className).toContain("whitespace-pre-line");
  });
});

describe("making a group", () => {
  it("makes one group when the form is sent twice before the button shows it is busy", async () => {
    let made = 0;
    server.use(
      signedInAs(testWalker),
      http.get("/api/groups", () => HttpResponse.json(made > 0 ? [striders] : [])),
      http.post("/api/groups", () => {
        made++;
        return HttpResponse.json({ ...striders, isAdmin: true }, { status: 201 });
      }),
    );
    const user = userEvent.setup();
    renderApp("/groups");
    await user.click(await screen.findByRole("button", { name: "Create Group" }));
    await user.type(screen.getByLabelText("Group name"), "Lunchtime Striders");
    const form = screen.getByRole("button", { name: "Create" }).closest("form") as HTMLFormElement;
    // A double tap: both arrive before React has drawn the busy button.
    fireEvent.submit(form);
    fireEvent.submit(form);
    await screen.findByRole("heading", { name: "Lunchtime Striders" });
    expect(made).toBe(1);
  });
});

describe("a walker in as many groups as they can be", () => {
  it("is told the server's reason, not to try again", async () => {
    const full = "You are in 50 groups, the most a walker can be in. Leave one to start or join another.";
    server.use(
      signedInAs(testWalker),
      http.get("/api/groups", () => HttpResponse.json([striders])),
      http.post("/api/groups/join", () => HttpResponse.json({ message: full }, { status: 409 })),
    );
    renderApp("/groups");
    fireEvent.click(await screen.findByRole("button", { name: "Join Group" }, LOADED));
    fireEvent.change(screen.getByLabelText("Join code"), { target: { value: "ABCDEFGH" } });
    fireEvent.click(screen.getByRole("button", { name: "Join" }));
    expect(await screen.findByText(full, {}, LOADED)).toBeTruthy();
    expect(screen.queryByText("Failed to join group. Please check the code and try again.")).toBeNull();
  });
});

describe("a group's name and description", () => {
  it("keep what is pasted whole, count it in characters, and hold Create until it fits", async () => {
    server.use(
      signedInAs(testWalker),
      http.get("/api/groups", () => HttpResponse.json([])),
    );
    renderApp("/groups");
    fireEvent.click(await screen.findByRole("button", { name: "Create Group" }, LOADED));
    const name = screen.getByLabelText("Group name") as HTMLInputElement;
    const create = screen.getByRole("button", { name: "Create" }) as HTMLButtonElement;
    const tooLong = `Lunchtime Striders of the Riverside Business Park, Walking Club`;
    expect(tooLong.length).toBe(GROUP_NAME_MAX_CHARS + 3);
    fireEvent.change(name, { target: { value: tooLong } });
    expect(name.value).toBe(tooLong);
    expect(screen.getByText("3 characters too many")).toBeTruthy();
    expect(screen.getByText("The name is 3 characters too long.").getAttribute("role")).toBe("status");
    expect(create.disabled).toBe(true);

    // Sixty walking figures are sixty characters to the server, though a browser's maxLength
    // would count each as two.
    fireEvent.change(name, { target: { value: "\u{1F6B6}".repeat(GROUP_NAME_MAX_CHARS) } });
    expect(screen.getByText("0 characters left")).toBeTruthy();
    expect(create.disabled).toBe(false);
    expect(name.getAttribute("aria-describedby")).toBe(screen.getByText("0 characters left").id);
    expect(screen.getByText(`${GROUP_DESCRIPTION_MAX_CHARS} characters left`)).toBeTruthy();
  });
});

describe("a join code as typed", () => {
  it("drops spaces and dashes and upper-cases before it caps the length", () => {
    expect(joinCodeTyped(" h9j6jh57 ")).toBe("H9J6JH57");
    expect(joinCodeTyped("H9J6 JH57")).toBe("H9J6JH57");
    expect(joinCodeTyped("h9j6-jh57")).toBe("H9J6JH57");
    expect(joinCodeTyped("H9J6JH57XYZ")).toBe("H9J6JH57");
    expect(joinCodeTyped("")).toBe("");
  });
});
