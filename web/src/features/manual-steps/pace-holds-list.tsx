import type { PaceReview, PaceReviewList } from "@charity-steps/shared-types";
import { useQuery } from "@tanstack/react-query";
import { CircleCheck, CircleSlash, Clock } from "lucide-react";
import { useId } from "react";
import { DayStepsLine } from "./day-steps-line";
import { PACE_REVIEWS_KEY, paceHoldStatusWords } from "./fair-play-words";

const STATUS_ICONS = {
  approved: CircleCheck,
  pending: Clock,
  rejected: CircleSlash,
} as const;

/**
 * The walker's phone or Apple Health steps that rose faster than walking pace, newest first, each
 * with where it stands for prize entries. Shown only once something has been held: a walker with
 * nothing held (or whose list could not be loaded) has nothing to act on here.
 */
export function PaceHoldsList() {
  const titleId = useId();
  const holds = useQuery<PaceReviewList | null>({ queryKey: PACE_REVIEWS_KEY });
  const all = holds.data?.reviews ?? [];
  if (all.length === 0) return null;

  return (
    <section className="card space-y-3 p-4" aria-labelledby={titleId}>
      <h2 id={titleId} className="text-lg font-semibold">
        Steps held for a quick check
      </h2>
      <p className="text-sm text-muted">
        These steps count toward your totals. They count toward prize entries once they have been checked.
      </p>
      <ul className="divide-y divide-line" aria-labelledby={titleId}>
        {all.map((hold) => (
          <PaceHoldItem key={hold.id} hold={hold} />
        ))}
      </ul>
    </section>
  );
}

function PaceHoldItem({ hold }: { hold: PaceReview }) {
  const Icon = STATUS_ICONS[hold.status];
  return (
    <li className="py-2 text-sm" data-testid="pace-hold">
      <DayStepsLine date={hold.date} steps={hold.steps} />
      <p className="mt-1 flex items-start gap-1.5" data-status={hold.status}>
        <Icon aria-hidden="true" className="mt-0.5 size-4 shrink-0 text-brand-strong" />
        <span>{paceHoldStatusWords(hold)}</span>
      </p>
    </li>
  );
}
