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
    const outlivesThePage: boolean[] = [];
    server.use(
      signedInAs(testWalker),
      http.put(ACCOUNT_PREFERENCES_PATH, async ({ request }) => {
        const change = (await request.json()) as PreferencesUpdate;
        sent.push(change);
        outlivesThePage.push(request.keepalive);
        return HttpResponse.json({
          dailyGoal: 10_000,
          theme: change.theme ?? "system",
          onboardedAt: null,
          weeklyEmail: true,
        });
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
    // A reload right after the choice does not cancel its saving.
    expect(outlivesThePage).toEqual([true, true]);
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

describe("Weekly email on the Account page", () => {
  it("turns Monday's email off and on, and says it waits for a confirmed email", async () => {
    const sent: PreferencesUpdate[] = [];
    let weeklyEmail = true;
    server.use(
      signedInAs({ ...testWalker, emailVerified: false }),
      http.get(ACCOUNT_PREFERENCES_PATH, () =>
        HttpResponse.json({ dailyGoal: 10_000, theme: "system", onboardedAt: null, weeklyEmail }),
      ),
      http.put(ACCOUNT_PREFERENCES_PATH, async ({ request }) => {
        const change = (await request.json()) as PreferencesUpdate;
        sent.push(change);
        weeklyEmail = change.weeklyEmail ?? weeklyEmail;
        return HttpResponse.json({ dailyGoal: 10_000, theme: "system", onboardedAt: null, weeklyEmail });
      }),
    );
    const user = userEvent.setup();
    renderApp("/account");
    const box = (await screen.findByRole("checkbox", {
      name: /Email me a look back on my week, once it ends/,
    })) as HTMLInputElement;
    await waitFor(() => expect(box.disabled).toBe(false));
    expect(box.checked).toBe(true);
    expect(screen.getByTestId("weekly-email-unconfirmed").textContent).toBe(
      "It is sent once your email is confirmed.",
    );
    await user.click(box);
    await waitFor(() => expect(sent).toEqual([{ weeklyEmail: false }]));
    await waitFor(() => expect(box.checked).toBe(false));
    await user.click(box);
    await waitFor(() => expect(sent).toEqual([{ weeklyEmail: false }, { weeklyEmail: true }]));
    await waitFor(() => expect(box.checked).toBe(true));
  });
});
