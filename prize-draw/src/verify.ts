/**
 * Checking a published draw: everything a person needs to trust it, from the two public
 * documents alone (the results and the ticket list).
 */
import { DrawResults, type DrawWinner } from "@charity-steps/shared-types";
import { Value } from "typebox/value";
import { checkBeaconSignature, firstRoundAfter, KNOWN_DRAND_CHAINS } from "./beacon.js";
import { type DrawOutcome, drawWinners, redraw, type Winner } from "./draw.js";
import { seedCommitment } from "./seed.js";
import { fromHex, sha256Hex, utf8 } from "./sha256.js";
import { compareTicketIds, parseTicketList, type Ticket, TicketListError } from "./tickets.js";

export interface Finding {
  /** False for a mismatch: the draw does not check out. */
  ok: boolean;
  /** A sentence a person understands. */
  message: string;
}

export interface Verification {
  /** True when every finding is ok. */
  ok: boolean;
  findings: Finding[];
  /** The closing sentence: that the draw checks out, or how many problems were found. */
  summary: string;
}

const describe = (w: Pick<DrawWinner, "ticket" | "pick">) => `ticket ${w.ticket} (pick ${w.pick})`;
const same = (a: Winner, b: DrawWinner) =>
  a.tier === b.tier && a.ticket === b.ticket && a.holder === b.holder && a.pick === b.pick;

/**
 * Checks a draw's results against its ticket list: the seed against the commitment, the list
 * against its hash and count, the list's canonical order, the beacon's randomness against its
 * signature, and the winners (redraws included, in the order published) against a recomputation.
 * `results` is the parsed JSON of `GET /api/draws/{YYYY-MM}`, `ticketsText` the body of
 * `GET /api/draws/{YYYY-MM}/tickets`, exactly as served.
 */
export async function verifyDraw({
  results,
  ticketsText,
}: {
  results: unknown;
  ticketsText: string;
}): Promise<Verification> {
  const findings: Finding[] = [];
  const pass = (message: string) => findings.push({ ok: true, message });
  const fail = (message: string) => findings.push({ ok: false, message });
  const done = (month: string, tickets?: number, winners?: number): Verification => {
    const problems = findings.filter((finding) => !finding.ok).length;
    const summary =
      problems === 0
        ? `The draw for ${month} checks out: ${tickets} tickets, ${winners} winners.`
        : `The draw for ${month} does NOT check out: ${problems} problem${problems === 1 ? "" : "s"} found.`;
    return { ok: problems === 0, findings, summary };
  };

  if (!Value.Check(DrawResults, results)) {
    for (const error of Value.Errors(DrawResults, results).slice(0, 10)) {
      fail(
        `The results document is not in the published shape: ${error.instancePath || "the document"} ${error.message}.`,
      );
    }
    return done("this month");
  }
  const { month, commitment, seed, ticketCount, ticketListSha256: listHash, winners } = results;
  if (
    results.status !== "drawn" ||
    seed === undefined ||
    winners === undefined ||
    listHash === undefined ||
    ticketCount === undefined
  ) {
    fail(
      `The draw for ${month} has not been run yet (status "${results.status}"): there is nothing to check.`,
    );
    return done(month);
  }

  const seedHash = seedCommitment(seed);
  if (seedHash === commitment)
    pass(`SHA-256 of the revealed seed equals the commitment published before the draw (${commitment}).`);
  else
    fail(
      `SHA-256 of the revealed seed is ${seedHash}, not the published commitment ${commitment}: the seed is not the one committed to.`,
    );

  const textHash = sha256Hex(utf8(ticketsText));
  if (textHash === listHash)
    pass(`SHA-256 of the ticket list equals the published ticketListSha256 (${listHash}).`);
  else
    fail(
      `SHA-256 of the ticket list is ${textHash}, not the published ticketListSha256 ${listHash}: the list is not the one drawn from.`,
    );

  let tickets: Ticket[];
  try {
    tickets = parseTicketList(ticketsText);
  } catch (error) {
    if (!(error instanceof TicketListError)) throw error;
    fail(`The ticket list cannot be read: ${error.message}. The winners cannot be recomputed.`);
    return done(month);
  }

  if (ticketCount === tickets.length) pass(`The list holds ${tickets.length} tickets, as published.`);
  else fail(`The list holds ${tickets.length} tickets, but the results say ${ticketCount}.`);

  let canonical = true;
  const seen = new Set<string>();
  tickets.forEach((ticket, index) => {
    if (seen.has(ticket.id)) {
      canonical = false;
      fail(`Ticket ${ticket.id} appears more than once (again on line ${index + 1}).`);
    }
    seen.add(ticket.id);
    const previous = tickets[index - 1];
    if (previous !== undefined && compareTicketIds(previous.id, ticket.id) > 0) {
      canonical = false;
      fail(
        `Ticket ${ticket.id} on line ${index + 1} comes after ${previous.id}: the list is not in canonical order (by id).`,
      );
    }
  });
  if (canonical) pass("The list is in canonical order (by ticket id) with no ticket twice.");
  if (seen.size < tickets.length) {
    fail("With a ticket listed twice, the winners cannot be recomputed.");
    return done(month);
  }

  const beacon = results.beacon ?? null;
  if (beacon === null) pass("No drand beacon was used: the seed alone decided.");
  else {
    const randomness = sha256Hex(fromHex(beacon.signature, "the beacon signature"));
    if (randomness === beacon.randomness)
      pass(`The drand round ${beacon.round}'s randomness is SHA-256 of its signature.`);
    else
      fail(
        `The drand round ${beacon.round}'s randomness is not SHA-256 of its signature: the beacon is not genuine.`,
      );
    const signature = await checkBeaconSignature(beacon);
    if (signature.status === "valid") {
      pass(
        `The drand round ${beacon.round}'s signature is drand ${signature.network}'s own (checked against its public key).`,
      );
    } else if (signature.status === "invalid") {
      fail(
        `The drand round ${beacon.round}'s signature is not drand ${signature.network}'s signature of round ${beacon.round}: the beacon is not genuine.`,
      );
    } else {
      pass(
        `The beacon names drand network ${beacon.chainHash}, whose key this verifier does not hold: its signature is NOT checked (check round ${beacon.round} on that network yourself).`,
      );
    }
    const chain = KNOWN_DRAND_CHAINS[beacon.chainHash];
    if (chain !== undefined) {
      const expected = await firstRoundAfter(chain, Date.parse(results.closesAt));
      if (beacon.round === expected)
        pass(`Round ${beacon.round} is the network's first round after the close (${results.closesAt}).`);
      else
        fail(
          `The draw used round ${beacon.round}, but the network's first round after the close (${results.closesAt}) is ${expected}: the round was not the one the rules fix.`,
        );
    }
  }

  const input = { seed, beacon: beacon?.randomness ?? null, tickets };
  let outcome: DrawOutcome;
  try {
    outcome = drawWinners({ ...input, tiers: results.tiers });
  } catch (error) {
    if (!(error instanceof RangeError)) throw error;
    fail(`The draw cannot be recomputed: ${error.message}.`);
    return done(month);
  }
  const published = winners.filter((winner) => winner.replaces === undefined);
  let winnersMatch = true;
  for (const tier of results.tiers) {
    const expected = outcome.winners.filter((winner) => winner.tier === tier.name);
    const got = published.filter((winner) => winner.tier === tier.name);
    for (let i = 0; i < Math.max(expected.length, got.length); i++) {
      const want = expected[i];
      const have = got[i];
      if (want !== undefined && have !== undefined && same(want, have)) continue;
      winnersMatch = false;
      const place = `${tier.name} prize ${i + 1}`;
      if (want === undefined)
        fail(`${place}: the results name ${describe(have as DrawWinner)}, but the draw gives no such prize.`);
      else if (have === undefined)
        fail(`${place}: the draw gives ${describe(want)}, but the results name no winner.`);
      else
        fail(
          `${place}: the results name ${describe(have)} of holder ${have.holder}, but the draw gives ${describe(want)} of holder ${want.holder}.`,
        );
    }
  }
  const unknownTiers = published.filter((winner) => !results.tiers.some((tier) => tier.name === winner.tier));
  for (const winner of unknownTiers) {
    winnersMatch = false;
    fail(
      `The results name ${describe(winner)} for tier ${winner.tier}, which is not one of the draw's tiers.`,
    );
  }
  if (winnersMatch) {
    const unfilled = outcome.unfilled.reduce((sum, tier) => sum + tier.prizes, 0);
    pass(
      `Recomputed from the seed${beacon ? " and the beacon" : ""} over the ${tickets.length} tickets, the ${published.length} winners match, tier by tier` +
        (unfilled > 0
          ? `; ${unfilled} prize${unfilled === 1 ? "" : "s"} left unfilled, every holder having won.`
          : "."),
    );
  }

  // Redraws continue the sequence, in the order published, each skipping every holder who won before it.
  const earlier: DrawWinner[] = [...published];
  let picksUsed = outcome.picksUsed;
  for (const winner of winners) {
    if (winner.replaces === undefined) continue;
    const replaced = earlier.find((previous) => previous.pick === winner.replaces);
    if (replaced === undefined) {
      fail(`The redraw ${describe(winner)} replaces pick ${winner.replaces}, which is no earlier winner.`);
      return done(month);
    }
    const next = redraw({ ...input, picksUsed, pastWinners: earlier.map((previous) => previous.holder) });
    picksUsed = next.picksUsed;
    if (
      next.winner !== null &&
      replaced.tier === winner.tier &&
      same({ tier: winner.tier, ...next.winner }, winner)
    ) {
      pass(
        `The ${winner.tier} redraw replacing pick ${winner.replaces} is the next pick of the sequence: ${describe(winner)}.`,
      );
    } else if (next.winner === null) {
      fail(
        `The results name a redraw ${describe(winner)}, but every holder had already won: there is no one to redraw.`,
      );
    } else {
      fail(
        `The ${replaced.tier} redraw replacing pick ${winner.replaces}: the results name ${describe(winner)} in tier ${winner.tier}, but the sequence gives ${describe(next.winner)} of holder ${next.winner.holder}.`,
      );
    }
    earlier.push(winner);
  }

  const holders = new Set(winners.map((winner) => winner.holder));
  if (holders.size === winners.length) pass("No holder won more than one prize this month.");
  else fail("A holder won more than one prize this month.");

  return done(month, tickets.length, winners.length);
}
