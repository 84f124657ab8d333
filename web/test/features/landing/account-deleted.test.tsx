import { screen } from "@testing-library/react";
import { beforeEach, describe, expect, it } from "vitest";
import { forgetAccountDeletedForTests } from "../../../src/lib/account-deleted";
import { renderApp } from "../../support/render-app";

describe("the landing page after an account is deleted", () => {
  beforeEach(() => forgetAccountDeletedForTests());

  it("says the account was deleted, once", async () => {
    sessionStorage.setItem("charity-steps:account-deleted", "1");
    renderApp("/");
    expect((await screen.findByTestId("account-deleted")).textContent).toContain("Your account was deleted.");
    expect(screen.getByTestId("account-deleted").hidden).toBe(false);
    expect(screen.getByRole("status").textContent).toContain("Your personal data has been erased.");
    expect(sessionStorage.getItem("charity-steps:account-deleted")).toBeNull();
  });

  it("says nothing of the kind to any other visitor", async () => {
    renderApp("/");
    await screen.findByRole("link", { name: "Get Started" });
    // In the page (the landing page's HTML shows it from its script), but hidden.
    expect(screen.getByTestId("account-deleted").hidden).toBe(true);
    expect(screen.queryByRole("status")).toBeNull();
  });
});
