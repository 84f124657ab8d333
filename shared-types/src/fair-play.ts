import { type Static, type TProperties, Type } from "typebox";
import { DAILY_STEP_MAX } from "./constants.js";
import { addDays, type DayString, londonDayStart } from "./dates.js";
import { DRAW_MONTH_PATTERN } from "./draws.js";
import { formatNumber } from "./numbers.js";
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
 * A step record in a Health export faster than this, in steps a minute of its own time (a record of
 * less than a minute taken as a minute), could not have been measured: twice the pace above, past a
 * sprinter's cadence. The import leaves it out and says so.
 */
export const RECORD_STEPS_PER_MINUTE_MAX = 2 * PACE_STEPS_PER_MINUTE_MAX;
/**
 * The most steps a Health export's record may hold for each 24 hours of its time: more than anyone
 * walks in a day, so a record of years cannot fill every day it spans to the daily cap.
 */
export const RECORD_STEPS_PER_DAY_MAX = 100_000;
/**
 * Two proof photos whose 64-bit perceptual hashes differ in at most this many bits are taken for the
 * same picture: a re-encoded, resized or slightly cropped copy stays well within it, while different
 * pictures differ in about half their bits.
 */
export const PHOTO_HASH_MAX_DISTANCE = 10;

/**
 * A day is late when its first reading reaches the server more than this long after the day ended:
 * a phone offline for a day and a half still syncs on time.
 */
export const LATE_DAY_AFTER_MS = 36 * 60 * 60_000;
/** A late day's steps that count for prizes at once; the rest wait for a check. */
export const LATE_DAY_STEPS_AT_ONCE = 10_000;
/** Late days in one month whose steps count at once (up to the above); every later one waits whole. */
export const LATE_DAYS_AT_ONCE_PER_MONTH = 7;
/**
 * A day's counted steps (motion and health; approved manual entries come on top) that count for
 * prizes at once: a long charity walk is within it, and what is above it waits for a check.
 */
export const DAY_PRIZE_CEILING_STEPS = 30_000;
/** Devices whose motion counts in one day; readings from any further device wait for a check. */
export const NEW_DEVICES_PER_DAY_MAX = 3;

/** The moment (epoch ms) after which a first reading of `day` makes it late. */
export function lateDayAfter(day: DayString): number {
  return londonDayStart(addDays(day, 1)) + LATE_DAY_AFTER_MS;
}

/** Whether a day whose first reading arrived at `firstReadingAt` (epoch ms) is late. */
export function isLateDay(day: DayString, firstReadingAt: number | null): boolean {
  return firstReadingAt !== null && firstReadingAt > lateDayAfter(day);
}

/** A counter of a day as fair play weighs it. */
export interface FairPlayCounter {
  kind: "motion" | "health";
  /** Its steps, those held for the pace and waiting, and those turned down. */
  steps: number;
  pendingSteps: number;
  rejectedSteps: number;
  /** When it was first seen (epoch ms; null for one kept before this was recorded), then its id. */
  createdAt: number | null;
  counterId: string;
}

/** Everything fair play weighs about one walker's day. */
export interface FairPlayDayInput {
  counters: FairPlayCounter[];
  /** Manual entries' steps: approved, and waiting for a check. */
  manualApproved: number;
  manualPending: number;
  /** Whether the day is late, and if so which of the month's late days it is (1 = the first to arrive). */
  late: boolean;
  lateRank: number;
  /** What an operator decided of the steps the day rules held: approved, and turned down. */
  approvedDaySteps: number;
  rejectedDaySteps: number;
}

/** One day as fair play counts it. */
export interface FairPlayDay {
  /** The steps that count for prizes now. */
  eligible: number;
  /** The steps that wait for a check (they count once approved). */
  pending: number;
  /** Steps the day rules (late, ceiling, devices) hold and nobody has decided yet. */
  dayHeld: number;
  /** Why the day rules hold steps, when they do. */
  reasons: DayReasonCode[];
}

const largerPart = (counters: FairPlayCounter[], stepsOf: (counter: FairPlayCounter) => number) =>
  Math.max(
    counters.filter((c) => c.kind === "motion").reduce((sum, c) => sum + stepsOf(c), 0),
    Math.max(0, ...counters.filter((c) => c.kind === "health").map(stepsOf)),
  );

/**
 * The day rules of fair play, the one place they are stated: on top of the pace rule (whose held
 * steps each counter carries), a day's motion and health steps count for prizes at once only up to
 * an allowance: 30,000; 10,000 for a late day; none for a late day after the month's first 7. Only
 * the first 3 devices of the day count at once. Approved manual entries come on top, and the whole
 * day stays within the daily cap. What the rules hold waits for an operator, who approves or turns
 * it down; steps that arrive after a decision are weighed again.
 */
export function fairPlayDay(input: FairPlayDayInput): FairPlayDay {
  const eligibleOf = (c: FairPlayCounter) => c.steps - c.pendingSteps - c.rejectedSteps;
  const unrejectedOf = (c: FairPlayCounter) => c.steps - c.rejectedSteps;
  const motion = input.counters
    .filter((c) => c.kind === "motion")
    .sort(
      (a, b) =>
        (a.createdAt ?? 0) - (b.createdAt ?? 0) ||
        (a.counterId < b.counterId ? -1 : a.counterId > b.counterId ? 1 : 0),
    );
  const firstDevices = new Set(motion.slice(0, NEW_DEVICES_PER_DAY_MAX));
  const counted = input.counters.filter((c) => c.kind === "health" || firstDevices.has(c));
  const allowance = !input.late
    ? DAY_PRIZE_CEILING_STEPS
    : input.lateRank <= LATE_DAYS_AT_ONCE_PER_MONTH
      ? LATE_DAY_STEPS_AT_ONCE
      : 0;
  const reasons: DayReasonCode[] = [];
  // Every device's pace-eligible steps, and what of them counts at once.
  const paced = largerPart(input.counters, eligibleOf);
  const atOnce = Math.min(largerPart(counted, eligibleOf), allowance);
  const dayHeldInAll = Math.max(0, paced - atOnce);
  if (dayHeldInAll > 0) {
    if (motion.length > NEW_DEVICES_PER_DAY_MAX && largerPart(counted, eligibleOf) < paced) {
      reasons.push("devices-over");
    }
    if (largerPart(counted, eligibleOf) > allowance) {
      reasons.push(!input.late ? "day-ceiling" : allowance === 0 ? "late-days-over" : "late-day");
    }
  }
  const approved = Math.min(input.approvedDaySteps, dayHeldInAll);
  const dayHeld = Math.max(0, dayHeldInAll - approved - input.rejectedDaySteps);
  const eligible = Math.min(DAILY_STEP_MAX, atOnce + approved + input.manualApproved);
  // Were everything waiting approved: every device's steps not turned down, less what the day rules
  // had turned down.
  const unrejected = Math.max(
    atOnce + approved,
    largerPart(input.counters, unrejectedOf) - Math.min(input.rejectedDaySteps, dayHeldInAll - approved),
  );
  const whole = Math.min(DAILY_STEP_MAX, unrejected + input.manualApproved + input.manualPending);
  return { eligible, pending: Math.max(0, whole - eligible), dayHeld, reasons: dayHeld > 0 ? reasons : [] };
}

/** Where a manual entry stands: counted for prizes, waiting for a check, or turned down. */
export const ENTRY_STATUSES = ["approved", "pending", "rejected"] as const;
export type EntryStatus = (typeof ENTRY_STATUSES)[number];

/** Why steps wait for a check. */
/** Why the day rules hold a day's steps. */
export const DAY_REASONS = ["late-day", "late-days-over", "day-ceiling", "devices-over"] as const;
export type DayReasonCode = (typeof DAY_REASONS)[number];

export const REVIEW_REASONS = [
  "similar-photo",
  "capture-date-missing",
  "capture-date-other-day",
  "manual-day-over",
  "manual-month-over",
  "pace",
  ...DAY_REASONS,
] as const;
export type ReviewReasonCode = (typeof REVIEW_REASONS)[number];

/** What the walker and the operator read for each reason: a fact about the entry, never a charge. */
export const REVIEW_REASON_MESSAGES: Record<ReviewReasonCode, string> = {
  "similar-photo": "The photo looks the same as a photo sent with an earlier entry.",
  "capture-date-missing": "The photo does not say when it was taken.",
  "capture-date-other-day": "The photo says it was taken on another day than the entry's.",
  "manual-day-over": `The entry takes the day's added steps past ${formatNumber(MANUAL_REVIEW_DAY_STEPS)}.`,
  "manual-month-over": `The entry takes the month's added steps past ${formatNumber(MANUAL_REVIEW_MONTH_STEPS)}.`,
  pace: `The count rose faster than ${PACE_STEPS_PER_MINUTE_MAX} steps a minute.`,
  "late-day": `The day's steps arrived more than ${LATE_DAY_AFTER_MS / 3_600_000} hours after it ended: steps above ${formatNumber(LATE_DAY_STEPS_AT_ONCE)} wait for a check.`,
  "late-days-over": `More than ${LATE_DAYS_AT_ONCE_PER_MONTH} days this month arrived more than ${LATE_DAY_AFTER_MS / 3_600_000} hours after they ended: this day's steps wait for a check.`,
  "day-ceiling": `The day's steps are above ${formatNumber(DAY_PRIZE_CEILING_STEPS)}: the steps above it wait for a check.`,
  "devices-over": `Steps came from more than ${NEW_DEVICES_PER_DAY_MAX} devices in the day: those from the further devices wait for a check.`,
};

export const FAIR_PLAY_MESSAGES = {
  pending: "This entry is waiting for a quick check before it counts toward prize entries.",
  approved: "Steps added successfully and automatically verified!",
  rejected: "This entry was checked and does not count toward prize entries.",
  noSuchReview: "There is no such entry waiting for a check.",
  alreadyDecided: "This entry has already been checked.",
  reasonRequired: "Please give the walker a reason when an entry does not count.",
  nothingWaitingInMonth: "Nothing of this walker's month is waiting for a check.",
} as const;

export const ReviewReason = Type.Object({
  code: Type.Enum(REVIEW_REASONS),
  message: Type.String(),
});
export type ReviewReason = Static<typeof ReviewReason>;

/** The fair-play fields of a manual entry, as its walker sees them. */
const EntryReviewFields = {
  status: Type.Enum(ENTRY_STATUSES),
  /** Why the entry waits (or waited) for a check; empty when it was approved at once. */
  reasons: Type.Array(ReviewReason),
  /** The operator's reason for the decision, when one was given. */
  decisionReason: Type.Union([Type.String(), Type.Null()]),
};

/**
 * An object schema of `properties` and the fair-play fields. A function, so that a page that reads
 * no such schema leaves it out: the bundler cannot drop a spread, which might run code.
 */
/* @__NO_SIDE_EFFECTS__ */
export function withReviewFields<Properties extends TProperties>(properties: Properties) {
  return Type.Object({ ...properties, ...EntryReviewFields });
}

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
export const PaceReview = withReviewFields({
  id: Type.String(),
  date: Type.String({ description: "London calendar day, YYYY-MM-DD" }),
  /** The steps held back: above the pace. */
  steps: Type.Integer(),
  createdAt: Type.String({ description: "ISO 8601 timestamp" }),
});
export type PaceReview = Static<typeof PaceReview>;

/** `GET /api/steps/pace-reviews`: the walker's own, newest first. */
export const PaceReviewList = Type.Object({ reviews: Type.Array(PaceReview) });
export type PaceReviewList = Static<typeof PaceReviewList>;

export const ReviewItem = Type.Object({
  id: Type.String(),
  kind: Type.Enum(["manual", "pace"]),
  status: Type.Enum(ENTRY_STATUSES),
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
    reason: Type.Optional(/* @__PURE__ */ SingleLineText({ maxLength: REVIEW_DECISION_REASON_MAX_CHARS })),
  },
  { additionalProperties: false },
);
export type ReviewDecisionRequest = Static<typeof ReviewDecisionRequest>;

/** What waits, grouped by walker and month: each walker's held days, the most held first. */
export const OPERATOR_REVIEW_WALKERS_PATH = "/api/operator/reviews/walkers";
/** One decision on everything of a walker's month that waits. */
export const operatorReviewMonthPath = (userId: string, month: string) =>
  `${OPERATOR_REVIEW_WALKERS_PATH}/${userId}/months/${month}`;
/** Walkers on one page of the grouped queue. */
export const REVIEW_WALKERS_PAGE_SIZE = 25;

/** One of a walker's days that holds steps back, as the operator reads it. */
export const HeldDaySummary = Type.Object({
  date: Type.String({ description: "London calendar day, YYYY-MM-DD" }),
  countedSteps: Type.Integer(),
  eligibleSteps: Type.Integer(),
  pendingSteps: Type.Integer(),
  /** Whether the day's first reading arrived late. */
  late: Type.Boolean(),
  reasons: Type.Array(ReviewReason),
});
export type HeldDaySummary = Static<typeof HeldDaySummary>;

export const WalkerReviewGroup = Type.Object({
  userId: Type.String(),
  walkerName: Type.String(),
  walkerEmail: Type.Union([Type.String(), Type.Null()]),
  month: Type.String({ description: "YYYY-MM" }),
  /** The walker's steps that wait in that month, over all its days. */
  pendingSteps: Type.Integer(),
  days: Type.Array(HeldDaySummary),
});
export type WalkerReviewGroup = Static<typeof WalkerReviewGroup>;

export const WalkerReviewQueue = Type.Object({
  walkers: Type.Array(WalkerReviewGroup),
  page: Type.Integer(),
  pageCount: Type.Integer(),
});
export type WalkerReviewQueue = Static<typeof WalkerReviewQueue>;

export const WalkerReviewQuery = Type.Object(
  { page: Type.Optional(Type.Integer({ minimum: 1, maximum: 10_000 })) },
  { additionalProperties: false },
);

export const MonthDecisionParams = Type.Object({
  userId: Type.String({ format: "uuid" }),
  month: Type.String({ pattern: DRAW_MONTH_PATTERN, description: "YYYY-MM" }),
});
export type MonthDecisionParams = Static<typeof MonthDecisionParams>;

/** What one decision on a walker's month decided. */
export const MonthDecision = Type.Object({
  userId: Type.String(),
  month: Type.String(),
  status: Type.Enum(["approved", "rejected"]),
  manualEntries: Type.Integer(),
  paceReviews: Type.Integer(),
  /** Days whose held steps (late, ceiling, devices) were decided, and how many steps in all. */
  days: Type.Integer(),
  steps: Type.Integer(),
});
export type MonthDecision = Static<typeof MonthDecision>;

/** Operators: before a month's draw closes, the walkers whose tickets are far above everyone else's. */
export const operatorDrawOutliersPath = (month: string) => `/api/operator/draws/${month}/outliers`;
/** Walkers listed at most. */
export const DRAW_OUTLIERS_MAX = 50;

export const DrawOutlier = Type.Object({
  userId: Type.String(),
  walkerName: Type.String(),
  walkerEmail: Type.Union([Type.String(), Type.Null()]),
  /** Their tickets from the steps that count for prizes now. */
  tickets: Type.Integer(),
  countedSteps: Type.Integer(),
  eligibleSteps: Type.Integer(),
  pendingSteps: Type.Integer(),
  /** The month's days whose first reading arrived late, oldest first. */
  lateDays: Type.Array(Type.String()),
  /** The month's days that hold steps back, with why. */
  heldDays: Type.Array(HeldDaySummary),
});
export type DrawOutlier = Static<typeof DrawOutlier>;

export const DrawOutliers = Type.Object({
  month: Type.String(),
  /** Walkers with steps that month, and the tickets at their 99th percentile (nearest rank). */
  walkers: Type.Integer(),
  percentile99Tickets: Type.Integer(),
  /** Those above it, the most tickets first. */
  above: Type.Array(DrawOutlier),
});
export type DrawOutliers = Static<typeof DrawOutliers>;
