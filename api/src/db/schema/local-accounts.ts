/** Accounts of the built-in identity provider (email + scrypt-hashed password). */
export interface LocalAccountsTable {
  id: string;
  /** Lower-cased, unique. */
  email: string;
  password_hash: string;
  first_name: string;
  last_name: string;
  created_at: number;
}
