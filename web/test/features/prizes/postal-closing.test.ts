import { describe, expect, it } from "vitest";
import { postalClosingText } from "../../../src/features/prizes/prize-draw-page";

describe("when postal entries must arrive", () => {
  it("names next month's date once this month's has passed", () => {
    const closes = "2026-11-25T23:59:59.000Z";
    expect(postalClosingText(closes, Date.parse("2026-11-25T23:00:00Z"))).toBe(
      "Free postal entries for this month's draw must arrive by 25 November 2026.",
    );
    expect(postalClosingText(closes, Date.parse("2026-11-26T10:00:00Z"))).toBe(
      "Postal entries for this month's draw closed on 25 November 2026. One sent now enters December 2026's draw, and must arrive by 25 December 2026.",
    );
  });
});
