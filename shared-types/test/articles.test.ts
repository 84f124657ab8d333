import { describe, expect, it } from "vitest";
import { articleFor } from "../src/articles.js";
import { formatNumber } from "../src/numbers.js";

describe("articleFor", () => {
  it("says an before the numbers read with a vowel first, and a before the others", () => {
    const an = [8, 11, 18, 80, 81, 89, 800, 888, 8_000, 11_000, 18_500, 80_000, 800_000, 8_000_000];
    const a = [1, 2, 7, 9, 10, 12, 17, 19, 20, 71, 100, 110, 180, 1_000, 1_100, 1_800, 12_000, 100_000];
    expect(an.map((count) => `${articleFor(count)} ${formatNumber(count)}`)).toEqual(
      an.map((count) => `an ${formatNumber(count)}`),
    );
    expect(a.map((count) => `${articleFor(count)} ${formatNumber(count)}`)).toEqual(
      a.map((count) => `a ${formatNumber(count)}`),
    );
  });

  it("says an before the words read with a vowel first, and a before the others", () => {
    // Prize tiers are named by operators: any word may come.
    const an = ["Eco", "Electric bike", "Ultimate", "Hour-long walk", "honest", "MBE", "NHS", "Overall"];
    const a = ["Platinum", "Gold", "Silver", "Bronze", "Unicorn", "European", "one-off", "USB", "Yellow"];
    expect(an.map((word) => `${articleFor(word)} ${word}`)).toEqual(an.map((word) => `an ${word}`));
    expect(a.map((word) => `${articleFor(word)} ${word}`)).toEqual(a.map((word) => `a ${word}`));
  });

  it("reads a short word in capitals as an acronym, and a longer one as the word", () => {
    const an = ["NHS", "MBE", "ECO", "ELECTRIC BIKE", "HOUR-LONG WALK", "ULTIMATE"];
    const a = ["USB", "SILVER", "GOLD", "PLATINUM", "STAR", "BRONZE"];
    expect(an.map((word) => `${articleFor(word)} ${word}`)).toEqual(an.map((word) => `an ${word}`));
    expect(a.map((word) => `${articleFor(word)} ${word}`)).toEqual(a.map((word) => `a ${word}`));
  });

  it("reads a word from its first letter, not from spaces before it, and an empty one as a", () => {
    expect([" Eco", "  Gold ", "", "   "].map(articleFor)).toEqual(["an", "a", "a", "a"]);
  });

  it("answers for a number that is not finite, as formatNumber does", () => {
    expect([Infinity, -Infinity, Number.NaN].map(articleFor)).toEqual(["a", "a", "a"]);
  });
});
