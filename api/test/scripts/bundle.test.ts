import { readFileSync } from "node:fs";
import { describe, expect, inject, it } from "vitest";
import { latin1Source } from "../../scripts/bundle.mjs";

/** The characters of `text` past Latin-1: any one of them doubles the memory V8 holds the text in. */
const pastLatin1 = (text: string) => [...text].filter((character) => character.charCodeAt(0) > 0xff);

describe("the server's bundle", () => {
  it("writes each character past Latin-1 as its escape, and the code means the same", () => {
    const source = [
      "/** 2^(𝑊−1) points, for a window of 𝑊 bits */",
      "const email = /^[a-z’]+@example\\.org$/;",
      "const greeting = 'Well walked, Zoë — 10,000 steps';",
      "const apostrophe = /\\\\’/;",
      "globalThis.answers = [email.test('o’neil@example.org'), email.test('o-neil@example.org'), greeting, apostrophe.test('\\\\’')];",
    ].join("\n");
    const written = latin1Source(source, "test.js");

    expect(pastLatin1(written)).toEqual([]);
    // "ë" is Latin-1 and stays as it is; "’", "−", "—" and the surrogate halves of "𝑊" are escaped.
    expect(written).toContain("Zo\u00eb");
    expect(written).toContain("/^[a-z\\u2019]+@example\\.org$/");
    expect(written).toContain("2^(\\ud835\\udc4a\\u22121)");
    const run = (code: string) => {
      new Function(code)();
      return (globalThis as { answers?: unknown[] }).answers;
    };
    expect(run(written)).toEqual(run(source));
    expect(run(written)).toEqual([true, false, "Well walked, Zoë — 10,000 steps", true]);
  });

  it("stops the build at a character past Latin-1 escaped by a backslash, which an escape would change", () => {
    expect(() => latin1Source("const pattern = /\\’/;", "server.js")).toThrow(
      "server.js: an escaped character past Latin-1 at offset 18, which an escape would change",
    );
  });

  it("holds no character past Latin-1, so V8 keeps its text at one byte a character", () => {
    // Built once for the run by the global setup, as `pnpm build` builds dist/server.js.
    const bundle = inject("serverBundle");
    if (!bundle) throw new Error("This run bundled no server (API_TEST_PROCESSES=none)");
    const text = readFileSync(bundle.server, "utf8");
    expect(text.length).toBeGreaterThan(1_000_000);
    expect(pastLatin1(text)).toEqual([]);
  });
});
