/**
 * Picking the winners.
 *
 * The tickets are put in canonical order (see tickets.ts) and numbered from 0. One "pick" is one
 * `uniformIndex(ticketCount)` on the draw's stream (see random.ts): the ticket at that number.
 * Picks are numbered from 0 in the order they are made, skipped ones included.
 *
 * The tiers are drawn in the order given, each tier's prizes one after another. For each prize,
 * picks are made until one lands on a ticket whose holder has not already won this month; that
 * ticket wins the prize. When every holder has won, the remaining prizes stay unfilled (no pick
 * is made for them) and the result says how many.
 *
 * A redraw (an unclaimed prize given again) continues the same sequence: picks are made from the
 * first one not yet used, skipping every holder who has already won this month, the one whose
 * prize is being redrawn included.
 */
import { DrawStream } from "./random.js";
import { canonicalTickets, type Ticket } from "./tickets.js";

export interface DrawTierInput {
  /** Platinum, Gold, Silver, Bronze, or any other name. */
  name: string;
  prizes: number;
}

export interface DrawInput {
  /** 32 bytes as 64 lower-case hex digits. */
  seed: string;
  /** The drand round's randomness, 64 lower-case hex digits; null or absent for none. */
  beacon?: string | null;
  tickets: readonly Ticket[];
  tiers: readonly DrawTierInput[];
}

export interface Win {
  ticket: string;
  holder: string;
  /** The number of the pick that chose it. */
  pick: number;
}

export interface Winner extends Win {
  tier: string;
}

export interface DrawOutcome {
  /** In the order drawn. */
  winners: Winner[];
  /** Picks made, skipped ones included: a redraw continues from this one. */
  picksUsed: number;
  /** Prizes left without a winner because every holder had already won, per tier, in tier order. */
  unfilled: { tier: string; prizes: number }[];
}

/** The picks of one draw's sequence, over its canonical tickets. */
class Picker {
  private readonly stream: DrawStream;
  private readonly tickets: Ticket[];
  private readonly holders: Set<string>;
  picksUsed = 0;

  constructor(input: { seed: string; beacon?: string | null; tickets: readonly Ticket[] }) {
    this.stream = new DrawStream(input.seed, input.beacon);
    this.tickets = canonicalTickets(input.tickets);
    this.holders = new Set(this.tickets.map((ticket) => ticket.holder));
  }

  /** Makes the picks up to (not including) pick number `picks`, as the earlier draw did. */
  skipTo(picks: number): void {
    if (!Number.isInteger(picks) || picks < 0) {
      throw new RangeError(`picksUsed must be a whole number from 0, got ${picks}`);
    }
    if (picks > 0 && this.tickets.length === 0) throw new RangeError("a draw with no tickets makes no picks");
    while (this.picksUsed < picks) this.pick();
  }

  private pick(): Win {
    const pick = this.picksUsed++;
    const ticket = this.tickets[this.stream.uniformIndex(this.tickets.length)] as Ticket;
    return { ticket: ticket.id, holder: ticket.holder, pick };
  }

  /** The next pick whose holder is not in `won`, or null when every holder is. */
  nextWinner(won: ReadonlySet<string>): Win | null {
    let left = 0;
    for (const holder of this.holders) if (!won.has(holder)) left++;
    if (left === 0) return null;
    for (;;) {
      const win = this.pick();
      if (!won.has(win.holder)) return win;
    }
  }
}

function checkTiers(tiers: readonly DrawTierInput[]): void {
  const names = new Set<string>();
  for (const tier of tiers) {
    // Winners are matched to their tier by name, so two tiers of one name could not be told apart.
    if (names.has(tier.name)) throw new RangeError(`tier ${tier.name} appears more than once`);
    names.add(tier.name);
    if (!Number.isInteger(tier.prizes) || tier.prizes < 0) {
      throw new RangeError(`tier ${tier.name} must have a whole number of prizes from 0, got ${tier.prizes}`);
    }
  }
}

/** The month's winners, tier by tier; the same inputs always give the same winners. */
export function drawWinners(input: DrawInput): DrawOutcome {
  checkTiers(input.tiers);
  const picker = new Picker(input);
  const won = new Set<string>();
  const winners: Winner[] = [];
  const unfilled: DrawOutcome["unfilled"] = [];
  for (const tier of input.tiers) {
    let missing = 0;
    for (let prize = 0; prize < tier.prizes; prize++) {
      const win = picker.nextWinner(won);
      if (win === null) {
        missing++;
        continue;
      }
      won.add(win.holder);
      winners.push({ tier: tier.name, ...win });
    }
    if (missing > 0) unfilled.push({ tier: tier.name, prizes: missing });
  }
  return { winners, picksUsed: picker.picksUsed, unfilled };
}

export interface RedrawInput {
  seed: string;
  beacon?: string | null;
  tickets: readonly Ticket[];
  /** Picks already made for this month: the draw's `picksUsed`, or the last redraw's. */
  picksUsed: number;
  /** Every holder who has won this month, the one whose prize is redrawn included. */
  pastWinners: Iterable<string>;
}

export interface RedrawOutcome {
  /** Null when every holder has already won: the prize stays unfilled. */
  winner: Win | null;
  /** Picks made so far, this redraw's included: the next redraw continues from here. */
  picksUsed: number;
}

/** The next winner of the same sequence, for a prize whose winner did not claim it. */
export function redraw(input: RedrawInput): RedrawOutcome {
  const picker = new Picker(input);
  picker.skipTo(input.picksUsed);
  const winner = picker.nextWinner(new Set(input.pastWinners));
  return { winner, picksUsed: picker.picksUsed };
}
