import { ACCOUNT_PREFERENCES_PATH, type PreferencesUpdate } from "@charity-steps/shared-types";
import { screen, waitFor } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { HttpResponse, http } from "msw";
import { describe, expect, it, vi } from "vitest";
import { signedInAs } from "../../support/handlers";
import { renderApp } from "../../support/render-app";
import { server } from "../../support/server";
import { testWalker } from "../../support/walker";

describe("Appearance on the Account page", () => {
  it("saves Dark and shows it at once, and Light again", async () => {
    const sent: PreferencesUpdate[] = [];
    server.use(
      signedInAs(testWalker),
      http.put(ACCOUNT_PREFERENCES_PATH, async ({ request }) => {
        const change = (await request.json()) as PreferencesUpdate;
        sent.push(change);
        return HttpResponse.json({ dailyGoal: 10_000, theme: change.theme ?? "system", onboardedAt: null });
      }),
    );
    const user = userEvent.setup();
    renderApp("/account");
    const group = await screen.findByRole("group", { name: "Appearance" });
    expect((screen.getByRole("radio", { name: /As this device/ }) as HTMLInputElement).checked).toBe(true);
    expect(group.textContent).toContain("Light or dark, as the device is set");

    await user.click(screen.getByRole("radio", { name: /^Dark/ }));
    await waitFor(() => expect(document.documentElement.dataset.theme).toBe("dark"));
    expect((screen.getByRole("radio", { name: /^Dark/ }) as HTMLInputElement).checked).toBe(true);
    await user.click(screen.getByRole("radio", { name: /^Light/ }));
    await waitFor(() => expect(document.documentElement.dataset.theme).toBe("light"));
    expect(sent).toEqual([{ theme: "dark" }, { theme: "light" }]);
    expect(localStorage.getItem("charity-steps:theme")).toBe("light");
  });

  it("opens each page at its top", async () => {
    const scrolled = vi.spyOn(window, "scrollTo");
    server.use(signedInAs(testWalker));
    const user = userEvent.setup();
    renderApp("/account");
    await screen.findByRole("group", { name: "Appearance" });
    const before = scrolled.mock.calls.length;
    await user.click(screen.getAllByRole("link", { name: /Groups/ })[0] as HTMLElement);
    await waitFor(() => expect(scrolled.mock.calls.length).toBeGreaterThan(before));
    expect(scrolled).toHaveBeenLastCalledWith(0, 0);
    scrolled.mockRestore();
  });
});
