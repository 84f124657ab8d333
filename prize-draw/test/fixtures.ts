import type { DrawBeacon, DrawResults, DrawWinner } from "@charity-steps/shared-types";
import { drawWinners, redraw } from "../src/draw.js";
import { sha256Hex } from "../src/sha256.js";
import { serializeTickets, type Ticket, ticketListSha256 } from "../src/tickets.js";

export const SEED = "00112233445566778899aabbccddeeff00112233445566778899aabbccddeeff";
/** A real round of drand quicknet, whose signature drand's client checks against quicknet's key. */
export const BEACON_SIGNATURE =
  "a5d07c0071b4e386b3ae09206522253c68fefe8490ad59ecc44a7dd0d0745be91da5779e2247a82403fbc0cb9a34cb61";
/**
 * Two seconds before BEACON's round was published (quicknet: genesis 1692803367, every 3 s): a
 * close at this moment makes BEACON the first round after it, the round the rules fix.
 */
export const BEACON_CLOSES_AT = new Date((1_692_803_367 + (5_928_395 - 1) * 3 - 2) * 1000).toISOString();
export const BEACON: DrawBeacon = {
  round: 5_928_395,
  randomness: sha256Hex(Buffer.from(BEACON_SIGNATURE, "hex")),
  signature: BEACON_SIGNATURE,
  chainHash: "52db9ba70e0cc0f6eaf7803dd07447a1f5477735fd3f661792ba94600c84e971",
};

/** `count` tickets t0000…, held by `holders` people h00… in turn. */
export function makeTickets(count: number, holders: number): Ticket[] {
  return Array.from({ length: count }, (_, i) => ({
    id: `t${String(i).padStart(4, "0")}`,
    holder: `h${String(i % holders).padStart(2, "0")}`,
  }));
}

export const TIERS = [
  { name: "Platinum", prizes: 1, description: "A bike" },
  { name: "Gold", prizes: 2, description: "Shoes" },
  { name: "Silver", prizes: 3, description: "A watch" },
  { name: "Bronze", prizes: 4, description: "A voucher" },
];

/**
 * A true draw's published documents, as the server will answer them, with the given redraws
 * (the `pick` of each winner whose prize is redrawn, in order).
 */
export function publishedDraw(
  options: { seed?: string; beacon?: DrawBeacon | null; tickets?: Ticket[]; redraws?: number[] } = {},
): { results: DrawResults; ticketsText: string } {
  const seed = options.seed ?? SEED;
  const beacon = options.beacon === undefined ? BEACON : options.beacon;
  const tickets = options.tickets ?? makeTickets(40, 25);
  const input = { seed, beacon: beacon?.randomness ?? null, tickets };
  const outcome = drawWinners({ ...input, tiers: TIERS });
  const winners: DrawWinner[] = [...outcome.winners];
  let picksUsed = outcome.picksUsed;
  for (const replaces of options.redraws ?? []) {
    const replaced = winners.find((winner) => winner.pick === replaces);
    if (!replaced) throw new Error(`no winner at pick ${replaces}`);
    const next = redraw({ ...input, picksUsed, pastWinners: winners.map((winner) => winner.holder) });
    if (!next.winner) throw new Error("nobody left to redraw");
    picksUsed = next.picksUsed;
    winners.push({ tier: replaced.tier, ...next.winner, replaces });
  }
  return {
    results: {
      month: "2026-10",
      status: "drawn",
      commitment: sha256Hex(Buffer.from(seed, "hex")),
      closesAt: beacon ? BEACON_CLOSES_AT : "2026-11-03T12:00:00.000Z",
      postalClosesAt: "2026-10-25T22:59:59.999Z",
      tiers: TIERS,
      ticketCount: tickets.length,
      ticketListSha256: ticketListSha256(tickets),
      seed,
      beacon,
      winners,
    },
    ticketsText: serializeTickets(tickets),
  };
}
