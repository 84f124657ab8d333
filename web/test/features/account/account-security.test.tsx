import type { AuthUser } from "@charity-steps/shared-types";
import { QueryClientProvider } from "@tanstack/react-query";
import { render, screen, waitFor, within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { HttpResponse, http, type JsonBodyType } from "msw";
import { afterEach, describe, expect, it, vi } from "vitest";
import {
  ACCOUNT_EMAIL_CONFIRMATION_PATH,
  ACCOUNT_EMAIL_PATH,
  ACCOUNT_PASSWORD_PATH,
  AccountSecurity,
} from "../../../src/features/account/account-security";
import { createQueryClient } from "../../../src/lib/query-client";
import { useToastStore } from "../../../src/lib/toast-store";
import { recordRequests, server } from "../../support/server";
import { testWalker } from "../../support/walker";

type Answer = [status: number, body: JsonBodyType];

/**
 * The server as the account's routes answer: GET /api/auth/user gives `user` (which a test may
 * change, as confirming the email does), and each POST the answer the test sets for its path.
 */
function stubServer(user: AuthUser, answers: Record<string, Answer> = {}) {
  const state = { user };
  server.use(
    http.get("/api/auth/user", () => HttpResponse.json(state.user)),
    ...Object.entries(answers).map(([path, [status, body]]) =>
      http.post(path, () => HttpResponse.json(body, { status })),
    ),
  );
  return { state, calls: recordRequests() };
}

function renderSecurity() {
  return render(
    <QueryClientProvider client={createQueryClient()}>
      <AccountSecurity />
    </QueryClientProvider>,
  );
}

const builtIn: AuthUser = { ...testWalker, accountKind: "built-in", emailVerified: false };

afterEach(() => {
  vi.restoreAllMocks();
  useToastStore.setState({ current: null });
});

describe("the account's sign-in details", () => {
  it("says the email is not confirmed, resends the link, and shows it confirmed once it is", async () => {
    const user = userEvent.setup();
    const { state, calls } = stubServer(builtIn, {
      [ACCOUNT_EMAIL_CONFIRMATION_PATH]: [
        202,
        { message: "We've sent a new confirmation link to ada@example.com." },
      ],
    });
    renderSecurity();
    expect(await screen.findByText("Email not confirmed")).toBeTruthy();
    await user.click(screen.getByRole("button", { name: "Resend the link" }));
    await waitFor(() =>
      expect(useToastStore.getState().current?.description).toBe(
        "We've sent a new confirmation link to ada@example.com.",
      ),
    );
    expect(calls.filter((call) => call.method === "POST").map((call) => call.url)).toEqual([
      ACCOUNT_EMAIL_CONFIRMATION_PATH,
    ]);

    // The link followed in another tab: coming back to this one asks again.
    state.user = { ...builtIn, emailVerified: true };
    window.dispatchEvent(new Event("visibilitychange"));
    window.dispatchEvent(new Event("focus"));
    expect(await screen.findByText("Email confirmed")).toBeTruthy();
    expect(screen.queryByRole("button", { name: "Resend the link" })).toBeNull();
  });

  it("says when a resend is refused for coming too often", async () => {
    const user = userEvent.setup();
    stubServer(builtIn, {
      [ACCOUNT_EMAIL_CONFIRMATION_PATH]: [
        429,
        {
          message:
            "You've asked for several confirmation mails already. Please wait 12 minutes and try again.",
        },
      ],
    });
    renderSecurity();
    await user.click(await screen.findByRole("button", { name: "Resend the link" }));
    await waitFor(() => expect(useToastStore.getState().current?.variant).toBe("destructive"));
    expect(useToastStore.getState().current?.description).toContain("Please wait 12 minutes");
  });

  it("changes the password, and shows the server's reason when it refuses", async () => {
    const user = userEvent.setup();
    const { calls } = stubServer(
      { ...builtIn, emailVerified: true },
      {
        [ACCOUNT_PASSWORD_PATH]: [400, { message: "Your current password is not right." }],
      },
    );
    renderSecurity();
    const form = within(await screen.findByRole("form", { name: "Change password" }));
    await user.type(form.getByLabelText("Current password"), "wrong-one");
    await user.type(form.getByLabelText(/New password/), "a-fresh-walking-phrase");
    await user.click(screen.getByRole("button", { name: "Change password" }));
    expect((await screen.findByRole("alert")).textContent).toBe("Your current password is not right.");
    expect(calls.find((call) => call.url === ACCOUNT_PASSWORD_PATH)?.body).toEqual({
      currentPassword: "wrong-one",
      newPassword: "a-fresh-walking-phrase",
    });
  });

  it("tells the walker to check the new inbox once an email change is asked for", async () => {
    const user = userEvent.setup();
    const message =
      "We've sent a link to new@example.com. Your email changes once you follow it (it works for 7 days).";
    const { calls } = stubServer(
      { ...builtIn, emailVerified: true },
      { [ACCOUNT_EMAIL_PATH]: [202, { message }] },
    );
    renderSecurity();
    const form = within(await screen.findByRole("form", { name: "Change email" }));
    await user.type(form.getByLabelText("New email"), " new@example.com ");
    await user.type(form.getByLabelText(/Current password/), "long-walks-2026");
    await user.click(screen.getByRole("button", { name: "Change email" }));
    expect((await screen.findByRole("status")).textContent).toBe(message);
    expect(calls.find((call) => call.url === ACCOUNT_EMAIL_PATH)?.body).toEqual({
      newEmail: "new@example.com",
      currentPassword: "long-walks-2026",
    });
    expect((screen.getByLabelText("New email") as HTMLInputElement).value).toBe("");
    // Sent again without a password: the problem alone, not beside the last success.
    await user.click(screen.getByRole("button", { name: "Change email" }));
    expect((await screen.findByRole("alert")).textContent).toBe(
      "Enter the new email and your current password.",
    );
    expect(screen.queryByText(message)).toBeNull();
  });

  it("asks for both fields before sending a form", async () => {
    const user = userEvent.setup();
    const { calls } = stubServer({ ...builtIn, emailVerified: true });
    renderSecurity();
    await user.click(await screen.findByRole("button", { name: "Change password" }));
    expect((await screen.findByRole("alert")).textContent).toBe("Enter your current password and a new one.");
    expect(calls.some((call) => call.method === "POST")).toBe(false);
  });

  it("shows an external provider's walker no forms, only who manages them", async () => {
    stubServer({ ...testWalker, accountKind: "external", emailVerified: true });
    renderSecurity();
    expect(await screen.findByText(/your password and email are managed there/)).toBeTruthy();
    expect(screen.queryByRole("button")).toBeNull();
    expect(screen.queryByLabelText(/password/i)).toBeNull();
  });
});
