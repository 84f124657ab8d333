import {
  type EntryStatus,
  MANUAL_ENTRIES_PATH,
  PACE_REVIEWS_PATH,
  type ReviewReason,
} from "@charity-steps/shared-types";

/** The walker's manual entries with where each stands; refreshed after each entry is added. */
export const MANUAL_ENTRIES_KEY = [MANUAL_ENTRIES_PATH] as const;
/** The walker's counts held for their pace, with where each stands. */
export const PACE_REVIEWS_KEY = [PACE_REVIEWS_PATH] as const;

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
