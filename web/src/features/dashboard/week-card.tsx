import {
  countOf,
  formatShortDay,
  WEEK_SUMMARY_PATH,
  type WeekSummaryResponse,
  weekChangeText,
  weekImpactText,
  weekToLookBackOn,
} from "@charity-steps/shared-types";
import { useQuery } from "@tanstack/react-query";
import { CalendarCheck, X } from "lucide-react";
import { useState } from "react";
import { formatSteps } from "../../lib/format";

/** The weeks whose card the walker dismissed on this device, by walker. */
const DISMISSED_KEY = "charity-steps:week-card-dismissed";

/** Last week, looked back on: shown on the dashboard from Monday morning until dismissed. */
export function WeekCard({
  userId,
  charityName,
  now,
}: {
  userId: string;
  charityName: string | null;
  now: number;
}) {
  const start = weekToLookBackOn(now);
  const [dismissed, setDismissed] = useState(() => dismissedWeek(userId));
  const summary = useQuery<WeekSummaryResponse | null>({
    queryKey: [`${WEEK_SUMMARY_PATH}?start=${start}`],
    enabled: start !== null && dismissed !== start,
  });
  const week = summary.data;
  // A week with no steps, after one with none, has nothing to look back on.
  if (!start || dismissed === start || !week || (week.steps === 0 && week.previousWeekSteps === 0))
    return null;
  const dismiss = () => {
    rememberDismissed(userId, start);
    setDismissed(start);
  };
  return (
    <section className="card mb-4 p-4" aria-labelledby="week-card-title" data-testid="week-card">
      <div className="flex items-start justify-between gap-2">
        <h2 id="week-card-title" className="flex items-center gap-2 text-lg font-semibold">
          <CalendarCheck aria-hidden="true" className="size-5 text-brand-strong" />
          Your week, looked back on
        </h2>
        <button
          type="button"
          className="btn-secondary size-10 shrink-0 p-0"
          aria-label="Dismiss last week's summary"
          onClick={dismiss}
        >
          <X aria-hidden="true" className="size-5" />
        </button>
      </div>
      <p className="text-sm text-muted">Week of {formatShortDay(week.start)}</p>
      <dl className="mt-3 grid grid-cols-2 gap-3">
        <div>
          <dt className="text-sm text-muted">Steps</dt>
          <dd className="text-2xl font-bold">{formatSteps(week.steps)}</dd>
        </div>
        <div>
          <dt className="text-sm text-muted">Days on goal</dt>
          <dd className="text-2xl font-bold">{week.daysOnGoal} of 7</dd>
        </div>
        {/* A week without steps has no best day, as the mail leaves it out. */}
        {week.bestDay.steps > 0 && (
          <div className="col-span-2">
            <dt className="text-sm text-muted">Best day</dt>
            <dd className="font-semibold">
              {formatShortDay(week.bestDay.date)}: {countOf(week.bestDay.steps, "step")}
            </dd>
          </div>
        )}
      </dl>
      <p className="mt-3 text-sm">{weekChangeText(week.steps, week.previousWeekSteps)}</p>
      {charityName && week.steps > 0 && (
        <p className="mt-1 text-sm font-medium text-brand-strong" data-testid="week-impact">
          {weekImpactText(week.steps, charityName)}
        </p>
      )}
    </section>
  );
}

function dismissedWeek(userId: string): string | null {
  try {
    return (
      (JSON.parse(localStorage.getItem(DISMISSED_KEY) ?? "{}") as Record<string, string>)[userId] ?? null
    );
  } catch {
    return null;
  }
}

function rememberDismissed(userId: string, start: string): void {
  try {
    localStorage.setItem(DISMISSED_KEY, JSON.stringify({ [userId]: start }));
  } catch {
    // Storage refused: the card comes back on the next visit, and can be dismissed again.
  }
}
