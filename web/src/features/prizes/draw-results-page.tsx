import {
  countOf,
  DRAW_MONTH_PATTERN,
  type DrawResults,
  type DrawWinner,
  drawResultsPath,
  drawTicketsPath,
  formatMonth,
  formatNumber,
  londonDateTime,
  londonMonth,
  PRIZE_CLAIM_DAYS,
  unawardedPrizes,
} from "@charity-steps/shared-types";
import { useQuery } from "@tanstack/react-query";
import type { ReactNode } from "react";
import { Link, useParams } from "react-router-dom";
import { CopyableValue } from "../../components/copy-button";
import { LoadingSpinner } from "../../components/loading-spinner";
import { Page } from "../../components/page";
import { serverMessage } from "../../lib/api-client";
import { paths } from "../../lib/paths";
import { useAuth } from "../../lib/use-auth";

import "./prizes.css";

const STATUS_TEXT: Record<DrawResults["status"], string> = {
  open: "Open: entries are still being counted",
  closed: "Closed: waiting to be drawn",
  drawn: "Drawn",
};
/** An open draw whose month has not begun: set up ahead, with nothing yet to count. */
const NOT_BEGUN_TEXT = "Open from the 1st: the month has not begun";

const MONTH = new RegExp(DRAW_MONTH_PATTERN);

/** The public results of one month's draw, for anyone, signed in or not. */
export function DrawResultsPage() {
  const { month = "" } = useParams();
  // The API says what is wrong with a month it does not know; the path stays one segment.
  const results = useQuery<DrawResults | null>({ queryKey: [drawResultsPath(encodeURIComponent(month))] });
  const { isAuthenticated } = useAuth();
  const title = MONTH.test(month) ? `${formatMonth(month)} prize draw` : "Prize draw results";
  const back = isAuthenticated ? (
    <Link to={paths.prizeDraw} className="link text-sm">
      Back to the prize draw
    </Link>
  ) : undefined;

  if (results.isLoading) return <LoadingSpinner />;
  if (!results.data) {
    return (
      <Page title={title} back={back}>
        <p className="card p-4" role="alert" data-testid="draw-results-problem">
          {serverMessage(results.error, "This draw's results could not be loaded; please try again later.")}
        </p>
      </Page>
    );
  }
  const draw = results.data;
  return (
    <Page title={`${formatMonth(draw.month)} prize draw`} back={back}>
      <section className="card space-y-3 p-4" aria-labelledby="draw-status-heading">
        <h2 id="draw-status-heading" className="text-lg font-semibold">
          The draw
        </h2>
        <p>
          Status:{" "}
          <strong data-testid="draw-status">
            {draw.status === "open" && draw.month > londonMonth() ? NOT_BEGUN_TEXT : STATUS_TEXT[draw.status]}
          </strong>
        </p>
        {draw.status === "open" && (
          <p data-testid="draw-closes">This draw closes on {londonDateTime(draw.closesAt)} (London time).</p>
        )}
        {draw.status === "closed" && (
          <p data-testid="draw-closes">
            This draw closed on {londonDateTime(draw.closesAt)} (London time). The winners are published here
            once it has been drawn.
          </p>
        )}
        <Fact label="Commitment (SHA-256 of the seed, published before the entries were counted)">
          <code className="prize-hex" data-testid="draw-commitment">
            {draw.commitment}
          </code>
        </Fact>
        {draw.status === "drawn" && <DrawnFacts draw={draw} />}
      </section>
      {draw.status === "drawn" && (
        <>
          <Winners draw={draw} />
          <CheckIt month={draw.month} />
        </>
      )}
    </Page>
  );
}

function Fact({ label, children }: { label: string; children: ReactNode }) {
  return (
    <div>
      <p className="text-sm text-muted">{label}</p>
      <div>{children}</div>
    </div>
  );
}

function DrawnFacts({ draw }: { draw: DrawResults }) {
  const month = draw.month;
  return (
    <>
      <Fact label="Seed (revealed at the draw)">
        <code className="prize-hex" data-testid="draw-seed">
          {draw.seed}
        </code>
      </Fact>
      <Fact label="drand beacon">
        {draw.beacon ? (
          <p data-testid="draw-beacon">
            Round{" "}
            <a
              className="link"
              href={`https://api.drand.sh/${draw.beacon.chainHash}/public/${draw.beacon.round}`}
              rel="noreferrer"
              target="_blank"
            >
              {draw.beacon.round}
            </a>{" "}
            of the drand network <code className="prize-hex">{draw.beacon.chainHash}</code>, published after
            the close, was mixed with the seed.
          </p>
        ) : (
          <p data-testid="draw-beacon">No drand beacon was used: the seed alone decided.</p>
        )}
      </Fact>
      <Fact label="Tickets">
        <p data-testid="draw-ticket-count">{formatNumber(draw.ticketCount ?? 0)}</p>
      </Fact>
      <Fact label="SHA-256 of the ticket list">
        <code className="prize-hex" data-testid="draw-ticket-list-sha256">
          {draw.ticketListSha256}
        </code>
        <p>
          <a
            className="link"
            href={drawTicketsPath(month)}
            download={`charity-steps-draw-${month}-tickets.txt`}
          >
            Download the ticket list
          </a>{" "}
          <span className="text-sm text-muted">
            (one "ticket,holder" line per ticket; holders are opaque ids)
          </span>
        </p>
      </Fact>
    </>
  );
}

/** The winners tier by tier, in the order the tiers are drawn; a redraw says whose prize it took. */
function Winners({ draw }: { draw: DrawResults }) {
  const winners = draw.winners ?? [];
  const byPick = new Map(winners.map((winner) => [winner.pick, winner]));
  const replaced = new Set(
    winners.flatMap((winner) => (winner.replaces === undefined ? [] : [winner.replaces])),
  );
  const tierNames = [...new Set([...draw.tiers.map((tier) => tier.name), ...winners.map((w) => w.tier)])];
  const notAwarded = unawardedPrizes(draw);
  return (
    <section className="card mt-4 space-y-3 p-4" aria-labelledby="winners-heading">
      <h2 id="winners-heading" className="text-lg font-semibold">
        Winners
      </h2>
      {winners.length === 0 && <p>No prizes were won in this draw.</p>}
      {tierNames.map((tier) => {
        const tierWinners = winners.filter((winner) => winner.tier === tier);
        // Prizes that went to nobody are said, rather than left out.
        const unawarded = notAwarded.find((each) => each.tier === tier)?.count ?? 0;
        if (tierWinners.length === 0 && unawarded <= 0) return null;
        return (
          <div key={tier}>
            <h3 className="font-semibold">{tier}</h3>
            {unawarded > 0 && (
              <p className="text-sm text-muted" data-testid={`unawarded-${tier}`}>
                {countOf(unawarded, "prize")} not awarded: fewer people were in the draw than there were
                prizes.
              </p>
            )}
            {tierWinners.length > 0 && (
              <ul className="mt-1 space-y-2" aria-label={`${tier} winners`}>
                {tierWinners.map((winner) => (
                  <li key={winner.pick} className="rounded border border-line p-2" data-testid="draw-winner">
                    <p>
                      Ticket <code className="prize-hex">{winner.ticket}</code>
                    </p>
                    <p>{winnerText(winner, replaced.has(winner.pick))}</p>
                    {winner.replaces !== undefined && (
                      <p className="text-sm text-muted">
                        Redrawn: replaces pick {winner.replaces}
                        {byPick.get(winner.replaces)
                          ? ` (ticket ${byPick.get(winner.replaces)?.ticket})`
                          : ""}
                        , whose prize went unclaimed.
                      </p>
                    )}
                  </li>
                ))}
              </ul>
            )}
          </div>
        );
      })}
    </section>
  );
}

function winnerText(winner: DrawWinner, wasReplaced: boolean): string {
  if (winner.publicName) return winner.county ? `${winner.publicName}, ${winner.county}` : winner.publicName;
  if (wasReplaced) return "Unclaimed: this prize was redrawn";
  return winner.unclaimed ? `Unclaimed: not claimed within ${PRIZE_CLAIM_DAYS} days` : "Awaiting claim";
}

function CheckIt({ month }: { month: string }) {
  const command = `pnpm verify-draw ${window.location.origin} ${month}`;
  return (
    <section className="card mt-4 space-y-2 p-4" aria-labelledby="check-heading">
      <h2 id="check-heading" className="text-lg font-semibold">
        How to check this draw yourself
      </h2>
      <p className="text-muted">In a copy of the Charity Steps source code, run:</p>
      <CopyableValue value={command} label="Copy the command" what="The command" testId="verify-command" />
      <p className="text-muted">
        It downloads these results and the ticket list, then checks that the seed matches the commitment
        published before the entries were counted, that the ticket list matches its SHA-256 and count, that
        the drand round, when one was used, is genuine, and that picking from the seed over the list gives
        exactly these winners, with no one winning twice.
      </p>
    </section>
  );
}
