import { describe, expect, it } from "vitest";
import { countOf, formatNumber } from "../src/numbers.js";

const intl = new Intl.NumberFormat("en-GB");

describe("formatNumber", () => {
  it("groups whole numbers in threes, as en-GB does", () => {
    expect(formatNumber(0)).toBe("0");
    expect(formatNumber(999)).toBe("999");
    expect(formatNumber(1000)).toBe("1,000");
    expect(formatNumber(10_000)).toBe("10,000");
    expect(formatNumber(1_234_567)).toBe("1,234,567");
    expect(formatNumber(-52_310)).toBe("-52,310");
  });

  it("shows tenths, as the impact line's millions are", () => {
    expect(formatNumber(38.2)).toBe("38.2");
    expect(formatNumber(1204.5)).toBe("1,204.5");
    expect(formatNumber(3)).toBe("3");
  });

  it("gives Intl's text for whole numbers of every size and for tenths", () => {
    const values: number[] = [];
    for (let digits = 1; digits <= 16; digits += 1) {
      const top = 10 ** digits;
      values.push(top - 1, top, top + 1, Math.floor(top / 3), -Math.floor(top / 7));
    }
    // A fixed spread of tenths and whole numbers (no randomness: the same values every run).
    for (let i = 0; i < 2000; i += 1)
      values.push(Math.floor((i * 7919 * 104_729) % 50_000_000) / 10, i * 123_457);
    for (const value of values) expect(formatNumber(value), String(value)).toBe(intl.format(value));
  });

  it("leaves what is not a finite number as JavaScript writes it", () => {
    expect(formatNumber(Number.NaN)).toBe("NaN");
    expect(formatNumber(Number.POSITIVE_INFINITY)).toBe("Infinity");
  });
});

describe("countOf", () => {
  it("gives a count its noun, singular for exactly one", () => {
    expect(countOf(1, "ticket")).toBe("1 ticket");
    expect(countOf(0, "ticket")).toBe("0 tickets");
    expect(countOf(12_000, "step")).toBe("12,000 steps");
    expect(countOf(2, "entry", "entries")).toBe("2 entries");
  });
});
