import type { EntryStatus } from "@charity-steps/shared-types";
import type { Generated } from "kysely";

/**
 * One device's (or one health source's) count for a walker's day. Counters only grow: a sync
 * carries the counter's whole total for the day and the larger value is kept.
 */
export interface StepCountersTable {
  user_id: string;
  day: string;
  /** `device:<X-Device-Id>` for motion counting, `health:<source>` for a health source. */
  counter_id: string;
  kind: "motion" | "health";
  /** The source named by the sync that last raised the counter. */
  source: string;
  steps: number;
  updated_at: number;
  /** Steps above the pace waiting for a check (counted, not eligible for prizes). */
  pending_steps: Generated<number>;
  /** Steps above the pace an operator turned down (counted, never eligible). */
  rejected_steps: Generated<number>;
  /** When the counter was first seen (null for one kept before this was recorded). */
  created_at: number | null;
}

/**
 * A walker's day as counted (the parts and the capped total), rewritten in the same transaction as
 * every counter or manual entry of that day, so month totals and leaderboards read one row per day.
 */
export interface StepDaysTable {
  user_id: string;
  day: string;
  month: string;
  motion_steps: number;
  health_steps: number;
  manual_steps: number;
  total_steps: number;
  updated_at: number;
  /** When the day's first reading arrived (null for one kept before this was recorded). */
  first_reading_at: number | null;
}

/** What operators decided of the steps fair play's day rules held on one walker's day. */
export interface DayReviewsTable {
  user_id: string;
  day: string;
  approved_steps: Generated<number>;
  rejected_steps: Generated<number>;
  decision_reason: string | null;
  decided_at: number;
  decided_by: string | null;
}

/**
 * A walker's month: the sum of the month's day totals, changed with them (by the difference) in the
 * transaction that rewrites a day, so that month totals and leaderboards read one row per walker.
 */
export interface StepMonthsTable {
  user_id: string;
  month: string;
  total_steps: number;
  /** The month's latest day with steps so far, and that day's total (days only ever grow). */
  last_day: string;
  last_day_steps: number;
  updated_at: number;
}

/** A manual entry verified by a photo; never deleted, so a replay of its key never adds again. */
export interface ManualStepEntriesTable {
  id: string;
  user_id: string;
  day: string;
  steps: number;
  note: string;
  idempotency_key: string;
  photo_id: string;
  created_at: number;
  status: Generated<EntryStatus>;
  /** The JSON array of why the entry waits (or waited) for a check: `ReviewReasonCode`s. */
  reasons: Generated<string>;
  decision_reason: string | null;
  decided_at: number | null;
  decided_by: string | null;
}

/** The proof photo of a manual entry, re-encoded without metadata (no location). */
export interface StepPhotosTable {
  id: string;
  user_id: string;
  content_type: string;
  width: number;
  height: number;
  byte_size: number;
  data: Buffer;
  created_at: number;
  /** The 64-bit perceptual hash of the picture, 16 hex digits; null for photos older than hashes. */
  perceptual_hash: string | null;
}

/** Steps of one counter and day that rose faster than the pace, and the operator's decision on them. */
export interface PaceReviewsTable {
  id: string;
  user_id: string;
  day: string;
  counter_id: string;
  steps: number;
  status: Generated<EntryStatus>;
  created_at: number;
  decision_reason: string | null;
  decided_at: number | null;
  decided_by: string | null;
}

/** The first answer to a request carrying an Idempotency-Key, returned again on a replay. */
export interface IdempotencyRecordsTable {
  user_id: string;
  key: string;
  /** Hash of what the request asked for, so a key reused for a different request is refused. */
  request_hash: string;
  status_code: number;
  response_body: string;
  created_at: number;
  expires_at: number;
}
