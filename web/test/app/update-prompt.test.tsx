import { render, screen, within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { describe, expect, it, vi } from "vitest";
import { UpdatePrompt } from "../../src/app/update-prompt";
import { useServiceWorkerUpdate } from "../../src/lib/service-worker";

vi.mock("../../src/lib/service-worker", () => ({ useServiceWorkerUpdate: vi.fn() }));

// The prompt in a real browser, shown by a real new service worker and checked with axe, is in
// e2e/tests/accessibility-update-prompt.test.ts; this is what it says and does.
describe("the new-version prompt", () => {
  it("is a status naming the new version, with Reload and a named Dismiss button", async () => {
    const update = { updateAvailable: true, reload: vi.fn(async () => {}), dismiss: vi.fn() };
    vi.mocked(useServiceWorkerUpdate).mockReturnValue(update);
    const user = userEvent.setup();
    render(<UpdatePrompt />);
    const prompt = screen.getByRole("status");
    expect(prompt.textContent).toContain("A new version of Charity Steps is available.");
    await user.click(within(prompt).getByRole("button", { name: "Reload" }));
    expect(update.reload).toHaveBeenCalledOnce();
    await user.click(within(prompt).getByRole("button", { name: "Dismiss" }));
    expect(update.dismiss).toHaveBeenCalledOnce();
  });

  it("shows nothing while no new version waits", () => {
    vi.mocked(useServiceWorkerUpdate).mockReturnValue({
      updateAvailable: false,
      reload: vi.fn(async () => {}),
      dismiss: vi.fn(),
    });
    render(<UpdatePrompt />);
    expect(screen.queryByRole("status")).toBeNull();
  });
});
