import { DAILY_STEP_GOAL, DAILY_STEP_MAX } from "@charity-steps/shared-types";
import { formatSteps } from "../../lib/format";

const dayLabel = new Intl.DateTimeFormat("en-GB", { day: "numeric", month: "short", timeZone: "UTC" });

/**
 * The last 30 days, a bar a day, with the 10,000-step daily goal marked. The bars are a picture;
 * the same numbers are in a table under it, for screen readers and for anyone who wants the figures.
 */
export function StepHistoryChart({ days }: { days: { date: string; steps: number }[] }) {
  const width = 320;
  const height = 140;
  const top = Math.max(DAILY_STEP_GOAL * 1.25, ...days.map((day) => day.steps));
  const scale = (steps: number) => (Math.min(steps, DAILY_STEP_MAX) / top) * height;
  const slot = width / Math.max(1, days.length);
  const goalY = height - scale(DAILY_STEP_GOAL);
  const first = days[0];
  const last = days.at(-1);
  const total = days.reduce((sum, day) => sum + day.steps, 0);
  const goalDays = days.filter((day) => day.steps >= DAILY_STEP_GOAL).length;

  return (
    <section className="card p-4" aria-labelledby="history-title">
      <h2 id="history-title" className="text-lg font-semibold">
        Last 30 days
      </h2>
      <p className="text-sm text-muted">
        {formatSteps(total)} steps · daily goal reached on {goalDays} {goalDays === 1 ? "day" : "days"}
      </p>
      <svg
        viewBox={`0 0 ${width} ${height + 4}`}
        className="mt-3 w-full"
        role="img"
        aria-label={`Steps per day for the last 30 days; the dashed line is the ${formatSteps(DAILY_STEP_GOAL)}-step daily goal`}
      >
        {days.map((day, index) => {
          const barHeight = Math.max(day.steps > 0 ? 2 : 0, scale(day.steps));
          return (
            <rect
              key={day.date}
              x={index * slot + slot * 0.15}
              y={height - barHeight}
              width={slot * 0.7}
              height={barHeight}
              rx={1.5}
              fill={day.steps >= DAILY_STEP_GOAL ? "var(--color-brand-strong)" : "var(--color-brand)"}
              opacity={day.steps >= DAILY_STEP_GOAL ? 1 : 0.55}
            >
              <title>{`${dayLabel.format(new Date(`${day.date}T00:00:00Z`))}: ${formatSteps(day.steps)} steps`}</title>
            </rect>
          );
        })}
        <line
          x1={0}
          x2={width}
          y1={goalY}
          y2={goalY}
          stroke="var(--color-ink)"
          strokeDasharray="4 3"
          strokeWidth={1}
        />
        <line x1={0} x2={width} y1={height} y2={height} stroke="var(--color-line)" strokeWidth={1} />
      </svg>
      {first && last && (
        <div className="mt-1 flex justify-between text-xs text-muted">
          <span>{dayLabel.format(new Date(`${first.date}T00:00:00Z`))}</span>
          <span>Goal {formatSteps(DAILY_STEP_GOAL)}</span>
          <span>{dayLabel.format(new Date(`${last.date}T00:00:00Z`))}</span>
        </div>
      )}
      <details className="mt-3">
        <summary className="cursor-pointer py-1.5 text-sm font-semibold text-brand-strong">
          Show the 30 days as a table
        </summary>
        <table className="mt-2 w-full text-sm">
          <caption className="sr-only">Steps per day for the last 30 days</caption>
          <thead>
            <tr className="border-b border-line text-left">
              <th scope="col" className="py-1 font-semibold">
                Day
              </th>
              <th scope="col" className="py-1 text-right font-semibold">
                Steps
              </th>
              <th scope="col" className="py-1 text-right font-semibold">
                Daily goal
              </th>
            </tr>
          </thead>
          <tbody>
            {days.map((day) => (
              <tr key={day.date} className="border-b border-line last:border-0">
                <th scope="row" className="py-1 text-left font-normal">
                  {dayLabel.format(new Date(`${day.date}T00:00:00Z`))}
                </th>
                <td className="py-1 text-right tabular-nums">{formatSteps(day.steps)}</td>
                <td className="py-1 text-right">{day.steps >= DAILY_STEP_GOAL ? "Reached" : "Not yet"}</td>
              </tr>
            ))}
          </tbody>
        </table>
      </details>
    </section>
  );
}
