/** The future app-store plan shown in the beta copy. */
export const FUTURE_MONTHLY_PRICE_PENCE = 599;
export const FREE_TRIAL_DAYS = 7;
/** Postal free entries must arrive by this day of the month to count in that month's draw. */
export const POSTAL_ENTRY_DEADLINE_DAY = 25;

export const REVENUE_SHARES = [
  { share: "charity", percent: 50 },
  { share: "prizes", percent: 30 },
  { share: "operating", percent: 20 },
] as const;
export type RevenueShareName = (typeof REVENUE_SHARES)[number]["share"];

/**
 * Splits a sum in pence 50/30/20 in whole pence that add up to the sum (largest remainder):
 * £5.99 gives £2.99 / £1.80 / £1.20, the figures the product copy states.
 */
export function splitRevenue(totalPence: number): Record<RevenueShareName, number> {
  const exact = REVENUE_SHARES.map(({ share, percent }) => ({ share, value: (totalPence * percent) / 100 }));
  const parts = exact.map(({ share, value }) => ({ share, pence: Math.floor(value), remainder: value % 1 }));
  let left = totalPence - parts.reduce((sum, part) => sum + part.pence, 0);
  for (const part of [...parts].sort((a, b) => b.remainder - a.remainder)) {
    if (left <= 0) break;
    part.pence += 1;
    left -= 1;
  }
  return Object.fromEntries(parts.map(({ share, pence }) => [share, pence])) as Record<
    RevenueShareName,
    number
  >;
}

export function formatPounds(pence: number): string {
  return `£${(pence / 100).toFixed(2)}`;
}
