import { countOf, formatNumber, formatShortDay } from "@charity-steps/shared-types";
import { useQuery } from "@tanstack/react-query";
import { useId } from "react";
import { serverMessage } from "../../lib/api-client";
import { formatSteps } from "../../lib/format";
import { drawOutliersQuery } from "./operator-draw-queries";

/**
 * Before a month's draw closes: the walkers whose tickets stand above the month's 99th percentile,
 * the most first, each with the days that arrived late and those that hold steps back, so that an
 * operator looks at them before the tickets are counted.
 */
export function DrawOutliersList({ month }: { month: string }) {
  const titleId = useId();
  const outliers = useQuery(drawOutliersQuery(month));
  return (
    <section className="space-y-2" aria-labelledby={titleId}>
      <h3 id={titleId} className="font-semibold">
        Walkers far above the rest
      </h3>
      {outliers.isPending ? (
        <p className="text-sm text-muted">Loading…</p>
      ) : outliers.isError ? (
        <p role="alert" className="text-sm text-destructive">
          {serverMessage(outliers.error, "The walkers far above the rest could not be loaded.")}
        </p>
      ) : outliers.data.above.length === 0 ? (
        <p className="text-sm text-muted">
          {`No walker's tickets are above the month's 99th percentile (${countOf(outliers.data.percentile99Tickets, "ticket")}, over ${countOf(outliers.data.walkers, "walker")}).`}
        </p>
      ) : (
        <>
          <p className="text-sm text-muted">
            Tickets above {formatNumber(outliers.data.percentile99Tickets)}, the month's 99th percentile over{" "}
            {countOf(outliers.data.walkers, "walker")}. Check them before the close.
          </p>
          <ol className="review-list" aria-label="Walkers above the 99th percentile, the most tickets first">
            {outliers.data.above.map((walker) => (
              <li key={walker.userId} className="review-item">
                <p className="font-semibold">
                  <span className="breaks-anywhere">{walker.walkerName}</span>:{" "}
                  {countOf(walker.tickets, "ticket")}
                </p>
                <dl className="review-facts">
                  <dt>Walker</dt>
                  <dd className="review-email">{walker.walkerEmail ?? "no email on file"}</dd>
                  <dt>Steps</dt>
                  <dd>
                    {formatSteps(walker.countedSteps)} counted, {formatSteps(walker.eligibleSteps)} for
                    prizes, {formatSteps(walker.pendingSteps)} waiting
                  </dd>
                  <dt>Late days</dt>
                  <dd>
                    {walker.lateDays.length === 0 ? "none" : walker.lateDays.map(formatShortDay).join(", ")}
                  </dd>
                  <dt>Days held</dt>
                  <dd>
                    {walker.heldDays.length === 0
                      ? "none"
                      : walker.heldDays
                          .map(
                            (day) => `${formatShortDay(day.date)} (${formatSteps(day.pendingSteps)} waiting)`,
                          )
                          .join(", ")}
                  </dd>
                </dl>
              </li>
            ))}
          </ol>
        </>
      )}
    </section>
  );
}
