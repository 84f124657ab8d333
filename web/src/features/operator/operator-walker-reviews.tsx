import {
  formatMonth,
  formatShortDay,
  type MonthDecision,
  operatorReviewMonthPath,
  type WalkerReviewGroup,
} from "@charity-steps/shared-types";
import { useQuery } from "@tanstack/react-query";
import { Users } from "lucide-react";
import { useId, useState } from "react";
import { formatSteps } from "../../lib/format";
import { WALKER_REVIEWS_KEY, walkerReviewsQuery } from "./operator-queries";
import { ReviewDecision } from "./review-decision";
import { ReviewSection } from "./review-section";

/**
 * What waits, by walker: one card per walker and month (however many devices, days or entries it
 * came from), the most steps waiting first, each day with why it waits. One decision approves or
 * turns down the whole month; steps that arrive after it are weighed again.
 */
export function OperatorWalkerReviews() {
  const [page, setPage] = useState(1);
  const queue = useQuery(walkerReviewsQuery(page));
  const pageCount = queue.data?.pageCount ?? 1;
  return (
    <ReviewSection
      icon={Users}
      title="Waiting, by walker"
      intro="Each walker's steps that wait this month and last, the most first: late days, days above the ceiling, further devices, and the entries above. One decision covers the whole month."
      query={queue}
      notLoaded="The walkers waiting for a check could not be loaded."
      isEmpty={(data) => data.walkers.length === 0}
      empty="No walker has steps waiting for a check."
      list={(data, onDecided) => (
        <ol className="review-list" aria-label="Walkers with steps waiting, the most first">
          {data.walkers.map((group) => (
            <WalkerCard key={`${group.userId}|${group.month}`} group={group} onDecided={onDecided} />
          ))}
        </ol>
      )}
      after={
        pageCount > 1 && (
          <nav aria-label="Pages of walkers" className="flex flex-wrap items-center gap-2">
            <button
              type="button"
              className="btn-secondary"
              disabled={page <= 1}
              onClick={() => setPage((n) => n - 1)}
            >
              Previous page
            </button>
            <span className="text-sm text-muted">
              Page {page} of {pageCount}
            </span>
            <button
              type="button"
              className="btn-secondary"
              disabled={page >= pageCount}
              onClick={() => setPage((n) => n + 1)}
            >
              Next page
            </button>
          </nav>
        )
      }
    />
  );
}

function WalkerCard({ group, onDecided }: { group: WalkerReviewGroup; onDecided: () => void }) {
  const ids = { title: useId() };
  const month = formatMonth(group.month);

  return (
    <li className="review-item" aria-labelledby={ids.title}>
      <h3 id={ids.title} className="font-semibold">
        <span className="breaks-anywhere">{group.walkerName}</span>: {formatSteps(group.pendingSteps)} steps
        waiting in {month}
      </h3>
      <p className="review-email text-sm">{group.walkerEmail ?? "no email on file"}</p>
      <ul
        className="review-held-days"
        aria-label={`${group.walkerName}'s days in ${month} that hold steps back`}
      >
        {group.days.map((day) => (
          <li key={day.date}>
            <p className="font-semibold">{formatShortDay(day.date)}</p>
            <dl className="review-facts">
              <dt>Counted</dt>
              <dd>{formatSteps(day.countedSteps)}</dd>
              <dt>For prizes now</dt>
              <dd>{formatSteps(day.eligibleSteps)}</dd>
              <dt>Waiting</dt>
              <dd>{formatSteps(day.pendingSteps)}</dd>
              <dt>Why</dt>
              <dd>
                <ul className="review-reasons">
                  {day.reasons.map((why) => (
                    <li key={why.code}>{why.message}</li>
                  ))}
                </ul>
              </dd>
            </dl>
          </li>
        ))}
      </ul>
      <ReviewDecision<MonthDecision>
        path={operatorReviewMonthPath(group.userId, group.month)}
        told={(decided) => ({
          title: decided.status === "approved" ? "Month approved" : "Month turned down",
          description:
            decided.status === "approved"
              ? `What waited of ${group.walkerName}'s ${month} now counts toward prize entries.`
              : `${group.walkerName} is told the reason; the steps stay on their totals, not for prizes.`,
        })}
        onDecided={onDecided}
        refresh={WALKER_REVIEWS_KEY}
        labels={{
          approve: `Approve ${month}`,
          approving: "Approving…",
          reject: `Turn down ${month}`,
          rejecting: "Turning down…",
        }}
      />
    </li>
  );
}
