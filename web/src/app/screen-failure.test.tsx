import { cleanup, fireEvent, screen, within } from "@testing-library/react";
import { afterEach, describe, expect, it, vi } from "vitest";
import { reloadPage } from "../lib/browser-location";
import { renderApp, stubAuthUser, testWalker } from "../test/render-app";

vi.mock("../lib/browser-location", () => ({ navigateTo: vi.fn(), reloadPage: vi.fn() }));
// The charity screen breaks as it renders; every other screen is the real one.
vi.mock("../features/charity/charity-page", () => ({
  CharityPage: () => {
    throw new Error("render failed");
  },
}));

afterEach(cleanup);

describe("a screen that fails to render", () => {
  it("shows 'Something went wrong' inside the app, with a Reload Page button that reloads", async () => {
    vi.spyOn(console, "error").mockImplementation(() => {});
    stubAuthUser(testWalker);
    renderApp("/charity");

    expect(await screen.findByRole("heading", { name: "Something went wrong" })).toBeTruthy();
    // The header and the tab bar stay, so the walker can go elsewhere.
    expect(screen.getByRole("navigation", { name: "Main" })).toBeTruthy();
    fireEvent.click(screen.getByRole("button", { name: "Reload Page" }));
    expect(reloadPage).toHaveBeenCalledOnce();
  });

  it("is forgotten once the walker moves to another screen", async () => {
    vi.spyOn(console, "error").mockImplementation(() => {});
    stubAuthUser(testWalker);
    renderApp("/charity");
    expect(await screen.findByText("Something went wrong")).toBeTruthy();

    fireEvent.click(
      within(screen.getByRole("navigation", { name: "Main" })).getByRole("link", { name: "Account" }),
    );
    expect(await screen.findByText("Ada Walker")).toBeTruthy();
    expect(screen.queryByText("Something went wrong")).toBeNull();
  });
});
