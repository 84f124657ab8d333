import { formatDay, formatNumber } from "@charity-steps/shared-types";

/** The first line of an entry or a hold in the walker's fair-play lists: its day and its steps. */
export function DayStepsLine({ date, steps }: { date: string; steps: number }) {
  return (
    <p className="flex flex-wrap items-baseline justify-between gap-x-3">
      <span className="font-medium">
        <time dateTime={date}>{formatDay(date)}</time>
      </span>
      <span className="font-semibold">{formatNumber(steps)} steps</span>
    </p>
  );
}
