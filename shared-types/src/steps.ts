import { type Static, Type } from "typebox";
import { DAILY_STEP_MAX, MANUAL_NOTE_MAX_CHARS, STEP_HISTORY_DAYS } from "./constants.js";
import { type DayString, daysBetween, formatDay } from "./dates.js";
import { ReviewReason, withReviewFields } from "./fair-play.js";
import { MultiLineText, SingleLineText } from "./text.js";

/** Where a count comes from. */
export const MOTION_SOURCES = ["device_motion", "background_device_motion", "local_tracker"] as const;
export const HEALTH_SOURCES = ["apple_health", "google_fit"] as const;
export const MANUAL_SOURCE = "manual_verified";

export type MotionSource = (typeof MOTION_SOURCES)[number];
export type HealthSource = (typeof HEALTH_SOURCES)[number];

export function isHealthSource(source: string): source is HealthSource {
  return (HEALTH_SOURCES as readonly string[]).includes(source);
}

/** The header a client names its device with; one step counter per device and day. */
export const DEVICE_ID_HEADER = "x-device-id";
export const DEFAULT_DEVICE_ID = "default";
export const DEVICE_ID_PATTERN = "^[A-Za-z0-9_-]{1,64}$";
export const DEVICE_ID_RULE = "must be 1 to 64 letters, digits, _ or -";
/** A client-made UUID that makes a manual entry safe to send again. */
export const IDEMPOTENCY_KEY_HEADER = "idempotency-key";
export const IDEMPOTENCY_KEY_PATTERN = "^[A-Za-z0-9_-]{8,128}$";
export const IDEMPOTENCY_KEY_RULE =
  "must be 8 to 128 letters, digits, _ or -: a new random id, such as a UUID, for each entry";

const DAY_PATTERN = "^\\d{4}-\\d{2}-\\d{2}$";

export const StepDate = Type.String({
  pattern: DAY_PATTERN,
  errorMessage: "must be a date, YYYY-MM-DD",
  description: "London calendar day, YYYY-MM-DD",
});
/** A device's whole count for one day: the server keeps the larger of this and what it had. */
export const StepCount = Type.Integer({ minimum: 0, maximum: DAILY_STEP_MAX });
/** Sources a count may be synced from; manual steps come only with a photo. */
const SYNCED_SOURCES = [...MOTION_SOURCES, ...HEALTH_SOURCES] as const;
export const SyncedStepSource = Type.Enum(SYNCED_SOURCES);

export const StepSyncRequest = Type.Object(
  { steps: StepCount, date: StepDate, source: SyncedStepSource },
  { additionalProperties: false },
);
export type StepSyncRequest = Static<typeof StepSyncRequest>;

export const StepSyncResponse = Type.Object({
  ok: Type.Literal(true),
  date: StepDate,
  /** The walker's total for the synced day, every device and source together. */
  daySteps: Type.Integer(),
  todaySteps: Type.Integer(),
  monthlySteps: Type.Integer(),
});
export type StepSyncResponse = Static<typeof StepSyncResponse>;

export const LocalStepSyncRequest = Type.Object(
  {
    userId: /* @__PURE__ */ SingleLineText({ minLength: 1, maxLength: 64 }),
    steps: StepCount,
    date: StepDate,
    source: SyncedStepSource,
  },
  { additionalProperties: false },
);
export type LocalStepSyncRequest = Static<typeof LocalStepSyncRequest>;

export const RealtimeStepsRequest = Type.Object(
  { steps: StepCount, source: SyncedStepSource },
  { additionalProperties: false },
);
export type RealtimeStepsRequest = Static<typeof RealtimeStepsRequest>;

export const RealtimeStepsResponse = Type.Object({
  todaySteps: Type.Integer(),
  monthlyTotal: Type.Integer(),
});
export type RealtimeStepsResponse = Static<typeof RealtimeStepsResponse>;

/** The text fields of the manual-entry form (multipart); the photo travels as `justificationImage`. */
export const ManualEntryFields = Type.Object(
  {
    steps: /* @__PURE__ */ SingleLineText({ maxLength: 32 }),
    date: /* @__PURE__ */ SingleLineText({ maxLength: 32 }),
    note: Type.Optional(/* @__PURE__ */ MultiLineText()),
    source: Type.Optional(Type.Literal(MANUAL_SOURCE)),
    manualEntry: Type.Optional(/* @__PURE__ */ SingleLineText({ maxLength: 8 })),
    justificationImage: Type.Optional(Type.Unknown()),
  },
  { additionalProperties: false },
);

export const ManualEntry = /* @__PURE__ */ withReviewFields({
  id: Type.String(),
  date: StepDate,
  steps: Type.Integer(),
  note: Type.String({ maxLength: MANUAL_NOTE_MAX_CHARS }),
  source: Type.Literal(MANUAL_SOURCE),
  createdAt: Type.String({ description: "ISO 8601 timestamp" }),
  /** The proof photo as stored (upright, no metadata), served to the entry's walker only. */
  photoUrl: Type.Optional(Type.String()),
});
export type ManualEntry = Static<typeof ManualEntry>;

/** `GET /api/steps/manual-entries`: the walker's own entries, newest first, with where each stands. */
export const ManualEntryList = Type.Object({ entries: Type.Array(ManualEntry) });
export type ManualEntryList = Static<typeof ManualEntryList>;

export const PHOTOS_PATH = "/api/steps/photos";
export const PhotoParams = Type.Object({ id: Type.String({ format: "uuid" }) });
export type PhotoParams = Static<typeof PhotoParams>;

export const ManualEntryResponse = Type.Object({
  entry: ManualEntry,
  daySteps: Type.Integer(),
  todaySteps: Type.Integer(),
  monthlySteps: Type.Integer(),
});
export type ManualEntryResponse = Static<typeof ManualEntryResponse>;

export const TodayStepsResponse = Type.Object({ date: StepDate, steps: Type.Integer() });
export type TodayStepsResponse = Static<typeof TodayStepsResponse>;

export const MonthlyStepsResponse = Type.Object({ month: Type.String(), steps: Type.Integer() });
export type MonthlyStepsResponse = Static<typeof MonthlyStepsResponse>;

export const STEP_HISTORY_PATH = "/api/steps/history";
/** The most days `GET /api/steps/history` answers: a year, a leap year's included. */
export const STEP_HISTORY_DAYS_MAX = 366;
export const STEP_HISTORY_DAYS_RULE = `must be a whole number of days from 1 to ${STEP_HISTORY_DAYS_MAX}`;

export const StepHistoryQuery = Type.Object(
  {
    days: Type.Optional(
      Type.Integer({
        minimum: 1,
        maximum: STEP_HISTORY_DAYS_MAX,
        errorMessage: STEP_HISTORY_DAYS_RULE,
        description: `The days to answer, today the last (${STEP_HISTORY_DAYS} when absent)`,
      }),
    ),
  },
  { additionalProperties: false },
);
export type StepHistoryQuery = Static<typeof StepHistoryQuery>;

export const StepHistoryResponse = Type.Object({
  /** Oldest first, one row per day, today the last; days without steps are 0. */
  days: Type.Array(
    Type.Object({
      date: StepDate,
      /** The day's counted steps: the larger of the phones' and the health app's counts, plus those added by hand. */
      steps: Type.Integer(),
      /** Counted by a phone's motion sensors (walk mode), on any of the walker's devices. */
      motionSteps: Type.Integer(),
      /** Imported from a health app (Apple Health). */
      healthSteps: Type.Integer(),
      /** Added by hand with a photo. */
      manualSteps: Type.Integer(),
      /** The walker's daily goal on that day: a goal changed later leaves the days before it alone. */
      goal: Type.Integer(),
      /** Of the day's steps, those waiting for a check before they count for prizes; absent when none. */
      pendingSteps: Type.Optional(Type.Integer()),
      /** Why those steps wait, in fair play's words; absent when none wait. */
      pendingReasons: Type.Optional(Type.Array(ReviewReason)),
    }),
  ),
});
export type StepHistoryResponse = Static<typeof StepHistoryResponse>;

export const DashboardStatsResponse = Type.Object({
  date: StepDate,
  month: Type.String(),
  todaySteps: Type.Integer(),
  monthlySteps: Type.Integer(),
  /** The walker's own goal for today (10,000 until they set one). */
  dailyGoal: Type.Integer(),
  /** Today's counted steps have reached today's goal. */
  todayOnGoal: Type.Boolean(),
  /**
   * Days on goal in a row (each day by its own goal): `current` ends today once today is on goal,
   * else yesterday; `best` is the longest run ever.
   */
  streak: Type.Object({ current: Type.Integer(), best: Type.Integer() }),
  monthlyGoal: Type.Integer(),
  monthlyStepsRemaining: Type.Integer(),
  /** The month's steps that count for prizes: every step but those waiting for a check or turned down. */
  eligibleMonthSteps: Type.Integer(),
  /** The month's steps waiting for a check; they count for prizes once approved. */
  pendingMonthSteps: Type.Integer(),
  /** From the eligible steps. */
  prizeEntries: Type.Integer(),
  stepsToNextEntry: Type.Integer(),
  charityName: Type.Union([Type.String(), Type.Null()]),
  /** This month's prize pool in pounds (the prize share of subscription revenue). */
  prizePool: Type.Number(),
  /** When a step-import key of the walker's last brought steps from Apple Health (ISO 8601), or null. */
  appleHealthLastImportAt: Type.Union([Type.String({ description: "ISO 8601 timestamp" }), Type.Null()]),
});
export type DashboardStatsResponse = Static<typeof DashboardStatsResponse>;

export const DailyResetResponse = Type.Object({ message: Type.String(), recordsDeleted: Type.Integer() });
export type DailyResetResponse = Static<typeof DailyResetResponse>;

export const MonthlyResetResponse = Type.Object({ message: Type.String() });
export type MonthlyResetResponse = Static<typeof MonthlyResetResponse>;

export interface DayParts {
  /** Sum of the motion counters of every device. */
  motion: number;
  /** The largest health-source counter (each one already gathers the walker's devices). */
  health: number;
  /** Sum of the manual verified entries. */
  manual: number;
}

/**
 * A day's steps: the same walk seen by motion and by a health source counts once, as the larger of
 * the two; manual entries add on top; the whole day is capped at `DAILY_STEP_MAX`. The API counts
 * days by this rule in SQL (`api/src/ledger/day-rule.ts`); this statement of it is what the
 * ledger's tests hold both databases to.
 */
export function dayTotal({ motion, health, manual }: DayParts): number {
  return Math.min(DAILY_STEP_MAX, Math.max(motion, health) + manual);
}

/**
 * Why the calendar day `date` cannot take steps on `today` (London), or null when it can: not in the
 * future, at most 30 days back.
 */
export function stepDateOutOfRange(date: DayString, today: DayString): string | null {
  const back = daysBetween(date, today);
  if (back < 0) return `${formatDay(date)} is in the future: steps can only be added for today or earlier.`;
  if (back > STEP_HISTORY_DAYS) {
    return `${formatDay(date)} is more than ${STEP_HISTORY_DAYS} days ago: steps can only be added for the last ${STEP_HISTORY_DAYS} days.`;
  }
  return null;
}
