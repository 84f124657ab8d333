import { describe, expect, it } from "vitest";
import { characterCount, isPlainText } from "../src/text.js";

describe("characterCount", () => {
  it("counts characters as the server's schemas do, an emoji as one", () => {
    expect(characterCount("")).toBe(0);
    expect(characterCount("Canal miles")).toBe(11);
    // Each walking figure is two UTF-16 units, which a browser's maxLength would count.
    expect("\u{1F6B6}\u{1F6B6}".length).toBe(4);
    expect(characterCount("\u{1F6B6}\u{1F6B6}")).toBe(2);
    expect(characterCount("Zoë")).toBe(3);
  });
});

describe("isPlainText", () => {
  it("refuses control characters, and line breaks only where they belong", () => {
    expect(isPlainText("Night walkers")).toBe(true);
    expect(isPlainText("Night\u0000walkers")).toBe(false);
    expect(isPlainText("Dusk\nto dawn")).toBe(false);
    expect(isPlainText("Dusk\nto dawn", { lineBreaks: true })).toBe(true);
    expect(isPlainText("Dusk\u001bto dawn", { lineBreaks: true })).toBe(false);
  });
});
