import { fireEvent, render, screen } from "@testing-library/react";
import { describe, expect, it, vi } from "vitest";
import { ErrorBoundary } from "../../../src/features/errors/error-boundary";
import { reloadPage } from "../../../src/lib/browser-location";

vi.mock("../../../src/lib/browser-location", () => ({ navigateTo: vi.fn(), reloadPage: vi.fn() }));

function BrokenScreen(): never {
  throw new Error("render failed");
}

describe("a screen that fails to render", () => {
  it("is replaced by 'Something went wrong' with a Reload Page button that reloads", () => {
    vi.spyOn(console, "error").mockImplementation(() => {});
    render(
      <ErrorBoundary>
        <BrokenScreen />
      </ErrorBoundary>,
    );
    expect(screen.getByRole("heading", { name: "Something went wrong" })).toBeTruthy();
    fireEvent.click(screen.getByRole("button", { name: "Reload Page" }));
    expect(reloadPage).toHaveBeenCalledOnce();
  });

  it("is forgotten once the walker moves to another page", () => {
    vi.spyOn(console, "error").mockImplementation(() => {});
    const { rerender } = render(
      <ErrorBoundary resetKey="/charity">
        <BrokenScreen />
      </ErrorBoundary>,
    );
    expect(screen.getByText("Something went wrong")).toBeTruthy();
    rerender(
      <ErrorBoundary resetKey="/groups">
        <p>Groups screen</p>
      </ErrorBoundary>,
    );
    expect(screen.getByText("Groups screen")).toBeTruthy();
    expect(screen.queryByText("Something went wrong")).toBeNull();
  });
});
