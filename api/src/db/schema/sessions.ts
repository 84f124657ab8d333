import type { Generated } from "kysely";

/** A signed-in browser. Only the SHA-256 of the cookie's random id is stored. */
export interface SessionsTable {
  id_hash: string;
  user_id: string;
  created_at: number;
  expires_at: number;
  /** When the rolling expiry was last pushed forward. */
  renewed_at: number;
  /** What the walker's device list names the session by; never the hash, which the cookie matches. */
  public_id: Generated<string>;
  /** The browser's User-Agent at sign-in, at most SESSION_USER_AGENT_MAX_CHARS; null when unknown. */
  user_agent: string | null;
  /** When a request last used the session (written at most every few minutes); null when unknown. */
  last_seen_at: number | null;
}
