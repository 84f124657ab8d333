/**
 * The future app-store plan shown in the beta copy (DESIGN §6: only the £5.99 reading). These figures
 * belong in shared-types beside the other business numbers and will move there.
 */
export const FUTURE_MONTHLY_PRICE_PENCE = 599;
export const FREE_TRIAL_DAYS = 7;

export const REVENUE_SPLIT = [
  { share: "charity", label: "to your chosen charity", percent: 50, pence: 299 },
  { share: "prizes", label: "to the monthly prize pool", percent: 30, pence: 180 },
  { share: "operating", label: "to running Charity Steps", percent: 20, pence: 120 },
] as const;

/** Postal free entries must arrive by this day of the month to count in that month's draw. */
export const POSTAL_ENTRY_DEADLINE_DAY = 25;

export function formatPounds(pence: number): string {
  return `£${(pence / 100).toFixed(2)}`;
}
