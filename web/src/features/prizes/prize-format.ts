import type { MyPrize } from "@charity-steps/shared-types";

const DAY_MS = 86_400_000;

/** "13 days left", "1 day left", "less than a day left": whole days until `iso`. */
export function daysLeftText(iso: string, now: number = Date.now()): string {
  const days = Math.floor((new Date(iso).getTime() - now) / DAY_MS);
  if (days < 1) return "less than a day left";
  return days === 1 ? "1 day left" : `${days} days left`;
}

/** The word a prize's status is shown with, so that it never rests on colour alone. */
export const PRIZE_STATUS_LABEL: Record<MyPrize["status"], string> = {
  awaiting_claim: "Awaiting your claim",
  claimed: "Claimed",
  expired: "Expired",
  redrawn: "Redrawn",
};

/** A prize's claim form in the app (`paths.prizeClaim`). */
export { prizeClaimPagePath } from "@charity-steps/shared-types";
