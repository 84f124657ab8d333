import { describe, expect, it } from "vitest";
import { characterCount, firstCharacter, isPlainText } from "../src/text.js";

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

describe("firstCharacter", () => {
  it("takes the first character as a reader sees it, never half of one", () => {
    expect(firstCharacter("Zoë")).toBe("Z");
    expect(firstCharacter("\u{1F600}Sam")).toBe("\u{1F600}");
    // A family is one character of four people joined; a flag is two letters that make one.
    expect(firstCharacter("\u{1F469}\u200D\u{1F469}\u200D\u{1F467} Family")).toBe(
      "\u{1F469}\u200D\u{1F469}\u200D\u{1F467}",
    );
    expect(firstCharacter("\u{1F1EC}\u{1F1E7} walkers")).toBe("\u{1F1EC}\u{1F1E7}");
    expect(firstCharacter("E\u0301lodie")).toBe("E\u0301");
    expect(firstCharacter("  ana")).toBe("a");
    expect(firstCharacter("")).toBe("");
    expect(firstCharacter("   ")).toBe("");
  });
});
