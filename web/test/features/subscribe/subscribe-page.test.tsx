import { screen } from "@testing-library/react";
import { describe, expect, it } from "vitest";
import { signedInAs } from "../../support/handlers";
import { renderApp } from "../../support/render-app";
import { server } from "../../support/server";
import { testWalker } from "../../support/walker";

describe("the Subscribe page", () => {
  it("is a page, not a 404: the price to come, what it funds, and nothing charged in the beta", async () => {
    server.use(signedInAs(testWalker));
    renderApp("/subscribe");
    expect(await screen.findByRole("heading", { level: 1, name: "Subscribe" })).toBeTruthy();
    expect(screen.getByRole("heading", { name: "Coming Soon" })).toBeTruthy();
    expect(screen.getByText("£5.99")).toBeTruthy();
    expect(screen.getByText(/Nothing is charged in the beta/)).toBeTruthy();
    const funds = screen.getByRole("region", { name: "What each payment will fund" });
    expect(funds.textContent).toContain("50% (£2.99) to your chosen charity");
    expect(screen.queryByText(/Page not found/i)).toBeNull();
  });
});
