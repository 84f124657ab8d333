import { type Static, Type } from "typebox";
import { SingleLineText } from "./text.js";

/**
 * Fair play: prize entries count only steps someone can stand behind. Every step still shows on the
 * dashboard, the history and the leaderboards; what waits for a check (or was turned down) is left
 * out of the month's eligible steps, which the prize entries and the draw are counted from.
 */

/** A walker's manual steps in one day beyond which a new manual entry waits for a check. */
export const MANUAL_REVIEW_DAY_STEPS = 20_000;
/** A walker's manual steps in one month beyond which a new manual entry waits for a check. */
export const MANUAL_REVIEW_MONTH_STEPS = 100_000;
/**
 * The fastest a device or health counter is believed to rise, in steps a minute of server time: a
 * brisk run is under 200. Steps above this pace wait for an operator before they count for prizes.
 */
export const PACE_STEPS_PER_MINUTE_MAX = 250;
/**
 * Two proof photos whose 64-bit perceptual hashes differ in at most this many bits are taken for the
 * same picture: a re-encoded, resized or slightly cropped copy stays well within it, while different
 * pictures differ in about half their bits.
 */
export const PHOTO_HASH_MAX_DISTANCE = 10;

/** Where a manual entry stands: counted for prizes, waiting for a check, or turned down. */
export const ENTRY_STATUSES = ["approved", "pending", "rejected"] as const;
export type EntryStatus = (typeof ENTRY_STATUSES)[number];

/** Why steps wait for a check. */
export const REVIEW_REASONS = [
  "similar-photo",
  "capture-date-missing",
  "capture-date-other-day",
  "manual-day-over",
  "manual-month-over",
  "pace",
] as const;
export type ReviewReasonCode = (typeof REVIEW_REASONS)[number];

/** What the walker and the operator read for each reason: a fact about the entry, never a charge. */
export const REVIEW_REASON_MESSAGES: Record<ReviewReasonCode, string> = {
  "similar-photo": "The photo looks the same as a photo sent with an earlier entry.",
  "capture-date-missing": "The photo does not say when it was taken.",
  "capture-date-other-day": "The photo says it was taken on another day than the entry's.",
  "manual-day-over": `The entry takes the day's added steps past ${MANUAL_REVIEW_DAY_STEPS.toLocaleString("en-GB")}.`,
  "manual-month-over": `The entry takes the month's added steps past ${MANUAL_REVIEW_MONTH_STEPS.toLocaleString("en-GB")}.`,
  pace: `The count rose faster than ${PACE_STEPS_PER_MINUTE_MAX} steps a minute.`,
};

export const FAIR_PLAY_MESSAGES = {
  pending: "This entry is waiting for a quick check before it counts toward prize entries.",
  approved: "Steps added successfully and automatically verified!",
  rejected: "This entry was checked and does not count toward prize entries.",
  noSuchReview: "There is no such entry waiting for a check.",
  alreadyDecided: "This entry has already been checked.",
  reasonRequired: "Please give the walker a reason when an entry does not count.",
} as const;

export const ReviewReason = Type.Object({
  code: Type.Enum([...REVIEW_REASONS]),
  message: Type.String(),
});
export type ReviewReason = Static<typeof ReviewReason>;

/** The fair-play fields of a manual entry, as its walker sees them. */
export const EntryReviewFields = {
  status: Type.Enum([...ENTRY_STATUSES]),
  /** Why the entry waits (or waited) for a check; empty when it was approved at once. */
  reasons: Type.Array(ReviewReason),
  /** The operator's reason for the decision, when one was given. */
  decisionReason: Type.Union([Type.String(), Type.Null()]),
};

/** Review items: what waits, oldest first, with why. */
export const OPERATOR_REVIEWS_PATH = "/api/operator/reviews";
export const operatorReviewPath = (id: string) => `${OPERATOR_REVIEWS_PATH}/${id}`;
export const operatorReviewPhotoPath = (id: string) => `${OPERATOR_REVIEWS_PATH}/${id}/photo`;
/** A walker's own manual entries with where each stands. */
export const MANUAL_ENTRIES_PATH = "/api/steps/manual-entries";
/** The most review items in one answer (the oldest first). */
export const REVIEW_QUEUE_MAX = 100;
/** How many of a walker's latest days a review item shows. */
export const REVIEW_HISTORY_DAYS = 14;
export const REVIEW_DECISION_REASON_MAX_CHARS = 500;
/** A walker's latest manual entries in one answer at most. */
export const MANUAL_ENTRIES_LIST_MAX = 200;

/** A walker's own counts held for their pace, with where each stands. */
export const PACE_REVIEWS_PATH = "/api/steps/pace-reviews";

/** Steps of one of the walker's counters and days that rose faster than the pace. */
export const PaceReview = Type.Object({
  id: Type.String(),
  date: Type.String({ description: "London calendar day, YYYY-MM-DD" }),
  /** The steps held back: above the pace. */
  steps: Type.Integer(),
  createdAt: Type.String({ description: "ISO 8601 timestamp" }),
  ...EntryReviewFields,
});
export type PaceReview = Static<typeof PaceReview>;

/** `GET /api/steps/pace-reviews`: the walker's own, newest first. */
export const PaceReviewList = Type.Object({ reviews: Type.Array(PaceReview) });
export type PaceReviewList = Static<typeof PaceReviewList>;

export const ReviewItem = Type.Object({
  id: Type.String(),
  kind: Type.Enum(["manual", "pace"]),
  status: Type.Enum([...ENTRY_STATUSES]),
  userId: Type.String(),
  walkerName: Type.String(),
  walkerEmail: Type.Union([Type.String(), Type.Null()]),
  date: Type.String({ description: "London calendar day, YYYY-MM-DD" }),
  /** A manual entry's steps, or the steps of a counter above the pace. */
  steps: Type.Integer(),
  note: Type.String(),
  reasons: Type.Array(ReviewReason),
  createdAt: Type.String({ description: "ISO 8601 timestamp" }),
  /** The proof photo (operators only), or null for a counter. */
  photoUrl: Type.Union([Type.String(), Type.Null()]),
  /** The walker's latest days, oldest first, each with its counted steps. */
  recentDays: Type.Array(Type.Object({ date: Type.String(), steps: Type.Integer() })),
  decisionReason: Type.Union([Type.String(), Type.Null()]),
});
export type ReviewItem = Static<typeof ReviewItem>;

export const ReviewQueue = Type.Object({
  reviews: Type.Array(ReviewItem),
  /** True when more wait than the answer shows. */
  truncated: Type.Boolean(),
});
export type ReviewQueue = Static<typeof ReviewQueue>;

export const ReviewParams = Type.Object({ id: Type.String({ format: "uuid" }) });
export type ReviewParams = Static<typeof ReviewParams>;

export const ReviewDecisionRequest = Type.Object(
  {
    decision: Type.Enum(["approve", "reject"]),
    reason: Type.Optional(SingleLineText({ maxLength: REVIEW_DECISION_REASON_MAX_CHARS })),
  },
  { additionalProperties: false },
);
export type ReviewDecisionRequest = Static<typeof ReviewDecisionRequest>;
