/** Accounts of the built-in identity provider (email + scrypt-hashed password). */
export interface LocalAccountsTable {
  id: string;
  /** Lower-cased, unique. */
  email: string;
  password_hash: string;
  first_name: string;
  last_name: string;
  created_at: number;
  /** When the account's email was confirmed by its mailed link; null until then. */
  email_verified_at: number | null;
}
