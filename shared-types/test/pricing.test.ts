import { describe, expect, it } from "vitest";
import { FUTURE_MONTHLY_PRICE_PENCE, formatPounds, splitRevenue } from "../src/pricing.js";

describe("the 50/30/20 revenue split", () => {
  it("gives the product copy's £2.99 / £1.80 / £1.20 for £5.99", () => {
    expect(splitRevenue(FUTURE_MONTHLY_PRICE_PENCE)).toEqual({ charity: 299, prizes: 180, operating: 120 });
  });

  it("always adds up to the whole sum in whole pence", () => {
    for (const total of [0, 1, 2, 3, 99, 100, 101, 599, 12_345, 1_000_003]) {
      const split = splitRevenue(total);
      expect(split.charity + split.prizes + split.operating).toBe(total);
      for (const pence of Object.values(split)) expect(Number.isInteger(pence)).toBe(true);
    }
  });

  it("formats pence as pounds with two decimals", () => {
    expect(formatPounds(599)).toBe("£5.99");
    expect(formatPounds(0)).toBe("£0.00");
  });
});
