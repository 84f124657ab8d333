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

/** The free postal route's details, as the prize and terms pages show them. */
export const DRAW_RULES_PATH = "/api/draws/rules";
export const DrawRulesResponse = Type.Object({
  /** Where postal entries go; null when the server has not been given one. */
  postalEntryAddress: Type.Union([Type.String(), Type.Null()]),
});
export type DrawRulesResponse = Static<typeof DrawRulesResponse>;

export const DrawMonthParams = Type.Object({ month: Type.String({ maxLength: 20 }) });

export const DRAW_MESSAGES = {
  badMonth: "The month must be written YYYY-MM, e.g. 2026-03.",
  monthOutOfRange:
    "There is no draw for that month: draws exist for this month, the 12 before it and the next one.",
} as const;

/** The tiers a month is drawn with until operators configure its own. */
export const DEFAULT_DRAW_TIERS: readonly DrawTier[] = [
  { name: "Platinum", prizes: 1, description: "The month's top prize, drawn from every entry." },
  { name: "Gold", prizes: 1, description: "Major prizes for a handful of entries each month." },
  { name: "Silver", prizes: 2, description: "Smaller prizes shared among more winners." },
  { name: "Bronze", prizes: 5, description: "Vouchers and walking gear for many winners." },
];

// en-GB with a 24-hour clock, for reading London's wall clock at an instant.
const londonClock = new Intl.DateTimeFormat("en-GB", {
  timeZone: "Europe/London",
  hourCycle: "h23",
  year: "numeric",
  month: "2-digit",
  day: "2-digit",
  hour: "2-digit",
  minute: "2-digit",
  second: "2-digit",
});

/** London's offset from UTC in milliseconds at `instant` (0 in winter, one hour in summer). */
function londonOffset(instant: number): number {
  const parts = Object.fromEntries(londonClock.formatToParts(instant).map((part) => [part.type, part.value]));
  const wall = Date.UTC(
    Number(parts.year),
    Number(parts.month) - 1,
    Number(parts.day),
    Number(parts.hour),
    Number(parts.minute),
    Number(parts.second),
  );
  return wall - (instant - (instant % 1000));
}

/**
 * The instant London's clocks read the given wall time. The times asked for here (12:00 and
 * 23:59:59) are never inside the hour the clocks skip or repeat, so the answer is unique.
 */
function londonWallTime(
  year: number,
  monthIndex: number,
  day: number,
  h: number,
  m: number,
  s: number,
): Date {
  const asUtc = Date.UTC(year, monthIndex, day, h, m, s);
  return new Date(asUtc - londonOffset(asUtc - londonOffset(asUtc)));
}

const monthParts = (month: string): [number, number] => {
  const [year, monthNumber] = month.split("-").map(Number) as [number, number];
  return [year, monthNumber - 1];
};

/** When `month`'s step entries are counted: 12:00 London on the 3rd of the next month. */
export function drawClosesAt(month: string): Date {
  const [year, monthIndex] = monthParts(month);
  return londonWallTime(year, monthIndex + 1, 3, 12, 0, 0);
}

/** The last moment a postal entry for `month` may arrive: 23:59:59 London on the 25th of the month. */
export function drawPostalClosesAt(month: string): Date {
  const [year, monthIndex] = monthParts(month);
  return londonWallTime(year, monthIndex, 25, 23, 59, 59);
}
