/** A month's prize draw. */
export interface DrawsTable {
  /** `YYYY-MM`, a London month. */
  month: string;
  /** 32 random bytes as lower-case hex: secret until the draw. */
  seed: string;
  /** SHA-256 of the seed's bytes, lower-case hex: public from the start. */
  commitment: string;
  /** `open` until the close, `closed` once its tickets are counted, `drawn` once its winners are. */
  status: string;
  created_at: number;
  /** The month's tiers as JSON (`DrawTier[]`); null for the defaults. */
  tiers_json: string | null;
  closed_at: number | null;
  ticket_count: number | null;
  ticket_list_sha256: string | null;
  drawn_at: number | null;
  /** When the month's ticket holders were told its results are out; null until then. */
  results_told_at: number | null;
  /** The drand round mixed in, as JSON (`DrawBeacon`); null when none was. */
  beacon_json: string | null;
  /** Picks of the sequence used so far: a redraw continues from here. */
  picks_used: number | null;
  /** The operator who ran it; null for the scheduled run. */
  drawn_by: string | null;
}

/** One ticket of a closed month's draw: a walker's (one per 10,000 steps) or a postal entry's. */
export interface DrawTicketsTable {
  month: string;
  /** Public, random, reveals no name. */
  ticket_id: string;
  /** Opaque and new every month: the same for all of one person's tickets. */
  holder_id: string;
  user_id: string | null;
  postal_entry_id: string | null;
}

/** One prize of a drawn month. */
export interface DrawPrizesTable {
  id: string;
  month: string;
  position: number;
  tier: string;
  description: string;
  pick: number;
  replaces_pick: number | null;
  ticket_id: string;
  holder_id: string;
  user_id: string | null;
  postal_entry_id: string | null;
  status: string;
  drawn_at: number;
  claim_by: number;
  notified_at: number | null;
  claimed_at: number | null;
  public_name: string | null;
  county: string | null;
  delivery_address: string | null;
}
