import {
  CHALLENGE_DAILY_TARGET_MAX,
  CHALLENGE_DESCRIPTION_MAX,
  CHALLENGE_MAX_DAYS,
  CHALLENGE_MESSAGES,
  CHALLENGE_NAME_MAX,
  CHALLENGE_STEPS_TARGET_MAX,
} from "@charity-steps/shared-types";
import { fireEvent, render, screen } from "@testing-library/react";
import { describe, expect, it, vi } from "vitest";
import { ChallengeForm, NAME_NEEDED } from "../../src/components/challenge-form";

function renderForm() {
  const onSubmit = vi.fn(async () => {});
  const view = render(
    <ChallengeForm kinds={["total_steps", "daily_target"]} submitLabel="Set Challenge" onSubmit={onSubmit} />,
  );
  const form = screen.getByRole("button", { name: "Set Challenge" }).closest("form") as HTMLFormElement;
  const field = (name: string) => form.elements.namedItem(name) as HTMLInputElement;
  return { ...view, onSubmit, form, field };
}

describe("the challenge form", () => {
  it("says a name of spaces only and an end before the start in its own words, and sends nothing", () => {
    const { onSubmit, form, field } = renderForm();
    fireEvent.change(field("name"), { target: { value: "   " } });
    fireEvent.submit(form);
    expect(screen.getByText(NAME_NEEDED)).toBeTruthy();

    fireEvent.change(field("name"), { target: { value: "Canal miles" } });
    fireEvent.change(field("startsOn"), { target: { value: "2030-06-10" } });
    fireEvent.change(field("endsOn"), { target: { value: "2030-06-01" } });
    fireEvent.submit(form);
    expect(screen.getByText(CHALLENGE_MESSAGES.endsBeforeStart)).toBeTruthy();
    expect(onSubmit).not.toHaveBeenCalled();
  });

  it("says a name or description past its limit before sending, where the browser would have cut it", () => {
    const { onSubmit, form, field } = renderForm();
    fireEvent.change(field("name"), { target: { value: "n".repeat(CHALLENGE_NAME_MAX + 2) } });
    expect(screen.getByText("2 characters too many")).toBeTruthy();
    fireEvent.submit(form);
    expect(screen.getByRole("alert").textContent).toBe(
      `The name must be at most ${CHALLENGE_NAME_MAX} characters.`,
    );

    fireEvent.change(field("name"), { target: { value: "Canal miles" } });
    fireEvent.change(field("description"), { target: { value: "d".repeat(CHALLENGE_DESCRIPTION_MAX + 1) } });
    fireEvent.submit(form);
    expect(screen.getByRole("alert").textContent).toBe(
      `The description must be at most ${CHALLENGE_DESCRIPTION_MAX.toLocaleString("en-GB")} characters.`,
    );
    expect(onSubmit).not.toHaveBeenCalled();
  });

  it("bounds each target as the server does, so the browser says so before sending", () => {
    const { field } = renderForm();
    expect(field("target").max).toBe(String(CHALLENGE_STEPS_TARGET_MAX));
    fireEvent.change(screen.getByRole("combobox", { name: "Kind" }), { target: { value: "daily_target" } });
    expect(field("dailyTarget").max).toBe(String(CHALLENGE_DAILY_TARGET_MAX));
    // A target in days: at most the days a challenge may last.
    expect(field("target").max).toBe(String(CHALLENGE_MAX_DAYS));
  });
});
