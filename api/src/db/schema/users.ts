import type { Generated } from "kysely";

/** A walker, keyed by the identity provider that vouches for them (issuer + subject). */
export interface UsersTable {
  id: string;
  issuer: string;
  subject: string;
  email: string | null;
  first_name: string | null;
  last_name: string | null;
  profile_image_url: string | null;
  /** The charity the walker supports in the beta, one of CHARITY_NAMES; null until chosen. */
  charity_name: string | null;
  /** When the walker's email was confirmed (by a mailed link, or by the provider's `email_verified`); null until then. */
  email_verified_at: number | null;
  /** When the walker stopped the week's summary by email; null while it comes. */
  weekly_email_off_at: number | null;
  /**
   * When a built-in account last moved to a new email by a mailed link (null if never): an email
   * reached that way never makes an operator.
   */
  email_changed_at: number | null;
  /** The app's look: "system" (the device's setting), "light" or "dark". */
  theme: Generated<string>;
  /** When the walker finished or skipped the welcome; null until then. */
  onboarded_at: number | null;
  /** Epoch milliseconds, as every timestamp in this schema. */
  created_at: number;
  updated_at: number;
}

/** A walker's daily goal from the London day `from_day` on, until a later row. */
export interface DailyGoalsTable {
  user_id: string;
  from_day: string;
  goal: number;
  set_at: number;
}

/** A badge a walker earned, and when (ms); kept whatever happens to the steps that earned it. */
export interface UserBadgesTable {
  user_id: string;
  badge_id: string;
  earned_at: number;
}
