import { FUTURE_MONTHLY_PRICE_PENCE, REVENUE_SHARES, splitRevenue } from "@charity-steps/shared-types";

const SHARE_LABELS = {
  charity: "to your chosen charity",
  prizes: "to the monthly prize pool",
  operating: "to running Charity Steps",
} as const;

const pence = splitRevenue(FUTURE_MONTHLY_PRICE_PENCE);

/** How each future monthly payment is divided, as the landing and terms pages word it. */
export const REVENUE_SPLIT = REVENUE_SHARES.map(({ share, percent }) => ({
  share,
  percent,
  pence: pence[share],
  label: SHARE_LABELS[share],
}));
