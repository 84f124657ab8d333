/** A month's prize draw. */
export interface DrawsTable {
  /** `YYYY-MM`, a London month. */
  month: string;
  /** 32 random bytes as lower-case hex: secret until the draw. */
  seed: string;
  /** SHA-256 of the seed's bytes, lower-case hex: public from the start. */
  commitment: string;
  /** `open` until the draw; later stages add their own. */
  status: string;
  created_at: number;
}
