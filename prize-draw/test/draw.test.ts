import { describe, expect, it } from "vitest";
import { drawWinners, redraw } from "../src/draw.js";
import { BEACON, makeTickets, SEED, TIERS } from "./fixtures.js";

const tiers = TIERS.map(({ name, prizes }) => ({ name, prizes }));

describe("drawing the winners", () => {
  it("gives these winners for the fixture draw without a beacon (golden vector)", () => {
    // Pinned: a change here is a change to the published algorithm.
    const outcome = drawWinners({ seed: SEED, tickets: makeTickets(40, 25), tiers });
    expect(
      outcome.winners.map(({ tier, ticket, holder, pick }) => `${tier} ${ticket} ${holder} ${pick}`),
    ).toEqual([
      "Platinum t0037 h12 0",
      "Gold t0038 h13 1",
      "Gold t0017 h17 2",
      "Silver t0010 h10 3",
      "Silver t0003 h03 4",
      "Silver t0032 h07 6", // pick 5 landed on a holder who had already won
      "Bronze t0004 h04 7",
      "Bronze t0001 h01 11",
      "Bronze t0023 h23 12",
      "Bronze t0015 h15 14",
    ]);
    expect(outcome.picksUsed).toBe(15);
    expect(outcome.unfilled).toEqual([]);
  });

  it("gives these winners with the beacon mixed in (golden vector)", () => {
    const outcome = drawWinners({
      seed: SEED,
      beacon: BEACON.randomness,
      tickets: makeTickets(40, 25),
      tiers,
    });
    expect(outcome.winners.map(({ ticket, pick }) => `${ticket}@${pick}`)).toEqual([
      "t0013@0",
      "t0008@2",
      "t0035@4",
      "t0006@5",
      "t0028@6",
      "t0002@7",
      "t0030@8",
      "t0012@11",
      "t0032@12",
      "t0011@16",
    ]);
    expect(outcome.picksUsed).toBe(17);
  });

  it("is deterministic, and does not depend on the order the tickets are given in", () => {
    const tickets = makeTickets(300, 120);
    const first = drawWinners({ seed: SEED, beacon: BEACON.randomness, tickets, tiers });
    expect(drawWinners({ seed: SEED, beacon: BEACON.randomness, tickets, tiers })).toEqual(first);
    expect(
      drawWinners({ seed: SEED, beacon: BEACON.randomness, tickets: [...tickets].reverse(), tiers }),
    ).toEqual(first);
    const otherSeed = `${SEED.slice(0, -1)}0`;
    expect(drawWinners({ seed: otherSeed, beacon: BEACON.randomness, tickets, tiers }).winners).not.toEqual(
      first.winners,
    );
  });

  it("gives one prize per holder, however many tickets a holder has", () => {
    // Holder h00 holds 97 of 100 tickets: they win once, the other three holders fill the rest.
    const tickets = makeTickets(100, 1).map((ticket, i) => (i < 3 ? { ...ticket, holder: `p${i}` } : ticket));
    for (let s = 0; s < 20; s++) {
      const seed = s.toString(16).padStart(64, "0");
      const outcome = drawWinners({ seed, tickets, tiers: [{ name: "Gold", prizes: 4 }] });
      const holders = outcome.winners.map((winner) => winner.holder);
      expect(new Set(holders).size).toBe(4);
      expect(holders.sort()).toEqual(["h00", "p0", "p1", "p2"]);
    }
  });

  it("leaves prizes unfilled when there are fewer holders than prizes, and says so", () => {
    const outcome = drawWinners({ seed: SEED, tickets: makeTickets(12, 4), tiers });
    expect(outcome.winners).toHaveLength(4);
    expect(new Set(outcome.winners.map((winner) => winner.holder)).size).toBe(4);
    // Platinum 1 + Gold 2 + Silver 1 filled; 2 Silver and 4 Bronze left.
    expect(outcome.unfilled).toEqual([
      { tier: "Silver", prizes: 2 },
      { tier: "Bronze", prizes: 4 },
    ]);
    const none = drawWinners({ seed: SEED, tickets: [], tiers });
    expect(none).toEqual({
      winners: [],
      picksUsed: 0,
      unfilled: tiers.map(({ name, prizes }) => ({ tier: name, prizes })),
    });
  });

  it("draws each prize uniformly over all tickets (picks that skip a past winner still count)", () => {
    const outcome = drawWinners({ seed: SEED, tickets: makeTickets(40, 25), tiers });
    const picks = outcome.winners.map((winner) => winner.pick);
    expect(picks).toEqual([...picks].sort((a, b) => a - b));
    expect(outcome.picksUsed).toBe((picks.at(-1) ?? -1) + 1);
  });

  it("refuses a tier with a negative or fractional number of prizes", () => {
    expect(() =>
      drawWinners({ seed: SEED, tickets: makeTickets(5, 5), tiers: [{ name: "Gold", prizes: -1 }] }),
    ).toThrow(RangeError);
    expect(() =>
      drawWinners({ seed: SEED, tickets: makeTickets(5, 5), tiers: [{ name: "Gold", prizes: 1.5 }] }),
    ).toThrow(/Gold/);
    expect(() =>
      drawWinners({
        seed: SEED,
        tickets: makeTickets(5, 5),
        tiers: [
          { name: "Gold", prizes: 1 },
          { name: "Gold", prizes: 2 },
        ],
      }),
    ).toThrow("tier Gold appears more than once");
  });
});

describe("redrawing an unclaimed prize", () => {
  const tickets = makeTickets(40, 25);
  const input = { seed: SEED, beacon: BEACON.randomness, tickets };

  it("is the next pick of the same sequence that lands on a holder who has not won", () => {
    const outcome = drawWinners({ ...input, tiers });
    const pastWinners = outcome.winners.map((winner) => winner.holder);
    const next = redraw({ ...input, picksUsed: outcome.picksUsed, pastWinners });
    // The same as drawing one more prize in a longer draw.
    const longer = drawWinners({ ...input, tiers: [...tiers, { name: "Extra", prizes: 1 }] });
    const extra = longer.winners.at(-1);
    expect(next.winner).toEqual({ ticket: extra?.ticket, holder: extra?.holder, pick: extra?.pick });
    expect(next.picksUsed).toBe(longer.picksUsed);
    expect(pastWinners).not.toContain(next.winner?.holder);
  });

  it("excludes every past winner, the one being replaced included, and chains from the last redraw", () => {
    const outcome = drawWinners({ ...input, tiers });
    const pastWinners = outcome.winners.map((winner) => winner.holder);
    const first = redraw({ ...input, picksUsed: outcome.picksUsed, pastWinners });
    const second = redraw({
      ...input,
      picksUsed: first.picksUsed,
      pastWinners: [...pastWinners, first.winner?.holder ?? ""],
    });
    expect(second.winner?.pick).toBeGreaterThanOrEqual(first.picksUsed);
    expect([...pastWinners, first.winner?.holder]).not.toContain(second.winner?.holder);
    // Golden (also computed by the Python reference in docs/prize-draw.md): pinned so that a change
    // to how redraws continue the sequence is caught. Pick 18 landed on a past winner.
    expect([first.winner, second.winner]).toEqual([
      { ticket: "t0022", holder: "h22", pick: 17 },
      { ticket: "t0000", holder: "h00", pick: 19 },
    ]);
  });

  it("finds no one when every holder has won", () => {
    const few = makeTickets(6, 2);
    const outcome = drawWinners({ seed: SEED, tickets: few, tiers });
    const next = redraw({
      seed: SEED,
      tickets: few,
      picksUsed: outcome.picksUsed,
      pastWinners: outcome.winners.map((winner) => winner.holder),
    });
    expect(next).toEqual({ winner: null, picksUsed: outcome.picksUsed });
  });
});
