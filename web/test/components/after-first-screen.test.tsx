import { render, screen } from "@testing-library/react";
import { describe, expect, it } from "vitest";
import { AfterFirstScreen } from "../../src/components/after-first-screen";

describe("a part drawn after the first screen", () => {
  it("keeps a screen's height of space until the page above it has been painted, then shows", async () => {
    render(
      <>
        <h1>Today</h1>
        <AfterFirstScreen>
          <p>the chart</p>
        </AfterFirstScreen>
      </>,
    );
    expect(screen.getByRole("heading", { name: "Today" })).toBeTruthy();
    expect(screen.queryByText("the chart")).toBeNull();
    expect(screen.getByTestId("after-first-screen").className).toContain("min-h-screen");

    expect(await screen.findByText("the chart")).toBeTruthy();
    expect(screen.queryByTestId("after-first-screen")).toBeNull();
  });
});
