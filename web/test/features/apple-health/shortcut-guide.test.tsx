import { render, screen, within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { describe, expect, it } from "vitest";
import { ShortcutGuide } from "../../../src/features/apple-health/shortcut-guide";

const IMPORT_URL = "https://steps.example.org/api/health/apple-health";

describe("the Shortcuts guide", () => {
  it("shows the web address and the key to paste, each with a Copy button", async () => {
    const user = userEvent.setup();
    render(<ShortcutGuide importUrl={IMPORT_URL} stepKey="csk_abc123def456" />);
    expect(screen.getByTestId("guide-url").textContent).toBe(IMPORT_URL);
    expect(screen.getByTestId("guide-authorization").textContent).toBe("Bearer csk_abc123def456");

    await user.click(screen.getByRole("button", { name: "Copy the web address" }));
    expect(await navigator.clipboard.readText()).toBe(IMPORT_URL);
    await user.click(screen.getByRole("button", { name: "Copy the Authorization value" }));
    expect(await navigator.clipboard.readText()).toBe("Bearer csk_abc123def456");
  });

  it("without a key, says to create one and shows where it goes", () => {
    render(<ShortcutGuide importUrl={IMPORT_URL} />);
    expect(screen.getByTestId("guide-authorization").textContent).toContain("Bearer <your key>");
    expect(screen.queryByRole("button", { name: "Copy the Authorization value" })).toBeNull();
  });

  it("tells a walker whose key was refused to create a new one: a key is shown only once", () => {
    render(<ShortcutGuide importUrl={IMPORT_URL} />);
    const guide = document.body.textContent ?? "";
    expect(guide).toContain(
      'An answer that begins "This step-import key is not valid" means the key was removed, or the Authorization value was not pasted whole: create a new key on your Account page and paste it in place of the old one.',
    );
    expect(guide).not.toMatch(/copy it again/i);
  });

  it("takes the walker through the actions and automations in order, each with a picture", () => {
    render(<ShortcutGuide importUrl={IMPORT_URL} stepKey="csk_abc123def456" />);
    const steps = screen.getAllByTestId("guide-step");
    expect(steps).toHaveLength(7);
    const order = [
      "Find Health Samples",
      "Calculate Statistics",
      "Get Contents of URL",
      "Time of Day",
      "Charger",
    ];
    const stepOf = (name: string) => steps.findIndex((step) => step.textContent?.includes(name));
    const positions = order.map(stepOf);
    expect(positions.every((at) => at >= 0)).toBe(true);
    expect([...positions].sort((a, b) => a - b)).toEqual(positions);

    // Every step has a drawing with a text alternative naming what it shows.
    for (const step of steps) {
      const picture = within(step).getByRole("img");
      expect(picture.getAttribute("aria-label")?.length).toBeGreaterThan(20);
    }
    expect(
      screen.getByRole("img", { name: /Find Health Samples where Type is Steps and Start Date is today/ }),
    ).toBeTruthy();
    expect(screen.getByRole("img", { name: /Calculate Sum of Health Samples/ })).toBeTruthy();
    expect(
      screen.getByRole("img", { name: new RegExp(`Get contents of ${IMPORT_URL}; Method POST`) }),
    ).toBeTruthy();
    expect(screen.getByRole("img", { name: /Charger Is Connected, Run Immediately/ })).toBeTruthy();
  });

  it("names the POST method, the Authorization header and the steps field of the JSON body", () => {
    render(<ShortcutGuide importUrl={IMPORT_URL} stepKey="csk_abc123def456" />);
    const send = screen.getAllByTestId("guide-step")[3] as HTMLElement;
    expect(send.textContent).toContain("POST");
    expect(send.textContent).toContain("Authorization");
    expect(send.textContent).toContain("JSON");
    expect(within(send).getAllByText("steps").length).toBeGreaterThan(0);
  });
});
