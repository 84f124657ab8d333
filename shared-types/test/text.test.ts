import { describe, expect, it, vi } from "vitest";
import {
  characterCount,
  firstCharacter,
  isEmailAddress,
  isolated,
  isPlainText,
  sentenceCase,
  trimInvisible,
} from "../src/text.js";

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

  it("refuses the bidirectional overrides and isolates, and keeps right-to-left names and joiners", () => {
    for (const control of [
      "\u202A",
      "\u202B",
      "\u202C",
      "\u202D",
      "\u202E",
      "\u2066",
      "\u2067",
      "\u2068",
      "\u2069",
    ]) {
      expect(isPlainText(`${control}Admin`), control).toBe(false);
      expect(isPlainText(`${control}Admin`, { lineBreaks: true }), control).toBe(false);
    }
    expect(isPlainText("محمد")).toBe(true);
    expect(isPlainText("\u{1F469}\u200D\u{1F467} walkers")).toBe(true);
    expect(isPlainText("می\u200Cخواهم")).toBe(true);
  });
});

describe("isPlainText and isEmailAddress", () => {
  it("takes a whole emoji and refuses half of one", () => {
    expect(isPlainText("Walkers \u{1F6B6}")).toBe(true);
    expect(isPlainText("Walkers \uD83D")).toBe(false);
    expect(isPlainText("\uDEB6 walkers", { lineBreaks: true })).toBe(false);
  });

  it("takes an address and refuses spaces, a second @ and invisible characters inside one", () => {
    expect(isEmailAddress("ada.walker+steps@example.org")).toBe(true);
    expect(isEmailAddress("zoë@bücher.example")).toBe(true);
    for (const address of [
      "no at sign",
      "a@b",
      "a@@b.org",
      "a b@c.org",
      "ada@exa\u200Bmple.org",
      "\u200Fada@example.org",
      "ad\u00ADa@example.org",
      "ada@exa\u3164mple.org",
    ]) {
      expect(isEmailAddress(address), JSON.stringify(address)).toBe(false);
    }
    expect(isEmailAddress(`${"a".repeat(243)}@example.org`)).toBe(false);
  });
});

describe("trimInvisible", () => {
  it("takes spaces and characters that show nothing off the ends, and nothing from the middle", () => {
    expect(trimInvisible("\u200B")).toBe("");
    expect(trimInvisible(" \u200B\u2060 Ada \u200D")).toBe("Ada");
    expect(trimInvisible("می\u200Cخواهم")).toBe("می\u200Cخواهم");
    expect(trimInvisible("  Night walkers ")).toBe("Night walkers");
    // Spaces inside are kept, however many (a pattern that backtracked at each was slow here).
    const spaced = `a${" ".repeat(40_000)}a`;
    expect(trimInvisible(` ${spaced} `)).toBe(spaced);
    expect(trimInvisible("")).toBe("");
  });

  it("counts marks, fillers and a soft hyphen as nothing: a name of them alone is empty", () => {
    for (const blank of [
      "\u200E",
      "\u200F\u200E",
      "\u061C",
      "\u00AD",
      "\u3164",
      "\u115F\u1160",
      "\uFFA0",
      "\u180E",
    ]) {
      expect(trimInvisible(` ${blank} `), JSON.stringify(blank)).toBe("");
    }
    // A right-to-left mark inside a name keeps its place.
    expect(trimInvisible("\u200Fשרה\u200F כהן\u200F")).toBe("שרה\u200F כהן");
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

describe("firstCharacter, in a browser without Intl.Segmenter", () => {
  it("still takes a whole emoji, never half of one", async () => {
    vi.resetModules();
    vi.stubGlobal("Intl", { ...Intl, Segmenter: undefined });
    try {
      const { firstCharacter: withoutSegmenter } = await import("../src/text.js");
      expect(withoutSegmenter("\u{1F600}Sam")).toBe("\u{1F600}");
      expect(withoutSegmenter("  Zoë")).toBe("Z");
      expect(withoutSegmenter("")).toBe("");
    } finally {
      vi.unstubAllGlobals();
    }
  });
});

describe("sentenceCase", () => {
  it("begins a sentence with a capital, whatever its first character", () => {
    expect(sentenceCase("the weekly summary")).toBe("The weekly summary");
    expect(sentenceCase("\u00E9mile's steps")).toBe("\u00C9mile's steps");
    expect(sentenceCase("\u{1F6B6} walks")).toBe("\u{1F6B6} walks");
    expect(sentenceCase("")).toBe("");
  });
});

describe("isolated", () => {
  it("sets a typed name apart from its sentence, so the sentence keeps its own direction", () => {
    const line = `${isolated("سارة")} joined ${isolated("Canal Walkers")}.`;
    expect(line).toBe("\u2068سارة\u2069 joined \u2068Canal Walkers\u2069.");
    // A reader that takes a text's direction from its first strong letter skips what is isolated,
    // as Unicode's bidirectional algorithm says (rule P2): here it finds the "j" of "joined".
    const firstStrongOutsideIsolates = line.replace(/\u2068[^\u2069]*\u2069/g, "").match(/\p{L}/u)?.[0];
    expect(firstStrongOutsideIsolates).toBe("j");
  });

  it("cannot be undone by the name, which may hold none of the marks it uses", () => {
    expect(isPlainText("\u2069 joined")).toBe(false);
    expect(isPlainText(isolated("Sam"))).toBe(false);
  });
});
