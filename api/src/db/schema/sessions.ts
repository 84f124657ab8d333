/** A signed-in browser. Only the SHA-256 of the cookie's random id is stored. */
export interface SessionsTable {
  id_hash: string;
  user_id: string;
  created_at: number;
  expires_at: number;
  /** When the rolling expiry was last pushed forward. */
  renewed_at: number;
}
