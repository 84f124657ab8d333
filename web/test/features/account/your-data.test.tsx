import {
  ACCOUNT_EXPORT_PATH,
  ACCOUNT_MESSAGES,
  ACCOUNT_PATH,
  type AuthUser,
  DELETE_CONFIRM_WORD,
  LOGOUT_PATH,
} from "@charity-steps/shared-types";
import { QueryClientProvider } from "@tanstack/react-query";
import { render, screen, waitFor } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { HttpResponse, http, type JsonBodyType } from "msw";
import { afterEach, describe, expect, it, vi } from "vitest";
import { YourData } from "../../../src/features/account/your-data";
import { navigateTo } from "../../../src/lib/browser-location";
import { createQueryClient } from "../../../src/lib/query-client";
import { useToastStore } from "../../../src/lib/toast-store";
import { signedInAs } from "../../support/handlers";
import { recordRequests, server } from "../../support/server";
import { testWalker } from "../../support/walker";

vi.mock("../../../src/lib/browser-location", () => ({ navigateTo: vi.fn(), reloadPage: vi.fn() }));

/** The server: who is signed in, and what DELETE /api/account answers. */
function stubServer(user: AuthUser, deleteAnswer: [number, JsonBodyType] = [204, null]) {
  const [status, answer] = deleteAnswer;
  server.use(
    signedInAs(user),
    http.delete(ACCOUNT_PATH, () =>
      status === 204 ? new HttpResponse(null, { status }) : HttpResponse.json(answer, { status }),
    ),
  );
  return recordRequests();
}

function renderYourData() {
  return render(
    <QueryClientProvider client={createQueryClient()}>
      <YourData />
    </QueryClientProvider>,
  );
}

afterEach(() => {
  vi.mocked(navigateTo).mockClear();
  useToastStore.setState({ current: null });
});

describe("Your data", () => {
  it("downloads the data with a plain link to the export", () => {
    stubServer(testWalker);
    renderYourData();
    const link = screen.getByRole("link", { name: "Download my data" });
    expect(link.getAttribute("href")).toBe(ACCOUNT_EXPORT_PATH);
    expect(link.hasAttribute("download")).toBe(true);
  });

  it("deletes the account once the email is typed, says what goes and what stays, and signs out to the home page", async () => {
    const user = userEvent.setup();
    const calls = stubServer(testWalker);
    renderYourData();
    await user.click(screen.getByRole("button", { name: "Delete my account" }));
    expect(screen.getByText(/your name, email and picture/)).toBeTruthy();
    expect(screen.getByText(/the step counts/)).toBeTruthy();
    const field = await screen.findByLabelText(/Type your account's email \(ada@example.com\) to confirm/);

    await user.type(field, "someone@example.com");
    await user.click(screen.getByRole("button", { name: "Delete my account" }));
    expect((await screen.findByRole("alert")).textContent).toBe(ACCOUNT_MESSAGES.confirmEmail);
    expect(calls.filter((call) => call.method === "DELETE")).toEqual([]);

    await user.clear(field);
    await user.type(field, "ADA@example.com");
    expect(screen.queryByRole("alert")).toBeNull();
    await user.click(screen.getByRole("button", { name: "Delete my account" }));
    await waitFor(() => expect(navigateTo).toHaveBeenCalledWith(LOGOUT_PATH));
    expect(calls.filter((call) => call.method === "DELETE")).toEqual([
      { method: "DELETE", url: ACCOUNT_PATH, body: { confirmEmail: "ADA@example.com" } },
    ]);
    expect(useToastStore.getState().current?.title).toBe("Account deleted");
    // The sign-out route ends on the landing page, a new page load: it says the account went.
    expect(sessionStorage.getItem("charity-steps:account-deleted")).toBe("1");
  });

  it("asks an account without an email to type DELETE", async () => {
    const user = userEvent.setup();
    const calls = stubServer({ ...testWalker, email: null });
    renderYourData();
    await user.click(screen.getByRole("button", { name: "Delete my account" }));
    const field = await screen.findByLabelText(
      `Your account has no email: type ${DELETE_CONFIRM_WORD} to confirm`,
    );
    await user.type(field, DELETE_CONFIRM_WORD);
    await user.click(screen.getByRole("button", { name: "Delete my account" }));
    await waitFor(() => expect(navigateTo).toHaveBeenCalledWith(LOGOUT_PATH));
    expect(calls.find((call) => call.method === "DELETE")?.body).toEqual({
      confirmEmail: DELETE_CONFIRM_WORD,
    });
  });

  it("shows the server's refusal and stays signed in", async () => {
    const user = userEvent.setup();
    stubServer(testWalker, [400, { message: ACCOUNT_MESSAGES.confirmEmail }]);
    renderYourData();
    await user.click(screen.getByRole("button", { name: "Delete my account" }));
    await user.type(await screen.findByLabelText(/Type your account's email/), testWalker.email ?? "");
    await user.click(screen.getByRole("button", { name: "Delete my account" }));
    expect((await screen.findByRole("alert")).textContent).toBe(ACCOUNT_MESSAGES.confirmEmail);
    expect(navigateTo).not.toHaveBeenCalled();
  });

  it("keeps the account when the walker changes their mind", async () => {
    const user = userEvent.setup();
    const calls = stubServer(testWalker);
    renderYourData();
    await user.click(screen.getByRole("button", { name: "Delete my account" }));
    await user.click(screen.getByRole("button", { name: "Keep my account" }));
    expect(screen.queryByLabelText(/Type your account's email/)).toBeNull();
    expect(calls.filter((call) => call.method === "DELETE")).toEqual([]);
  });
});
