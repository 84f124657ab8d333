/**
 * The built-in identity provider's own state (sessions, interactions, grants, codes, tokens), kept
 * in the database so that any API process can continue a sign-in another one began.
 */
export interface OidcPayloadsTable {
  model: string;
  id: string;
  payload: string;
  grant_id: string | null;
  user_code: string | null;
  uid: string | null;
  expires_at: number | null;
  consumed_at: number | null;
}
