import {
  type DrawSummary,
  drawClosesAt,
  drawResultsPagePath,
  formatMonth,
  formatNumber,
  londonDateTime,
  londonLongDate,
  type MyPrize,
  PRIZE_CLAIM_DAYS,
} from "@charity-steps/shared-types";
import { Link } from "react-router-dom";
import { daysLeftText, PRIZE_STATUS_LABEL, prizeClaimPagePath } from "./prize-format";
import { useMyDraw, useMyPrizes } from "./prize-queries";
import "./prizes.css";

/** More ticket ids than this are folded away behind a "Show" toggle. */
const TICKETS_SHOWN_OPEN = 10;

/** The walker's prizes of every month: each with where it stands, and a way to claim it. */
export function YourPrizes() {
  const prizes = useMyPrizes();
  const list = prizes.data?.prizes ?? [];
  if (list.length === 0) return null;
  return (
    <section className="card mt-4 space-y-3 p-4" aria-labelledby="your-prizes-heading">
      <h2 id="your-prizes-heading" className="text-lg font-semibold">
        Your prizes
      </h2>
      <ul className="space-y-3">
        {list.map((prize) => (
          <li key={prize.id} className="rounded border border-line p-3" data-testid="my-prize">
            <p className="font-semibold">
              {prize.tier} prize, {formatMonth(prize.month)} draw{" "}
              <span className="prize-status" data-testid="my-prize-status">
                {PRIZE_STATUS_LABEL[prize.status]}
              </span>
            </p>
            <p className="text-sm text-muted">
              <bdi>{prize.description}</bdi> Ticket <code className="prize-hex">{prize.ticket}</code>.
            </p>
            <PrizeState prize={prize} />
          </li>
        ))}
      </ul>
    </section>
  );
}

function PrizeState({ prize }: { prize: MyPrize }) {
  switch (prize.status) {
    case "awaiting_claim":
      return (
        <div className="mt-2 flex flex-wrap items-center gap-3">
          <p className="min-w-48 flex-1">
            Claim by {londonDateTime(prize.claimBy)} (London time): {daysLeftText(prize.claimBy)}.
          </p>
          <Link to={prizeClaimPagePath(prize.id)} className="btn-primary">
            Claim your {prize.tier} prize
          </Link>
        </div>
      );
    case "claimed":
      return (
        <p className="mt-2">
          {prize.claimedAt ? `Claimed on ${londonLongDate(prize.claimedAt)}. ` : ""}
          Published as {prize.publicName}, {prize.county}.
        </p>
      );
    case "expired":
      return <p className="mt-2">The {PRIZE_CLAIM_DAYS} days to claim it ended without a claim.</p>;
    case "redrawn":
      return <p className="mt-2">It was given to another entry after it went unclaimed.</p>;
  }
}

/**
 * The walker's tickets in `month`'s draw. While the month is still open this only says when they
 * will be counted (at its close); once closed, their count and ids.
 */
export function MonthTickets({ month }: { month: string }) {
  const mine = useMyDraw(month);
  const draw = mine.data;
  if (!draw) return null;
  const label = formatMonth(month);
  const headingId = `my-tickets-heading-${month}`;
  if (draw.status === "open") {
    return (
      <section className="card mt-4 space-y-2 p-4" aria-labelledby={headingId}>
        <h2 id={headingId} className="text-lg font-semibold">
          Your tickets for {label}
        </h2>
        <p className="text-muted">
          Your tickets are counted when {label}'s draw closes, on {londonDateTime(drawClosesAt(month))}{" "}
          (London time).
        </p>
      </section>
    );
  }
  const more = draw.ticketCount - draw.tickets.length;
  const won = new Map(draw.prizes.map((prize) => [prize.ticket, prize.tier]));
  const ids = (
    <>
      <ul className="mt-2 flex flex-wrap gap-2" aria-label={`Your ticket ids for ${label}`}>
        {draw.tickets.map((ticket) => (
          <li key={ticket} className="rounded border border-line px-2 py-0.5">
            <code className="prize-hex">{ticket}</code>
            {won.has(ticket) && <strong> (won {won.get(ticket)})</strong>}
          </li>
        ))}
      </ul>
      {more > 0 && (
        <p className="mt-2 text-sm text-muted" data-testid="my-tickets-more">
          and {formatNumber(more)} more
        </p>
      )}
    </>
  );
  return (
    <section className="card mt-4 space-y-2 p-4" aria-labelledby={headingId}>
      <h2 id={headingId} className="text-lg font-semibold" data-testid="my-tickets">
        Your tickets for {label}: {formatNumber(draw.ticketCount)}
      </h2>
      {draw.ticketCount === 0 ? (
        <p className="text-muted">You had no tickets in this draw.</p>
      ) : draw.tickets.length > TICKETS_SHOWN_OPEN ? (
        <details>
          <summary className="link cursor-pointer">Show your ticket ids</summary>
          {ids}
        </details>
      ) : (
        ids
      )}
      {draw.status === "drawn" ? (
        <p>
          <Link to={drawResultsPagePath(month)} className="link">
            See the {label} results
          </Link>
        </p>
      ) : (
        <p className="text-muted">The draw has closed; the winners are published once it has been drawn.</p>
      )}
    </section>
  );
}

/**
 * The walker's tickets: for the newest month whose close has counted them (closed or drawn), and
 * before that, while last month is still open, when last month's will be counted.
 */
export function YourTickets({ lastMonth, draws }: { lastMonth: string; draws: readonly DrawSummary[] }) {
  return (
    <>
      {ticketMonths(lastMonth, draws).map((month) => (
        <MonthTickets key={month} month={month} />
      ))}
    </>
  );
}

/** The months whose tickets `YourTickets` shows: last month while it is open, then the newest counted. */
export function ticketMonths(lastMonth: string, draws: readonly DrawSummary[]): string[] {
  const lastMonthOpen = draws.some((draw) => draw.month === lastMonth && draw.status === "open");
  const counted = draws.find((draw) => draw.status !== "open")?.month;
  return [...(lastMonthOpen ? [lastMonth] : []), ...(counted ? [counted] : [])];
}

/** Links to the results of every drawn month in the list of draws (`draws`, newest first). */
export function PastResults({ draws }: { draws: readonly DrawSummary[] }) {
  const drawn = draws.filter((draw) => draw.status === "drawn").map((draw) => draw.month);
  if (drawn.length === 0) return null;
  return (
    <section className="card mt-4 space-y-2 p-4" aria-labelledby="past-results-heading">
      <h2 id="past-results-heading" className="text-lg font-semibold">
        Past draws' results
      </h2>
      <ul className="space-y-1">
        {drawn.map((past) => (
          <li key={past}>
            <Link to={drawResultsPagePath(past)} className="link">
              {formatMonth(past)}
            </Link>
          </li>
        ))}
      </ul>
    </section>
  );
}
