/** A walker's step-import key for one device. Only the SHA-256 of the secret is stored. */
export interface StepImportKeysTable {
  id: string;
  user_id: string;
  /** What the walker calls the device ("Ana's iPhone"). */
  name: string;
  /** base64url SHA-256 of the secret, unique. */
  key_hash: string;
  created_at: number;
  /** The last import the key made, or null before its first. */
  last_used_at: number | null;
}

/** Imports one key made since its one-minute window began. */
export interface StepImportCallsTable {
  key_id: string;
  calls: number;
  window_started_at: number;
}
