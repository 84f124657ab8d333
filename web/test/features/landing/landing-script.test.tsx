import { CHARITY_IMPACT_PATH } from "@charity-steps/shared-types";
import { screen, within } from "@testing-library/react";
import { HttpResponse, http } from "msw";
import { beforeEach, describe, expect, it } from "vitest";
import { renderLandingPage } from "../../../src/app/landing-document";
import { startLandingPage } from "../../../src/features/landing/landing-script";
import { forgetAccountDeletedForTests } from "../../../src/lib/account-deleted";
import { charityImpactAnswered } from "../../support/handlers";
import { server } from "../../support/server";

/** The landing page's HTML as the build writes it, in this document, with its script run. */
async function openLandingHtml(): Promise<void> {
  document.body.innerHTML = `<div id="root">${await renderLandingPage()}</div>`;
  await startLandingPage(document);
}

const impactLine = (charity: string) =>
  within(screen.getByRole("heading", { name: charity, level: 3 }).closest("li") as HTMLElement).queryByTestId(
    "charity-impact",
  );

describe("the landing page's HTML, for a browser with no session", () => {
  beforeEach(() => {
    forgetAccountDeletedForTests();
    delete document.documentElement.dataset.theme;
  });

  it("is the app's landing page, drawn with nobody signed in", async () => {
    document.body.innerHTML = `<div id="root">${await renderLandingPage()}</div>`;
    expect(screen.getByRole("heading", { level: 1 }).textContent).toBe("Every step you walk helps a charity");
    expect(screen.getByRole("link", { name: "Sign In" }).getAttribute("href")).toBe("/api/login");
    expect(screen.getByRole("link", { name: "Terms & Conditions" }).getAttribute("href")).toBe("/terms");
    // No walker's navigation, and no numbers before the month's are known.
    expect(screen.queryByRole("navigation")).toBeNull();
    expect(screen.queryAllByTestId("charity-impact")).toEqual([]);
    expect(screen.getByTestId("account-deleted").hidden).toBe(true);
  });

  it("fills in each charity's walkers and steps this month", async () => {
    server.use(charityImpactAnswered);
    await openLandingHtml();
    expect(impactLine("Cancer Research UK")?.textContent).toBe(
      "1,204 walkers, 38.2 million steps for Cancer Research UK this month",
    );
    expect(impactLine("Crohn's & Colitis UK")?.textContent).toBe(
      "3 walkers, 41,000 steps for Crohn's & Colitis UK this month",
    );
    expect(impactLine("British Heart Foundation")?.hidden).toBe(false);
  });

  it("shows the charities without numbers when the server cannot say", async () => {
    server.use(http.get(CHARITY_IMPACT_PATH, () => HttpResponse.json({ message: "Down" }, { status: 503 })));
    await openLandingHtml();
    expect(screen.getByRole("heading", { name: "Cancer Research UK", level: 3 })).toBeTruthy();
    expect(screen.queryAllByTestId("charity-impact")).toEqual([]);
  });

  it("says an account was deleted, once, when the deletion led here", async () => {
    sessionStorage.setItem("charity-steps:account-deleted", "1");
    await openLandingHtml();
    const note = screen.getByRole("status");
    expect(note.hidden).toBe(false);
    expect(note.textContent).toContain("Your account was deleted.");
    expect(sessionStorage.getItem("charity-steps:account-deleted")).toBeNull();
  });

  it("shows this device's last theme, and forgets the walker last signed in here", async () => {
    localStorage.setItem("charity-steps:theme", "dark");
    localStorage.setItem("charity-steps:last-user", JSON.stringify({ id: "u1", firstName: "Ann" }));
    await openLandingHtml();
    expect(document.documentElement.dataset.theme).toBe("dark");
    // Nobody is signed in here now: the app must not open offline for the last walker.
    expect(localStorage.getItem("charity-steps:last-user")).toBeNull();
  });
});
