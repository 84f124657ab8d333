import { DAY_REASONS, type ReviewReasonCode, type StepHistoryResponse } from "@charity-steps/shared-types";
import { useQuery } from "@tanstack/react-query";
import { Clock } from "lucide-react";
import { useId } from "react";
import { STEP_HISTORY_KEY } from "../../lib/step-queries";
import { DayStepsLine } from "./day-steps-line";

const DAY_REASON_CODES = new Set<ReviewReasonCode>(DAY_REASONS);

/**
 * The walker's days whose steps partly wait for a check under fair play's day rules (a day synced
 * long after it ended, a very long day, steps from many devices), newest first, each with why in
 * fair play's neutral words. Shown only when there is such a day.
 */
export function DayHoldsList() {
  const titleId = useId();
  const history = useQuery<StepHistoryResponse | null>({ queryKey: STEP_HISTORY_KEY });
  const days = (history.data?.days ?? [])
    .filter((day) => (day.pendingReasons ?? []).some((why) => DAY_REASON_CODES.has(why.code)))
    .reverse();
  if (days.length === 0) return null;

  return (
    <section className="card space-y-3 p-4" aria-labelledby={titleId}>
      <h2 id={titleId} className="text-lg font-semibold">
        Days waiting for a quick check
      </h2>
      <p className="text-sm text-muted">
        These steps count toward your totals. The steps shown here count toward prize entries once they have
        been checked.
      </p>
      <ul className="divide-y divide-line" aria-labelledby={titleId}>
        {days.map((day) => (
          <li key={day.date} className="py-2 text-sm" data-testid="day-hold">
            <DayStepsLine date={day.date} steps={day.pendingSteps ?? 0} />
            <ul className="mt-1 space-y-1">
              {(day.pendingReasons ?? [])
                .filter((why) => DAY_REASON_CODES.has(why.code))
                .map((why) => (
                  <li key={why.code} className="flex items-start gap-1.5">
                    <Clock aria-hidden="true" className="mt-0.5 size-4 shrink-0 text-brand-strong" />
                    <span>{why.message}</span>
                  </li>
                ))}
            </ul>
          </li>
        ))}
      </ul>
    </section>
  );
}
