import { render, screen } from "@testing-library/react";
import { describe, expect, it } from "vitest";
import { CharacterCount, tooLongMessage } from "../../src/components/character-count";

describe("CharacterCount", () => {
  it("says what is left as a person reads a number, one character singular", () => {
    const { rerender } = render(<CharacterCount id="count" label="The description" text="" max={1_000} />);
    expect(screen.getByText("1,000 characters left")).toBeTruthy();
    rerender(<CharacterCount id="count" label="The description" text={"a".repeat(999)} max={1_000} />);
    expect(screen.getByText("1 character left")).toBeTruthy();
    rerender(<CharacterCount id="count" label="The description" text={"a".repeat(1_001)} max={1_000} />);
    expect(screen.getByText("1 character too many")).toBeTruthy();
    expect(screen.getByRole("status").textContent).toBe("The description is 1 character too long.");
  });

  it("words the refusal with the same number", () => {
    expect(tooLongMessage("The description", 1_000)).toBe(
      "The description must be at most 1,000 characters.",
    );
  });
});
