import { DEFAULT_DRAW_TIERS, type DrawResults, type MyDraw, type MyPrize } from "@charity-steps/shared-types";

export const commitment = "9f86d081884c7d659a2feaa0c55ad015a3bf4f1b2b0b822cd15d6c15b0f00a08";
export const seed = "a".repeat(64);
export const ticketListSha256 = "b".repeat(64);
export const chainHash = "52db9ba70e0cc0f6eaf7803dd07447a1f5477735fd3f661792ba94600c84e971";

export const openDraw: DrawResults = {
  month: "2026-11",
  status: "open",
  commitment,
  closesAt: "2026-12-03T12:00:00.000Z",
  postalClosesAt: "2026-11-25T23:59:59.000Z",
  tiers: [...DEFAULT_DRAW_TIERS],
};

export const drawnOctober: DrawResults = {
  month: "2026-10",
  status: "drawn",
  commitment,
  closesAt: "2026-11-03T12:00:00.000Z",
  postalClosesAt: "2026-10-25T23:59:59.000Z",
  tiers: [
    { name: "Platinum", prizes: 1, description: "A weekend away." },
    { name: "Gold", prizes: 1, description: "A smartwatch." },
  ],
  ticketCount: 1234,
  ticketListSha256,
  seed,
  beacon: { round: 4242, randomness: "c".repeat(64), signature: "d".repeat(96), chainHash },
  winners: [
    { tier: "Platinum", ticket: "T-0007", holder: "h1", pick: 0, publicName: "J. Smith", county: "Kent" },
    { tier: "Gold", ticket: "T-0042", holder: "h2", pick: 2 },
    { tier: "Gold", ticket: "T-0099", holder: "h3", pick: 3, replaces: 2 },
  ],
};

export function prize(overrides: Partial<MyPrize> = {}): MyPrize {
  return {
    id: "prize-1",
    month: "2026-10",
    tier: "Gold",
    description: "A smartwatch.",
    ticket: "T-0042",
    status: "awaiting_claim",
    claimBy: "2026-11-17T12:00:00.000Z",
    claimedAt: null,
    publicName: null,
    county: null,
    ...overrides,
  };
}

export function myDraw(overrides: Partial<MyDraw> = {}): MyDraw {
  return { month: "2026-10", status: "drawn", tickets: [], ticketCount: 0, prizes: [], ...overrides };
}
