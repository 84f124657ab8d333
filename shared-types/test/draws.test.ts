import { describe, expect, it } from "vitest";
import { repeatsTierName, unawardedPrizes } from "../src/draws.js";

describe("a draw's tiers", () => {
  it("counts the prizes no one won, a redraw being the same prize again", () => {
    const tiers = [
      { name: "Gold", prizes: 1, description: "" },
      { name: "Silver", prizes: 3, description: "" },
    ];
    const winners = [
      { tier: "Gold", ticket: "t-1", holder: "h1", pick: 0 },
      { tier: "Silver", ticket: "t-2", holder: "h2", pick: 1 },
      { tier: "Silver", ticket: "t-3", holder: "h3", pick: 2, replaces: 1 },
    ];
    expect(unawardedPrizes({ tiers, winners })).toEqual([{ tier: "Silver", count: 2 }]);
    expect(unawardedPrizes({ tiers })).toEqual([
      { tier: "Gold", count: 1 },
      { tier: "Silver", count: 3 },
    ]);
  });

  it("takes names that differ only in case or spaces round them for one name", () => {
    expect(repeatsTierName(["Gold", "Silver"])).toBe(false);
    expect(repeatsTierName(["Gold", " gold\u200B"])).toBe(true);
  });
});
