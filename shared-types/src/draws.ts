import { type Static, Type } from "typebox";

/**
 * The public record of a month's prize draw: `GET /api/draws/{YYYY-MM}` answers a `DrawResults`,
 * and `GET /api/draws/{YYYY-MM}/tickets` the canonical ticket list as text (one `id,holder` line
 * per ticket, see below). Together they are everything `pnpm verify-draw` needs to recompute the
 * winners, so the server must answer exactly these shapes.
 */
export const drawResultsPath = (month: string) => `/api/draws/${month}`;
export const drawTicketsPath = (month: string) => `/api/draws/${month}/tickets`;

/** The ticket list is served as this type; its bytes are what `ticketListSha256` hashes. */
export const DRAW_TICKETS_CONTENT_TYPE = "text/plain; charset=utf-8";

/** The tiers of a month's prizes, in the order they are drawn, when operators configure none. */
export const DRAW_TIER_NAMES = ["Platinum", "Gold", "Silver", "Bronze"] as const;

/**
 * A ticket id and a holder id: short, ASCII letters, digits, `_` and `-` only. Neither may carry a
 * name: a ticket id is public, and a holder id is opaque and changes every month; it exists so
 * that anyone can check that no person won twice in a month.
 */
export const DRAW_TICKET_ID_PATTERN = "^[A-Za-z0-9_-]{1,64}$";
export const DRAW_HOLDER_ID_PATTERN = "^[A-Za-z0-9_-]{1,64}$";

export const DRAW_MONTH_PATTERN = "^\\d{4}-(0[1-9]|1[0-2])$";
/** Lower-case hex of 32 bytes: the seed, its SHA-256 commitment, the ticket list's SHA-256. */
export const HEX_32_BYTES_PATTERN = "^[0-9a-f]{64}$";
const HEX_PATTERN = "^([0-9a-f]{2})+$";

const Hex32 = (description: string) => Type.String({ pattern: HEX_32_BYTES_PATTERN, description });

/**
 * `open`: entries are being counted; `closed`: past the close, not drawn yet; `drawn`: the seed,
 * the ticket list and the winners are public.
 */
export const DrawStatus = Type.Union([Type.Literal("open"), Type.Literal("closed"), Type.Literal("drawn")]);
export type DrawStatus = Static<typeof DrawStatus>;

export const DrawTier = Type.Object({
  /** Platinum, Gold, Silver, Bronze, or an operator's own name. */
  name: Type.String({ minLength: 1, maxLength: 60 }),
  prizes: Type.Integer({ minimum: 0, maximum: 1000 }),
  /** What the prize is, as the prize page shows it. */
  description: Type.String({ maxLength: 500 }),
});
export type DrawTier = Static<typeof DrawTier>;

/**
 * The drand round mixed into the draw: the first round published after the close. `randomness`
 * is SHA-256 of `signature`; `chainHash` names the drand network whose public key signed it.
 */
export const DrawBeacon = Type.Object({
  round: Type.Integer({ minimum: 1 }),
  randomness: Hex32("The round's randomness, lower-case hex"),
  signature: Type.String({ pattern: HEX_PATTERN, description: "The round's BLS signature, lower-case hex" }),
  chainHash: Hex32("The drand chain's hash, lower-case hex"),
});
export type DrawBeacon = Static<typeof DrawBeacon>;

export const DrawWinner = Type.Object({
  tier: Type.String(),
  /** The winning ticket's public id. */
  ticket: Type.String({ pattern: DRAW_TICKET_ID_PATTERN }),
  holder: Type.String({ pattern: DRAW_HOLDER_ID_PATTERN }),
  /** The number (from 0) of the pick in the draw's sequence that chose this ticket. */
  pick: Type.Integer({ minimum: 0 }),
  /** On a redraw: the `pick` of the unclaimed prize's winner this one replaces. */
  replaces: Type.Optional(Type.Integer({ minimum: 0 })),
  /** Published once the winner has claimed: the name and county they chose to publish. */
  publicName: Type.Optional(Type.Union([Type.String(), Type.Null()])),
  county: Type.Optional(Type.Union([Type.String(), Type.Null()])),
});
export type DrawWinner = Static<typeof DrawWinner>;

export const DrawResults = Type.Object({
  month: Type.String({ pattern: DRAW_MONTH_PATTERN, description: "YYYY-MM" }),
  status: DrawStatus,
  /** SHA-256 of the 32 seed bytes, published before the month's entries are counted. */
  commitment: Hex32("SHA-256 of the seed, lower-case hex"),
  closesAt: Type.String({ description: "ISO 8601 timestamp: step entries counted at this moment" }),
  postalClosesAt: Type.String({ description: "ISO 8601 timestamp: postal entries must arrive by then" }),
  tiers: Type.Array(DrawTier),
  /** The rest appears once drawn. */
  ticketCount: Type.Optional(Type.Integer({ minimum: 0 })),
  ticketListSha256: Type.Optional(Hex32("SHA-256 of the canonical ticket list's bytes")),
  seed: Type.Optional(Hex32("The 32-byte seed, lower-case hex")),
  /** Null when no beacon was configured: the seed alone decided. */
  beacon: Type.Optional(Type.Union([DrawBeacon, Type.Null()])),
  /** The draw's winners in pick order, then each redraw in the order it happened. */
  winners: Type.Optional(Type.Array(DrawWinner)),
});
export type DrawResults = Static<typeof DrawResults>;
