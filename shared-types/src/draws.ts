import { type Static, Type } from "typebox";
import {
  addMonths,
  londonClock,
  londonDayStart,
  londonLongDate,
  londonMonth,
  londonTimeOn,
  type MonthString,
} from "./dates.js";
import { ErrorResponse } from "./errors.js";
import { MultiLineText, SingleLineText, trimInvisible } from "./text.js";

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

const Hex32 = /* @__NO_SIDE_EFFECTS__ */ (description: string) =>
  Type.String({ pattern: HEX_32_BYTES_PATTERN, description });

/**
 * `open`: entries are being counted; `closed`: past the close, not drawn yet; `drawn`: the seed,
 * the ticket list and the winners are public.
 */
export const DrawStatus = Type.Union([Type.Literal("open"), Type.Literal("closed"), Type.Literal("drawn")]);
export type DrawStatus = Static<typeof DrawStatus>;

/** A month has at most this many tiers, and at most this many prizes in all. */
export const DRAW_TIERS_MAX = 10;
export const DRAW_PRIZES_MAX = 1000;
/** A tier's name and description, in characters. */
export const DRAW_TIER_NAME_MAX_CHARS = 60;
export const DRAW_TIER_DESCRIPTION_MAX_CHARS = 500;

export const DrawTier = Type.Object({
  /** Platinum, Gold, Silver, Bronze, or an operator's own name. */
  name: SingleLineText({ minLength: 1, maxLength: DRAW_TIER_NAME_MAX_CHARS }),
  prizes: Type.Integer({ minimum: 0, maximum: DRAW_PRIZES_MAX }),
  /** What the prize is, as the prize page shows it. */
  description: MultiLineText({ maxLength: DRAW_TIER_DESCRIPTION_MAX_CHARS }),
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
  /** The winner's days to claim ended without a claim (the prize may since have been redrawn). */
  unclaimed: Type.Optional(Type.Literal(true)),
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

/** The months that have a draw (this one, the 12 before it and the next one at most), newest first. */
export const DRAWS_PATH = "/api/draws";
export const DrawSummary = Type.Object({
  month: Type.String({ pattern: DRAW_MONTH_PATTERN }),
  status: DrawStatus,
});
export type DrawSummary = Static<typeof DrawSummary>;
export const DrawList = Type.Object({ draws: Type.Array(DrawSummary) });
export type DrawList = Static<typeof DrawList>;

/** The free postal route's details, as the prize and terms pages show them. */
export const DRAW_RULES_PATH = "/api/draws/rules";
export const DrawRulesResponse = Type.Object({
  /** Where postal entries go; null when the server has not been given one. */
  postalEntryAddress: Type.Union([Type.String(), Type.Null()]),
});
export type DrawRulesResponse = Static<typeof DrawRulesResponse>;

export const DrawMonthParams = Type.Object({ month: Type.String({ maxLength: 20 }) });

export const DRAW_MESSAGES = {
  badMonth: "There is no such month: a month is written YYYY-MM, its number from 01 to 12, e.g. 2026-03.",
  ticketsNotYet: "The ticket list is published once the month's draw has been run.",
  neverOpened: "There was no prize draw for that month: the month ended before a draw was set up for it.",
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

/** When `month`'s step entries are counted: 12:00 London on the 3rd of the next month. */
export function drawClosesAt(month: string): Date {
  return new Date(londonTimeOn(`${addMonths(month, 1)}-03`, "12:00"));
}

/** The last moment a postal entry for `month` may arrive: 23:59:59 London on the 25th of the month. */
export function drawPostalClosesAt(month: string): Date {
  // The second before the 26th begins (`addMonths` by 0 writes the month in its usual form).
  return new Date(londonDayStart(`${addMonths(month, 0)}-26`) - 1000);
}

/**
 * The draw a postal entry arriving at `at` can still enter: this month's until its postal entries
 * close on the 25th, then next month's.
 */
export function postalEntryMonth(at: Date | number = Date.now()): MonthString {
  const month = londonMonth(at);
  return new Date(at).getTime() > drawPostalClosesAt(month).getTime() ? addMonths(month, 1) : month;
}

// ---------------------------------------------------------------------------------------------
// After the close: a walker's own tickets and prizes, claims, and what operators run.

/** A signed-in walker's tickets and prizes for one month. */
export const drawMinePath = (month: string) => `/api/draws/${month}/mine`;
/** A signed-in walker's prizes of every month, newest first. */
export const MY_PRIZES_PATH = "/api/prizes/mine";
export const prizeClaimPath = (prizeId: string) => `/api/prizes/${prizeId}/claim`;
/** Operators: a month's draw with its winners' details. */
export const operatorDrawPath = (month: string) => `/api/operator/draws/${month}`;
export const operatorDrawTiersPath = (month: string) => `/api/operator/draws/${month}/tiers`;
export const operatorDrawRunPath = (month: string) => `/api/operator/draws/${month}/run`;
export const operatorPrizeRedrawPath = (prizeId: string) => `/api/operator/prizes/${prizeId}/redraw`;
/** Operators record a postal winner's claim, sent back by post or mail (a walker claims in the app). */
export const operatorPrizeClaimPath = (prizeId: string) => `/api/operator/prizes/${prizeId}/claim`;
/** Where a winner claims a prize in the app (the winner's mail links here). */
export const prizeClaimPagePath = (prizeId: string) => `/prizes/${encodeURIComponent(prizeId)}/claim`;
/** The public results page of a month's draw in the app. */
export const drawResultsPagePath = (month: string) => `/prize-draw/results/${month}`;

/** A winner has this many days from the draw to claim; after it an operator may redraw the prize. */
export const PRIZE_CLAIM_DAYS = 14;
export const PRIZE_PUBLIC_NAME_MAX_CHARS = 80;
export const PRIZE_COUNTY_MAX_CHARS = 60;
export const PRIZE_DELIVERY_ADDRESS_MAX_CHARS = 500;
/** A walker's own ticket ids in one answer at most (the answer says how many there are in all). */
export const MY_TICKETS_LIST_MAX = 500;

/**
 * `awaiting_claim`: drawn, within the days to claim; `claimed`: the winner claimed it; `expired`:
 * the days to claim passed without a claim (an operator may redraw it); `redrawn`: given to the
 * next pick of the sequence.
 */
export const PrizeStatus = Type.Union([
  Type.Literal("awaiting_claim"),
  Type.Literal("claimed"),
  Type.Literal("expired"),
  Type.Literal("redrawn"),
]);
export type PrizeStatus = Static<typeof PrizeStatus>;

/** A prize as its winner sees it. */
export const MyPrize = Type.Object({
  id: Type.String(),
  month: Type.String({ pattern: DRAW_MONTH_PATTERN }),
  tier: Type.String(),
  description: Type.String(),
  /** The winning ticket's public id. */
  ticket: Type.String(),
  status: PrizeStatus,
  claimBy: Type.String({ description: "ISO 8601: the last moment to claim" }),
  claimedAt: Type.Union([Type.String(), Type.Null()]),
  publicName: Type.Union([Type.String(), Type.Null()]),
  county: Type.Union([Type.String(), Type.Null()]),
});
export type MyPrize = Static<typeof MyPrize>;

export const MyDraw = Type.Object({
  month: Type.String({ pattern: DRAW_MONTH_PATTERN }),
  status: DrawStatus,
  /** The walker's ticket ids in canonical order: empty until the close counts them. */
  tickets: Type.Array(Type.String()),
  /** How many tickets the walker holds in all (the list stops at `MY_TICKETS_LIST_MAX`). */
  ticketCount: Type.Integer({ minimum: 0 }),
  prizes: Type.Array(MyPrize),
});
export type MyDraw = Static<typeof MyDraw>;

export const MyPrizes = Type.Object({ prizes: Type.Array(MyPrize) });
export type MyPrizes = Static<typeof MyPrizes>;

/** A prize id is a public id (letters, digits, `_`, `-`): anything else names no prize, and is a 400. */
export const PrizeIdParams = Type.Object({ id: Type.String({ pattern: DRAW_TICKET_ID_PATTERN }) });

export const PrizeClaimRequest = Type.Object(
  {
    over18: Type.Literal(true, { description: "The winner confirms they are 18 or over" }),
    /** Published with the results: e.g. "J. Smith". */
    publicName: /* @__PURE__ */ SingleLineText({ minLength: 1, maxLength: PRIZE_PUBLIC_NAME_MAX_CHARS }),
    county: /* @__PURE__ */ SingleLineText({ minLength: 1, maxLength: PRIZE_COUNTY_MAX_CHARS }),
    /** Never published: where to send the prize. */
    deliveryAddress: /* @__PURE__ */ MultiLineText({
      minLength: 1,
      maxLength: PRIZE_DELIVERY_ADDRESS_MAX_CHARS,
    }),
  },
  { additionalProperties: false },
);
export type PrizeClaimRequest = Static<typeof PrizeClaimRequest>;

export const DrawTiersRequest = Type.Object(
  { tiers: Type.Array(DrawTier, { minItems: 1, maxItems: DRAW_TIERS_MAX }) },
  { additionalProperties: false },
);
export type DrawTiersRequest = Static<typeof DrawTiersRequest>;

/** A prize as operators see it: who won it and where to send it. */
export const OperatorPrize = Type.Object({
  id: Type.String(),
  tier: Type.String(),
  ticket: Type.String(),
  pick: Type.Integer({ minimum: 0 }),
  replaces: Type.Union([Type.Integer({ minimum: 0 }), Type.Null()]),
  status: PrizeStatus,
  drawnAt: Type.String(),
  claimBy: Type.String(),
  /** A walker (by account) or a postal entrant (by the name on the envelope). */
  winner: Type.Object({
    kind: Type.Union([Type.Literal("walker"), Type.Literal("postal")]),
    name: Type.String(),
    email: Type.Union([Type.String(), Type.Null()]),
    /** The postal entrant's address as received; null for a walker. */
    address: Type.Union([Type.String(), Type.Null()]),
  }),
  claimedAt: Type.Union([Type.String(), Type.Null()]),
  publicName: Type.Union([Type.String(), Type.Null()]),
  county: Type.Union([Type.String(), Type.Null()]),
  deliveryAddress: Type.Union([Type.String(), Type.Null()]),
  /** True once the days to claim have passed with no claim, and it has not been redrawn. */
  canRedraw: Type.Boolean(),
  /** True for a postal winner's prize awaiting its claim: an operator records the claim they send. */
  canRecordClaim: Type.Boolean(),
});
export type OperatorPrize = Static<typeof OperatorPrize>;

export const OperatorDraw = Type.Object({
  results: DrawResults,
  /** Tickets of walkers and of postal entries, once the close has counted them. */
  walkerTickets: Type.Union([Type.Integer({ minimum: 0 }), Type.Null()]),
  postalTickets: Type.Union([Type.Integer({ minimum: 0 }), Type.Null()]),
  /** True while the tiers may still be changed: before the close. */
  tiersEditable: Type.Boolean(),
  prizes: Type.Array(OperatorPrize),
});
export type OperatorDraw = Static<typeof OperatorDraw>;

/** A redraw's answer: the draw as it now stands and the new prize (null: everyone has won). */
export const RedrawResponse = Type.Object({
  results: DrawResults,
  prize: Type.Union([OperatorPrize, Type.Null()]),
});
export type RedrawResponse = Static<typeof RedrawResponse>;

/** A run asked for when the draw has already been run: why, and the results of that one draw. */
export const AlreadyDrawnResponse = Type.Object({ message: Type.String(), results: DrawResults });
export type AlreadyDrawnResponse = Static<typeof AlreadyDrawnResponse>;
/** A run's 409: already drawn (with the results), or before the close (a message alone). */
export const DrawRunConflictResponse = Type.Union([AlreadyDrawnResponse, ErrorResponse]);

export const DRAW_CLAIM_MESSAGES = {
  notYours: "There is no such prize.",
  alreadyClaimed: "You have already claimed this prize.",
  expired: `The ${PRIZE_CLAIM_DAYS} days to claim this prize have passed.`,
  redrawn: "This prize was given to another entry after it went unclaimed.",
  walkerClaimsInApp:
    "This prize was won by a walker, who claims it in the app: only a postal winner's claim is recorded here.",
  blankField: (field: string) => `${field} must not be blank.`,
} as const;

/**
 * True when two tiers share a name as a reader sees it: "Gold", " Gold " and "gold" are one name on
 * the public results.
 */
export function repeatsTierName(names: readonly string[]): boolean {
  const seen = names.map((name) => trimInvisible(name).toLocaleLowerCase("en-GB"));
  return new Set(seen).size !== seen.length;
}

/**
 * The prizes of each tier that went to nobody: each person wins once, so with fewer people in the
 * draw than prizes the last are not awarded. A redraw is the same prize again, not another. Tiers
 * with every prize awarded are left out.
 */
export function unawardedPrizes(
  results: Pick<DrawResults, "tiers" | "winners">,
): { tier: string; count: number }[] {
  return results.tiers
    .map((tier) => ({
      tier: tier.name,
      count:
        tier.prizes -
        (results.winners ?? []).filter((winner) => winner.tier === tier.name && winner.replaces === undefined)
          .length,
    }))
    .filter((tier) => tier.count > 0);
}

export const DRAW_RUN_MESSAGES = {
  beforeClose: (closesAt: string) =>
    `The draw cannot be run before it closes, at ${closesAt}: steps synced until then still count.`,
  alreadyDrawn: "This month's draw has already been run: these are its results. A draw is never run twice.",
  tiersAfterClose: "The tiers cannot be changed once the draw has closed.",
  tierNamesRepeat: "Each tier needs its own name.",
  tooManyPrizes: `A month has at most ${DRAW_PRIZES_MAX} prizes in all.`,
  beaconUnavailable:
    "The drand beacon round after the close could not be fetched and checked yet. Nothing was drawn; please try again in a minute.",
  redrawTooSoon: (claimBy: string) =>
    `This prize can be redrawn only after its winner's days to claim end, at ${claimBy}.`,
  redrawClaimed: "This prize has been claimed: it cannot be redrawn.",
  redrawAgain: "This prize has already been redrawn.",
  noSuchPrize: "There is no such prize.",
} as const;

/** "3 December 2026 at 12:00", London's clock: how a draw's deadlines are written. */
export function londonDateTime(at: Date | number | string): string {
  return `${londonLongDate(at)} at ${londonClock(new Date(at))}`;
}
