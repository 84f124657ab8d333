import {
  type DashboardStatsResponse,
  type EntryStatus,
  MANUAL_ENTRIES_PATH,
  PACE_REVIEWS_PATH,
  type ReviewReason,
} from "@charity-steps/shared-types";

/** The walker's manual entries with where each stands; refreshed after each entry is added. */
export const MANUAL_ENTRIES_KEY = [MANUAL_ENTRIES_PATH] as const;
/** The walker's counts held for their pace, with where each stands. */
export const PACE_REVIEWS_KEY = [PACE_REVIEWS_PATH] as const;

const numberFormat = new Intl.NumberFormat("en-GB");
const dayFormat = new Intl.DateTimeFormat("en-GB", {
  weekday: "short",
  day: "numeric",
  month: "short",
  year: "numeric",
  timeZone: "UTC",
});

/** A calendar day (YYYY-MM-DD) as a person reads it: "Sat, 21 Nov 2026". */
export function formatDay(date: string): string {
  return dayFormat.format(new Date(`${date}T00:00:00Z`));
}

const shortDayFormat = new Intl.DateTimeFormat("en-GB", {
  weekday: "short",
  day: "numeric",
  month: "short",
  timeZone: "UTC",
});

/** A calendar day in few letters, where many stand side by side: "Sat 21 Nov". */
export function formatShortDay(date: string): string {
  return shortDayFormat.format(new Date(`${date}T00:00:00Z`)).replace(",", "");
}

/** "12,000 steps waiting for a quick check": why prize entries lag behind the steps shown. */
export function waitingStepsText(pendingSteps: number): string {
  return `${numberFormat.format(pendingSteps)} ${pendingSteps === 1 ? "step" : "steps"} waiting for a quick check`;
}

/**
 * The month's steps that count for prize entries, live: the steps shown (the server's and this
 * phone's unsynced ones, which are counted by motion and so eligible) less those the server holds
 * back (waiting for a check, or turned down).
 */
export function liveEligibleSteps(
  stats: Pick<DashboardStatsResponse, "monthlySteps" | "eligibleMonthSteps"> | null | undefined,
  monthSteps: number,
): number {
  if (!stats) return monthSteps;
  const heldBack = Math.max(0, stats.monthlySteps - stats.eligibleMonthSteps);
  return Math.max(0, monthSteps - heldBack);
}

/** Where an entry stands, in words (never by a colour alone), with the reasons behind it. */
export function entryStatusWords(entry: {
  status: EntryStatus;
  reasons: ReviewReason[];
  decisionReason: string | null;
}): { label: string; details: string[] } {
  switch (entry.status) {
    case "approved":
      return { label: "Counted", details: [] };
    case "pending":
      return { label: "Waiting for a quick check", details: entry.reasons.map((reason) => reason.message) };
    case "rejected":
      return {
        label: entry.decisionReason
          ? `Not counted for prizes: ${entry.decisionReason}`
          : "Not counted for prizes",
        details: [],
      };
  }
}

/**
 * Where steps held for their pace stand, in words. Counted and not counted read as for a manual
 * entry; waiting says what happened and that the steps still count once checked, never a charge.
 */
export function paceHoldStatusWords(hold: Parameters<typeof entryStatusWords>[0]): string {
  if (hold.status === "pending") {
    return "Counted a little faster than walking pace: these steps count toward prize entries once checked";
  }
  return entryStatusWords(hold).label;
}
