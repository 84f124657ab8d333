/**
 * A month's prize draw from its close to its last redraw: what operators run, what the scheduled
 * job runs, and what walkers and the public read. The picking itself is `@charity-steps/prize-draw`;
 * this module decides when it may happen and keeps the result.
 */
import { drawWinners, redraw, serializeTickets } from "@charity-steps/prize-draw";
import {
  addMonths,
  articleFor,
  DRAW_CLAIM_MESSAGES,
  DRAW_MESSAGES,
  DRAW_PRIZES_MAX,
  DRAW_RUN_MESSAGES,
  type DrawResults,
  type DrawSummary,
  type DrawTier,
  drawPostalClosesAt,
  drawResultsPagePath,
  formatMonth,
  isolated,
  londonDateTime,
  londonMonth,
  MY_TICKETS_LIST_MAX,
  type MyDraw,
  type MyPrize,
  type OperatorDraw,
  type OperatorPrize,
  type PrizeClaimRequest,
  type PrizeStatus,
  prizeClaimPagePath,
  repeatsTierName,
  trimInvisible,
} from "@charity-steps/shared-types";
import type { FastifyBaseLogger } from "fastify";
import type { AppConfig } from "../config.js";
import {
  AppError,
  BadRequestError,
  BusyError,
  ConflictError,
  NotFoundError,
  UnprocessableError,
} from "../errors.js";
import { mailLayout } from "../mail/mail.js";
import type { Notice, Notifier } from "../notifications/notifier.js";
import {
  type DrawRow,
  type DrawsRepository,
  drawBeacon,
  drawTiers,
  type PrizeRow,
  type PrizeWithWinner,
} from "../repositories/draws.js";
import { BeaconError, type BeaconSource } from "./drand-beacon.js";
import type { DrawClose } from "./draw-close.js";

/** Ticket lists kept in memory: a drawn month's never changes, and the last few are what is asked for. */
const TICKET_LISTS_CACHED = 3;
/** Winners told per look: the rest wait for the next. */
const NOTIFY_BATCH = 100;

export interface DrawServiceDeps {
  draws: DrawsRepository;
  close: DrawClose;
  /** Tells winners, ticket holders and prizes waiting, in the app, by push and by email. */
  notifier: Pick<Notifier, "tell" | "notify">;
  config: Pick<AppConfig, "publicUrl" | "drawAutoRun">;
  log: FastifyBaseLogger;
  beacon: BeaconSource | null;
}

const iso = (ms: number | null) => (ms === null ? null : new Date(Number(ms)).toISOString());

/** What a prize row's status reads as at `now`: an unclaimed prize past its days to claim has expired. */
export function prizeStatus(row: Pick<PrizeRow, "status" | "claim_by">, now = Date.now()): PrizeStatus {
  if (row.status === "awaiting_claim" && Number(row.claim_by) < now) return "expired";
  return row.status as PrizeStatus;
}

export class DrawService {
  private readonly repository: DrawsRepository;
  private readonly ticketLists = new Map<string, string>();

  constructor(private readonly deps: DrawServiceDeps) {
    this.repository = deps.draws;
  }

  /** When `month`'s step entries are counted, in epoch milliseconds. */
  closeTime(month: string): number {
    return this.deps.close.closeTime(month);
  }

  /** Closes the month if it is past its close and still open; true once it is closed. */
  close(month: string, now = Date.now()): Promise<boolean> {
    return this.deps.close.close(month, now);
  }

  /**
   * The month's draw, opened (its seed made and committed to) on first ask, but only before its
   * close: a commitment made once the entries are counted, or once the beacon round is public,
   * would prove nothing, so a month that closed without a draw has none (404).
   */
  async draw(month: string, now = Date.now()): Promise<DrawRow> {
    const row = await this.repository.find(month);
    if (row) return row;
    if (now >= this.closeTime(month)) throw new NotFoundError(DRAW_MESSAGES.neverOpened);
    return this.repository.ensure(month, now);
  }

  /** The months that have a draw, from `from` on, newest first. */
  async list(from: string, now = Date.now()): Promise<DrawSummary[]> {
    return (await this.repository.list(from)).map((draw) => ({
      month: draw.month,
      status: draw.status === "open" && now >= this.closeTime(draw.month) ? "closed" : draw.status,
    }));
  }

  /** The month's public record; `status` reads `closed` from the close on, even before the close has run. */
  async results(month: string, now = Date.now()): Promise<DrawResults> {
    return this.resultsOf(await this.draw(month, now), now);
  }

  private async resultsOf(row: DrawRow, now: number): Promise<DrawResults> {
    const { month } = row;
    const base: DrawResults = {
      month,
      status:
        row.status === "open" && now >= this.closeTime(month)
          ? "closed"
          : (row.status as DrawResults["status"]),
      commitment: row.commitment,
      closesAt: new Date(this.closeTime(month)).toISOString(),
      postalClosesAt: drawPostalClosesAt(month).toISOString(),
      tiers: drawTiers(row),
    };
    if (row.status !== "drawn") return base;
    const prizes = await this.repository.prizes(month);
    return {
      ...base,
      ticketCount: Number(row.ticket_count),
      ticketListSha256: row.ticket_list_sha256 ?? "",
      seed: row.seed,
      beacon: drawBeacon(row),
      winners: prizes.map((prize) => ({
        tier: prize.tier,
        ticket: prize.ticket_id,
        holder: prize.holder_id,
        pick: Number(prize.pick),
        ...(prize.replaces_pick === null ? {} : { replaces: Number(prize.replaces_pick) }),
        ...(prize.status === "claimed" ? { publicName: prize.public_name, county: prize.county } : {}),
        ...(prizeStatus(prize, now) === "expired" || prize.status === "redrawn"
          ? { unclaimed: true as const }
          : {}),
      })),
    };
  }

  /** The canonical ticket list of a drawn month, as published; null before the draw. */
  async ticketList(month: string): Promise<string | null> {
    const cached = this.ticketLists.get(month);
    if (cached !== undefined) return cached;
    const row = await this.repository.find(month);
    if (row?.status !== "drawn") return null;
    const text = serializeTickets(await this.repository.tickets(month));
    if (this.ticketLists.size >= TICKET_LISTS_CACHED) {
      const oldest = this.ticketLists.keys().next().value;
      if (oldest !== undefined) this.ticketLists.delete(oldest);
    }
    this.ticketLists.set(month, text);
    return text;
  }

  /** Sets the month's tiers; only before the close. */
  async setTiers(
    month: string,
    tiers: DrawTier[],
    operatorId: string,
    now = Date.now(),
  ): Promise<OperatorDraw> {
    const clean = tiers.map((tier) => ({
      ...tier,
      name: trimInvisible(tier.name),
      description: trimInvisible(tier.description),
    }));
    if (clean.some((tier) => tier.name === ""))
      throw new BadRequestError(DRAW_CLAIM_MESSAGES.blankField("A tier's name"));
    if (repeatsTierName(clean.map((tier) => tier.name))) {
      throw new UnprocessableError(DRAW_RUN_MESSAGES.tierNamesRepeat);
    }
    if (clean.reduce((sum, tier) => sum + tier.prizes, 0) > DRAW_PRIZES_MAX) {
      throw new UnprocessableError(DRAW_RUN_MESSAGES.tooManyPrizes);
    }
    await this.draw(month, now);
    if (now >= this.closeTime(month) || !(await this.repository.setTiers(month, clean, operatorId, now))) {
      throw new ConflictError(DRAW_RUN_MESSAGES.tiersAfterClose);
    }
    return this.operatorView(month, now);
  }

  /**
   * Draws the month's winners, once: `{ drawn: false }` with the results of the one draw when it
   * had already been run (by anyone, in any process). Refused before the close; a 503 when the
   * beacon round after the close cannot be had yet.
   */
  async run(
    month: string,
    operatorId: string | null,
    now = Date.now(),
  ): Promise<{ drawn: boolean; results: DrawResults }> {
    const closesAt = this.closeTime(month);
    // Refused before anything is written: asking too early must not commit the month's seed.
    if (now < closesAt)
      throw new ConflictError(DRAW_RUN_MESSAGES.beforeClose(`${londonDateTime(closesAt)} (London time)`));
    let row = await this.draw(month, now);
    if (row.status === "drawn") return { drawn: false, results: await this.resultsOf(row, now) };
    await this.close(month, now);

    let beacon = null;
    if (this.deps.beacon) {
      let round: Awaited<ReturnType<BeaconSource["roundAfter"]>>;
      try {
        round = await this.deps.beacon.roundAfter(new Date(closesAt));
      } catch (error) {
        if (!(error instanceof BeaconError)) throw error;
        this.deps.log.warn({ err: error, month }, "draw: the beacon round could not be fetched");
        throw new AppError(503, `${DRAW_RUN_MESSAGES.beaconUnavailable} (${error.message})`);
      }
      if (round === "not-yet") throw new BusyError(DRAW_RUN_MESSAGES.beaconUnavailable);
      beacon = round;
    }

    row = (await this.repository.find(month)) ?? row;
    if (row.status === "drawn") return { drawn: false, results: await this.resultsOf(row, now) };
    const outcome = drawWinners({
      seed: row.seed,
      beacon: beacon?.randomness ?? null,
      tickets: await this.repository.tickets(month),
      tiers: drawTiers(row),
    });
    const stored = await this.repository.recordDraw(
      month,
      { beacon, winners: outcome.winners, picksUsed: outcome.picksUsed, operatorId },
      now,
    );
    const results = await this.results(month, now);
    if (stored) {
      this.deps.log.info({ month, winners: outcome.winners.length, unfilled: outcome.unfilled }, "draw run");
      await this.notifyWinners(now);
    }
    return { drawn: stored, results };
  }

  /** Gives an unclaimed prize whose days to claim have passed to the next pick of the sequence. */
  async redraw(
    prizeId: string,
    operatorId: string,
    now = Date.now(),
  ): Promise<{ results: DrawResults; prize: OperatorPrize | null }> {
    const prize = await this.repository.findPrize(prizeId);
    if (!prize) throw new NotFoundError(DRAW_RUN_MESSAGES.noSuchPrize);
    const status = prizeStatus(prize, now);
    if (status === "claimed") throw new ConflictError(DRAW_RUN_MESSAGES.redrawClaimed);
    if (status === "redrawn") throw new ConflictError(DRAW_RUN_MESSAGES.redrawAgain);
    if (status === "awaiting_claim") {
      throw new ConflictError(
        DRAW_RUN_MESSAGES.redrawTooSoon(`${londonDateTime(Number(prize.claim_by))} (London time)`),
      );
    }
    const row = await this.repository.find(prize.month);
    if (row?.status !== "drawn" || row.picks_used === null)
      throw new NotFoundError(DRAW_RUN_MESSAGES.noSuchPrize);
    const next = redraw({
      seed: row.seed,
      beacon: drawBeacon(row)?.randomness ?? null,
      tickets: await this.repository.tickets(prize.month),
      picksUsed: Number(row.picks_used),
      pastWinners: await this.repository.winningHolders(prize.month),
    });
    const newId = await this.repository.recordRedraw(
      {
        prize,
        picksBefore: Number(row.picks_used),
        picksAfter: next.picksUsed,
        winner: next.winner,
        operatorId,
      },
      now,
    );
    if (newId === null) {
      throw new ConflictError(
        "This prize or its draw changed while it was being redrawn. Please reload and try again.",
      );
    }
    await this.notifyWinners(now);
    const prizes = await this.repository.prizes(prize.month);
    const added = prizes.find((candidate) => candidate.id === newId);
    return {
      results: await this.results(prize.month, now),
      prize: added ? toOperatorPrize(added, now) : null,
    };
  }

  /** Records the winner's claim: theirs, in time, once. */
  async claim(
    prizeId: string,
    userId: string,
    request: PrizeClaimRequest,
    now = Date.now(),
  ): Promise<MyPrize> {
    const claim = cleanClaim(request);
    const claimed = await this.repository.claim(prizeId, { userId }, claim, now);
    const prize = await this.repository.findPrize(prizeId);
    if (!prize || prize.user_id !== userId) throw new NotFoundError(DRAW_CLAIM_MESSAGES.notYours);
    if (!claimed) throw claimRefusal(prize, now);
    return toMyPrize(prize, now);
  }

  /**
   * Records a postal winner's claim as they sent it back (they have no account to claim with):
   * in time, once, and in the audit log. A walker's prize is theirs to claim in the app.
   */
  async recordPostalClaim(
    prizeId: string,
    operatorId: string,
    request: PrizeClaimRequest,
    now = Date.now(),
  ): Promise<OperatorPrize> {
    const claim = cleanClaim(request);
    const before = await this.repository.findPrize(prizeId);
    if (!before) throw new NotFoundError(DRAW_RUN_MESSAGES.noSuchPrize);
    if (before.postal_entry_id === null) throw new ConflictError(DRAW_CLAIM_MESSAGES.walkerClaimsInApp);
    if (!(await this.repository.claim(prizeId, { operatorId }, claim, now))) throw claimRefusal(before, now);
    const prize = (await this.repository.prizes(before.month)).find((candidate) => candidate.id === prizeId);
    if (!prize) throw new NotFoundError(DRAW_RUN_MESSAGES.noSuchPrize);
    return toOperatorPrize(prize, now);
  }

  /** The walker's tickets and prizes for the month. */
  async mine(userId: string, month: string, now = Date.now()): Promise<MyDraw> {
    const results = await this.results(month, now);
    const tickets =
      results.status === "open"
        ? { ids: [], count: 0 }
        : await this.repository.ticketsOf(userId, month, MY_TICKETS_LIST_MAX);
    const prizes = await this.repository.prizesOf(userId, month);
    return {
      month,
      status: results.status,
      tickets: tickets.ids,
      ticketCount: tickets.count,
      prizes: prizes.map((prize) => toMyPrize(prize, now)),
    };
  }

  /** For the walker's data export: each month they hold tickets in, with their ids and prizes. */
  async exportOf(userId: string, now = Date.now()) {
    const months = await this.repository.ticketMonthsOf(userId);
    const prizes = await this.repository.prizesOf(userId);
    const all = [...new Set([...months, ...prizes.map((prize) => prize.month)])].sort().reverse();
    return Promise.all(
      all.map(async (month) => ({
        month,
        tickets: (await this.repository.ticketsOf(userId, month, Number.MAX_SAFE_INTEGER)).ids,
        prizes: prizes
          .filter((prize) => prize.month === month)
          .map((prize) => ({ ...toMyPrize(prize, now), deliveryAddress: prize.delivery_address })),
      })),
    );
  }

  async myPrizes(userId: string, now = Date.now()): Promise<MyPrize[]> {
    return (await this.repository.prizesOf(userId)).map((prize) => toMyPrize(prize, now));
  }

  async operatorView(month: string, now = Date.now()): Promise<OperatorDraw> {
    // Past its close, the month is closed here if nothing has closed it yet: the counts show at once.
    await this.draw(month, now);
    await this.close(month, now);
    const row = await this.draw(month, now);
    const counted = row.status !== "open";
    const kinds = counted ? await this.repository.ticketKinds(month) : null;
    const prizes = await this.repository.prizes(month);
    return {
      results: await this.resultsOf(row, now),
      walkerTickets: kinds?.walker ?? null,
      postalTickets: kinds?.postal ?? null,
      tiersEditable: row.status === "open" && now < this.closeTime(month),
      prizes: prizes.map((prize) => toOperatorPrize(prize, now)),
    };
  }

  /**
   * Tells each walker who has won and not been told yet: in the app, by push and by email (the
   * claim's steps) as they choose. Told first and marked after, so that a process stopping between
   * the two leaves the win to be told again, which the notification's row per prize makes a no-op.
   * Postal winners are written to by operators.
   */
  async notifyWinners(now = Date.now()): Promise<void> {
    for (const prize of await this.repository.unnotifiedPrizes(NOTIFY_BATCH)) {
      if (prize.user_id !== null) {
        try {
          await this.deps.notifier.notify(this.winNotice(prize, prize.user_id), now);
        } catch (error) {
          this.deps.log.warn(
            { err: error, prize: prize.id },
            "draw: the winner could not be told; tried again",
          );
          continue;
        }
      }
      await this.repository.markNotified(prize.id, now);
    }
  }

  private winNotice(prize: PrizeRow, userId: string): Notice {
    const { publicUrl } = this.deps.config;
    const month = formatMonth(prize.month);
    const claimBy = londonDateTime(Number(prize.claim_by));
    // Operators name the tiers: "an Eco prize" as well as "a Gold prize".
    const aPrize = `${articleFor(prize.tier)} ${isolated(prize.tier)} prize`;
    return {
      userId,
      kind: "prize_won",
      eventKey: prize.id,
      title: "You won a prize!",
      body: `Your ticket won ${aPrize} in the draw for ${month}. Claim it by ${claimBy} (London time).`,
      url: prizeClaimPagePath(prize.id),
      mail: (walker, links) => ({
        subject: `You won ${aPrize} in the Charity Steps draw for ${month}`,
        ...mailLayout({
          greeting: walker.firstName ? `Hello ${isolated(walker.firstName)},` : "Hello there,",
          paragraphs: [
            `Your ticket ${prize.ticket_id} won ${aPrize} in the draw for ${month}: ${isolated(prize.description)}`,
            `To receive it, claim it by ${claimBy} (London time): confirm that you are 18 or over, give the name and county to publish with the results, and say where to send the prize. A prize not claimed by then may be drawn again for someone else.`,
            `The draw's results, and how to check them yourself: ${publicUrl}${drawResultsPagePath(prize.month)}`,
          ],
          action: { label: "Claim your prize", url: `${publicUrl}${prizeClaimPagePath(prize.id)}` },
          unsubscribe: { reason: links.unsubscribeReason, url: links.unsubscribe },
        }),
      }),
    };
  }

  /**
   * The scheduled job, run by every process: publishes this month's and next month's
   * commitments, closes each month whose close has passed, runs the closed months' draws when
   * `DRAW_AUTO_RUN` allows, and mails winners not yet told. Each step is guarded in the
   * database, so several processes running it at once still do each thing once.
   */
  async tick(now = Date.now()): Promise<void> {
    // Last month's too while it is open (the first days of a month): one no process saw begin
    // still gets its draw, as long as the commitment comes before the close.
    const thisMonth = londonMonth(now);
    for (const offset of [-1, 0, 1]) {
      const month = addMonths(thisMonth, offset);
      if (now < this.closeTime(month)) await this.repository.ensure(month, now);
    }
    for (const month of await this.repository.monthsIn("open")) {
      if (now >= this.closeTime(month)) await this.close(month, now);
    }
    if (this.deps.config.drawAutoRun) {
      for (const month of await this.repository.monthsIn("closed")) {
        try {
          await this.run(month, null, now);
        } catch (error) {
          // Most often the beacon round is not out yet: the next look tries again.
          this.deps.log.warn({ err: error, month }, "draw: the scheduled run did not happen this time");
        }
      }
    }
    await this.notifyWinners(now);
    await this.tellResults(now);
    await this.remindClaims(now);
  }

  /** Tells each walker who held a ticket in a newly drawn month that its results are out. */
  async tellResults(now = Date.now()): Promise<void> {
    for (const month of await this.repository.monthsWithResultsUntold()) {
      const holders = await this.repository.claimResultsNotice(month, now);
      for (const userId of holders ?? []) {
        await this.deps.notifier.tell({
          userId,
          kind: "draw_results",
          eventKey: month,
          title: `The ${formatMonth(month)} draw's results are out`,
          body: `See who won in the draw for ${formatMonth(month)}, and check the draw yourself.`,
          url: drawResultsPagePath(month),
        });
      }
    }
  }

  /** Reminds a winner on the 7th and the 12th day after the draw, while their prize is unclaimed. */
  async remindClaims(now = Date.now()): Promise<void> {
    for (const day of CLAIM_REMINDER_DAYS) {
      for (const prize of await this.repository.prizesToRemind(now - day * DAY_MS, day, now)) {
        if (prize.user_id === null) continue;
        await this.deps.notifier.tell({
          userId: prize.user_id,
          kind: "prize_claim_reminder",
          eventKey: `${prize.id}:${day}`,
          title: "Your prize is waiting to be claimed",
          body: `Claim your ${isolated(prize.tier)} prize from the draw for ${formatMonth(prize.month)} by ${londonDateTime(Number(prize.claim_by))} (London time), or it may be drawn again for someone else.`,
          url: prizeClaimPagePath(prize.id),
        });
      }
    }
  }
}

/** The days after a draw on which an unclaimed prize's winner is reminded. */
export const CLAIM_REMINDER_DAYS = [7, 12] as const;
const DAY_MS = 86_400_000;

/** A claim's fields trimmed; a blank one is the caller's mistake (400). */
function cleanClaim(request: PrizeClaimRequest) {
  const claim = {
    publicName: trimInvisible(request.publicName),
    county: trimInvisible(request.county),
    deliveryAddress: trimInvisible(request.deliveryAddress),
  };
  if (claim.publicName === "")
    throw new BadRequestError(DRAW_CLAIM_MESSAGES.blankField("The name to publish"));
  if (claim.county === "") throw new BadRequestError(DRAW_CLAIM_MESSAGES.blankField("The county"));
  if (claim.deliveryAddress === "")
    throw new BadRequestError(DRAW_CLAIM_MESSAGES.blankField("The delivery address"));
  return claim;
}

/** Why a claim on `prize` was not recorded: already claimed, redrawn, or past its days. */
function claimRefusal(prize: PrizeRow, now: number): ConflictError {
  const status = prizeStatus(prize, now);
  if (status === "claimed") return new ConflictError(DRAW_CLAIM_MESSAGES.alreadyClaimed);
  if (status === "redrawn") return new ConflictError(DRAW_CLAIM_MESSAGES.redrawn);
  return new ConflictError(DRAW_CLAIM_MESSAGES.expired);
}

function toMyPrize(row: PrizeRow, now: number): MyPrize {
  const status = prizeStatus(row, now);
  return {
    id: row.id,
    month: row.month,
    tier: row.tier,
    description: row.description,
    ticket: row.ticket_id,
    status,
    claimBy: iso(Number(row.claim_by)) ?? "",
    claimedAt: iso(row.claimed_at === null ? null : Number(row.claimed_at)),
    publicName: row.public_name,
    county: row.county,
  };
}

function toOperatorPrize(row: PrizeWithWinner, now: number): OperatorPrize {
  const status = prizeStatus(row, now);
  const walkerName = [row.winner_first_name, row.winner_last_name].filter(Boolean).join(" ");
  const winner =
    row.postal_entry_id !== null
      ? {
          kind: "postal" as const,
          name: row.postal_name ?? "",
          email: row.postal_email,
          address: row.postal_address,
        }
      : {
          kind: "walker" as const,
          name: row.user_id === null ? "(account deleted)" : walkerName || "(no name given)",
          email: row.winner_email,
          address: null,
        };
  return {
    id: row.id,
    tier: row.tier,
    ticket: row.ticket_id,
    pick: Number(row.pick),
    replaces: row.replaces_pick === null ? null : Number(row.replaces_pick),
    status,
    drawnAt: iso(Number(row.drawn_at)) ?? "",
    claimBy: iso(Number(row.claim_by)) ?? "",
    winner,
    claimedAt: iso(row.claimed_at === null ? null : Number(row.claimed_at)),
    publicName: row.public_name,
    county: row.county,
    deliveryAddress: row.delivery_address,
    canRedraw: status === "expired",
    canRecordClaim: status === "awaiting_claim" && row.postal_entry_id !== null,
  };
}
