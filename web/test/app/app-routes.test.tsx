import { LOGIN_PATH, LOGOUT_PATH, NOTIFICATIONS_PATH, SIGN_UP_PATH } from "@charity-steps/shared-types";
import { cleanup, screen, waitFor, within } from "@testing-library/react";
import { HttpResponse, http } from "msw";
import { beforeEach, describe, expect, it, vi } from "vitest";
import { navigateTo } from "../../src/lib/browser-location";
import { useToastStore } from "../../src/lib/toast-store";
import { noNetwork, signedInAs } from "../support/handlers";
import { renderApp } from "../support/render-app";
import { server } from "../support/server";
import { testWalker } from "../support/walker";

vi.mock("../../src/lib/browser-location", () => ({ navigateTo: vi.fn(), reloadPage: vi.fn() }));

beforeEach(() => {
  vi.mocked(navigateTo).mockClear();
});

describe("signed out", () => {
  it("/ shows the landing page with its four sign-in buttons and no tab bar", async () => {
    renderApp("/");
    // The two that invite a newcomer open the sign-up form; the two for returning walkers, sign in.
    for (const [label, path] of [
      ["Get Started", SIGN_UP_PATH],
      ["Sign In for Beta Access", LOGIN_PATH],
      ["Welcome Back - Log In", LOGIN_PATH],
      ["Join Beta - Free", SIGN_UP_PATH],
    ]) {
      expect(await screen.findByRole("link", { name: label })).toHaveProperty(
        "href",
        `${window.location.origin}${path}`,
      );
    }
    expect(screen.getByRole("link", { name: "Terms & Conditions" }).getAttribute("href")).toBe("/terms");
    expect(screen.getByRole("link", { name: "Sign In" }).getAttribute("href")).toBe(LOGIN_PATH);
    for (const charity of ["Cancer Research UK", "Crohn's & Colitis UK", "British Heart Foundation"]) {
      expect(screen.getByRole("heading", { name: charity })).toBeTruthy();
    }
    expect(screen.getByText(/£5\.99 a month/)).toBeTruthy();
    expect(screen.queryByRole("navigation", { name: "Main" })).toBeNull();
    expect(screen.queryByRole("heading", { name: "Dashboard" })).toBeNull();
  });

  it("/dashboard shows the Log In Required prompt, the Unauthorized toast, then goes to sign in", async () => {
    renderApp("/dashboard");

    const logIn = await screen.findByRole("link", { name: "Log In to Continue" });
    expect(logIn.getAttribute("href")).toBe(LOGIN_PATH);
    expect(screen.getByText("Track your steps and monthly progress")).toBeTruthy();
    expect(screen.getByText("Join groups and compete")).toBeTruthy();
    expect(screen.queryByRole("heading", { name: "Dashboard" })).toBeNull();

    expect(useToastStore.getState().current).toMatchObject({
      title: "Unauthorized",
      description: "You are logged out. Logging in again...",
      variant: "destructive",
      open: true,
    });
    expect((await screen.findAllByText("You are logged out. Logging in again...")).length).toBeGreaterThan(0);

    // The prompt stays up for the redirect delay, then the browser goes to sign in.
    expect(navigateTo).not.toHaveBeenCalled();
    await waitFor(() => expect(navigateTo).toHaveBeenCalledWith(LOGIN_PATH), { timeout: 2000 });
  });

  it.each(["/charity", "/prize-draw", "/groups", "/account"])(
    "%s shows the Log In Required prompt",
    async (path) => {
      renderApp(path);
      expect(await screen.findByRole("heading", { name: "Log In Required" })).toBeTruthy();
      expect(useToastStore.getState().current?.title).toBe("Unauthorized");
    },
  );

  it("/groups/{id} is not routed: the 404 page, and no redirect", async () => {
    renderApp("/groups/5");
    expect(await screen.findByRole("heading", { name: "404 Page Not Found" })).toBeTruthy();
    expect(useToastStore.getState().current).toBeNull();
  });

  it("/terms is public, with every section and a Back button", async () => {
    renderApp("/terms");
    expect(await screen.findByRole("heading", { name: "Terms & Conditions" })).toBeTruthy();
    for (const section of [
      "Postal free-entry option",
      "How it works",
      "Revenue allocation",
      "User responsibilities",
      "Cancellation and refunds",
    ]) {
      expect(screen.getByRole("heading", { name: section })).toBeTruthy();
    }
    expect(screen.getByText(/must arrive by the 25th of the month/)).toBeTruthy();
    expect(screen.getByRole("button", { name: "Back" })).toBeTruthy();
    expect(useToastStore.getState().current).toBeNull();
  });

  it("an unknown address shows '404 Page Not Found'", async () => {
    renderApp("/no-such-page");
    expect(await screen.findByText("404 Page Not Found")).toBeTruthy();
  });
});

describe("signed in", () => {
  beforeEach(() => {
    server.use(signedInAs(testWalker));
  });

  it("/ shows the dashboard, the top navigation and the tab bar with Dashboard lit", async () => {
    renderApp("/");
    expect(await screen.findByRole("heading", { name: "Dashboard" })).toBeTruthy();
    expect(await screen.findByText("Goal: 100,000 steps")).toBeTruthy();

    const tabs = within(screen.getByRole("navigation", { name: "Main" }));
    const expected = [
      ["Dashboard", "/dashboard"],
      ["Groups", "/groups"],
      ["Charity", "/charity"],
      ["Prizes", "/prize-draw"],
      ["Account", "/account"],
    ];
    expect(tabs.getAllByRole("link").map((link) => [link.textContent, link.getAttribute("href")])).toEqual(
      expected,
    );
    expect(tabs.getByRole("link", { name: "Dashboard" }).getAttribute("aria-current")).toBe("page");
    expect(tabs.getByRole("link", { name: "Groups" }).getAttribute("aria-current")).toBeNull();

    const top = within(screen.getByRole("navigation", { name: "Top" }));
    expect(top.getByRole("link", { name: "Subscribe" }).getAttribute("href")).toBe("/subscribe");
    expect(top.getByRole("link", { name: "Logout" }).getAttribute("href")).toBe(LOGOUT_PATH);
    expect(screen.getByRole("link", { name: "Charity Steps" }).getAttribute("href")).toBe("/");
    expect(screen.getByRole("link", { name: "Terms & Conditions" }).getAttribute("href")).toBe("/terms");
    expect(screen.queryByRole("link", { name: "Get Started" })).toBeNull();
  });

  it("asks for the notification bell's count only once the dashboard is on screen", async () => {
    const screenAtRequest: boolean[] = [];
    server.use(
      http.get(NOTIFICATIONS_PATH, () => {
        screenAtRequest.push(screen.queryByText("Goal: 100,000 steps") !== null);
        return HttpResponse.json({ items: [], unread: 0, next: null });
      }),
    );
    renderApp("/dashboard");
    expect(await screen.findByRole("link", { name: "Notifications" })).toBeTruthy();
    await waitFor(() => expect(screenAtRequest.length).toBeGreaterThan(0));
    expect(screenAtRequest.every(Boolean)).toBe(true);
  });

  it("a group's page lights the Groups tab", async () => {
    server.use(
      http.get("/api/groups/12*", () => HttpResponse.json({ message: "Group not found." }, { status: 404 })),
    );
    renderApp("/groups/12");
    expect(await screen.findByRole("heading", { name: "Group" })).toBeTruthy();
    const tabs = within(screen.getByRole("navigation", { name: "Main" }));
    expect(tabs.getByRole("link", { name: "Groups" }).getAttribute("aria-current")).toBe("page");
  });

  it("/account shows the walker's name and email and a real Sign Out link", async () => {
    renderApp("/account");
    const profile = await screen.findByRole("region", { name: "Profile" });
    expect(within(profile).getByText("Ada Walker")).toBeTruthy();
    expect(within(profile).getByText("ada@example.com")).toBeTruthy();
    expect(screen.getByText("Beta member since 14 March 2025")).toBeTruthy();
    expect(screen.getByRole("link", { name: "Sign Out" }).getAttribute("href")).toBe(LOGOUT_PATH);
  });

  it("/account lists the Apple Health step-import keys, with a way to the setup page", async () => {
    renderApp("/account");
    expect(await screen.findByRole("heading", { name: "Apple Health step-import keys" })).toBeTruthy();
    expect(screen.getByRole("link", { name: "How to set up Apple Health" }).getAttribute("href")).toBe(
      "/apple-health",
    );
  });

  it("/apple-health shows the steps: a key, the Shortcut, and the export's import", async () => {
    renderApp("/apple-health");
    expect(await screen.findByRole("heading", { name: "Apple Health", level: 1 })).toBeTruthy();
    for (const step of [
      "1. Create a step-import key",
      "2. Build the Shortcut on your iPhone",
      "Import a Health export",
    ]) {
      expect(screen.getByRole("heading", { name: step })).toBeTruthy();
    }
    expect(screen.getAllByText(/\/api\/health\/apple-health/).length).toBeGreaterThan(0);
  });

  it("/subscribe is the Subscribe page, not the 404 page", async () => {
    renderApp("/subscribe");
    expect(await screen.findByRole("heading", { level: 1, name: "Subscribe" })).toBeTruthy();
    expect(screen.queryByText("404 Page Not Found")).toBeNull();
  });

  it("never shows the Unauthorized toast or leaves the app", async () => {
    renderApp("/charity");
    expect(await screen.findByRole("heading", { name: "Charity" })).toBeTruthy();
    expect(useToastStore.getState().current).toBeNull();
    expect(navigateTo).not.toHaveBeenCalled();
  });
});

describe("while sign-in is being checked", () => {
  it("shows a loading spinner, not the prompt or the landing page", async () => {
    server.use(http.get("/api/auth/user", () => new Promise<never>(() => {})));
    renderApp("/dashboard");
    expect(await screen.findByRole("status", { name: "Loading" })).toBeTruthy();
    expect(screen.queryByText("Log In to Continue")).toBeNull();
  });
});

describe("when the server cannot be reached", () => {
  it("offers a retry on a signed-in screen instead of sending the walker to sign in", async () => {
    server.use(noNetwork);
    renderApp("/dashboard");
    expect(await screen.findByRole("button", { name: "Try Again" })).toBeTruthy();
    expect(useToastStore.getState().current).toBeNull();
    expect(navigateTo).not.toHaveBeenCalled();
  });

  it("still opens the dashboard offline for the walker last signed in on this device", async () => {
    server.use(signedInAs(testWalker));
    renderApp("/account");
    expect(
      within(await screen.findByRole("region", { name: "Profile" })).getByText(testWalker.email as string),
    ).toBeTruthy();
    cleanup();

    server.use(noNetwork);
    renderApp("/dashboard");
    expect(await screen.findByText("Goal: 100,000 steps")).toBeTruthy();
    expect(screen.queryByRole("button", { name: "Try Again" })).toBeNull();
    expect(navigateTo).not.toHaveBeenCalled();
  });
});
