import {
  drawClosesAt,
  drawMonthName,
  drawResultsPagePath,
  londonDateTime,
  type MyPrize,
  PRIZE_CLAIM_DAYS,
} from "@charity-steps/shared-types";
import { Link } from "react-router-dom";
import { londonLongDate } from "./draw-details";
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
              {prize.tier} prize, {drawMonthName(prize.month)} draw{" "}
              <span className="prize-status" data-testid="my-prize-status">
                {PRIZE_STATUS_LABEL[prize.status]}
              </span>
            </p>
            <p className="text-sm text-muted">
              {prize.description} Ticket <code className="prize-hex">{prize.ticket}</code>.
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

/** The walker's tickets in last month's draw, once its close has counted them. */
export function LastMonthTickets({ month }: { month: string }) {
  const mine = useMyDraw(month);
  const draw = mine.data;
  if (!draw) return null;
  const label = drawMonthName(month);
  if (draw.status === "open") {
    return (
      <section className="card mt-4 space-y-2 p-4" aria-labelledby="my-tickets-heading">
        <h2 id="my-tickets-heading" className="text-lg font-semibold">
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
          and {more.toLocaleString("en-GB")} more
        </p>
      )}
    </>
  );
  return (
    <section className="card mt-4 space-y-2 p-4" aria-labelledby="my-tickets-heading">
      <h2 id="my-tickets-heading" className="text-lg font-semibold" data-testid="my-tickets">
        Your tickets for {label}: {draw.ticketCount.toLocaleString("en-GB")}
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
 * Links to the results of last month's draw once drawn, and of each earlier month the walker won
 * in. Only months known to be drawn are asked about: asking the API for a month makes its draw,
 * which the scheduled job then closes and runs, so a page view must not sweep the past year.
 */
export function PastResults({ lastMonth }: { lastMonth: string }) {
  const mine = useMyDraw(lastMonth);
  const prizes = useMyPrizes();
  const drawn = [
    ...new Set([
      ...(mine.data?.status === "drawn" ? [lastMonth] : []),
      ...(prizes.data?.prizes ?? []).map((prize) => prize.month),
    ]),
  ].sort((a, b) => b.localeCompare(a));
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
              {drawMonthName(past)}
            </Link>
          </li>
        ))}
      </ul>
    </section>
  );
}
