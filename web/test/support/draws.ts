import {
  DEFAULT_DRAW_TIERS,
  type DrawResults,
  drawClosesAt,
  drawPostalClosesAt,
  type OperatorDraw,
} from "@charity-steps/shared-types";

/** `month`'s public draw record: open, with the default tiers and its real closing times. */
export function drawResults(month: string, overrides: Partial<DrawResults> = {}): DrawResults {
  return {
    month,
    status: "open",
    commitment: "c".repeat(64),
    closesAt: drawClosesAt(month).toISOString(),
    postalClosesAt: drawPostalClosesAt(month).toISOString(),
    tiers: DEFAULT_DRAW_TIERS.map((tier) => ({ ...tier })),
    ...overrides,
  };
}

/** `month`'s draw as operators see it while it is open: no tickets counted, tiers still editable. */
export function openOperatorDraw(month: string, overrides: Partial<DrawResults> = {}): OperatorDraw {
  return {
    results: drawResults(month, overrides),
    walkerTickets: null,
    postalTickets: null,
    tiersEditable: true,
    prizes: [],
  };
}
