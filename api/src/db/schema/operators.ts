import type { Generated } from "kysely";

/** One operator action; rows are only ever added (the database refuses updates and deletes). */
export interface AuditLogTable {
  id: Generated<number>;
  at: number;
  /** The operator's user id; kept as it was even once their account is erased. */
  operator_user_id: string | null;
  /** What was done, e.g. `postal_entry.create`. */
  action: string;
  /** What it was done to, e.g. `postal_entry:<id>`. */
  subject: string;
  /** The subject as JSON before and after the action; null when it did not exist. */
  before_json: string | null;
  after_json: string | null;
}

/** A free entry to a month's prize draw that came by post, as an operator recorded it. */
export interface PostalEntriesTable {
  id: string;
  /** The draw's month, `YYYY-MM`. */
  month: string;
  full_name: string;
  name_key: string;
  address: string;
  email: string | null;
  /** The email lower-cased, for matching duplicates. */
  email_key: string | null;
  /** The London day the envelope arrived, `YYYY-MM-DD`. */
  received_on: string;
  recorded_by: string | null;
  /** An earlier entry of the same month this one resembles; null when none. */
  duplicate_of: string | null;
  created_at: number;
}
