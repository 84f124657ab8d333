/** What a mailed link (or the sign-in ticket after a reset) lets its holder do. */
export type AccountTokenKind = "password-reset" | "email-confirmation" | "email-change" | "reset-sign-in";

/** Single-use tokens of built-in accounts; only each token's SHA-256 is stored. */
export interface AccountTokensTable {
  token_hash: string;
  kind: AccountTokenKind;
  account_id: string;
  /** The address the link was mailed to (for an email change: the new address). */
  email: string;
  created_at: number;
  expires_at: number;
  used_at: number | null;
}
