import {
  addMonths,
  countOf,
  DAILY_STEP_MAX,
  daysBetween,
  formatMonth,
  formatShortDay,
  monthOfDay,
  STEP_HISTORY_PATH,
  type StepHistoryResponse,
} from "@charity-steps/shared-types";
import { useQuery } from "@tanstack/react-query";
import { type KeyboardEvent, type PointerEvent, useState } from "react";
import { apiRequest } from "../../lib/api-client";
import { formatSteps } from "../../lib/format";
import { STEP_HISTORY_KEY } from "../../lib/step-queries";

export type HistoryDay = StepHistoryResponse["days"][number];
export type ChartView = "week" | "month" | "year";

const VIEWS: Record<ChartView, { button: string; title: string; picture: string }> = {
  week: { button: "Week", title: "Last 7 days", picture: "Steps per day for the last 7 days" },
  month: { button: "Month", title: "Last 30 days", picture: "Steps per day for the last 30 days" },
  year: {
    button: "Year",
    title: "Last 12 months",
    picture: "Average steps per day, month by month, for the last 12 months",
  },
};

/** One bar: a day, or (in the year's view) a month, with where its steps came from. */
export interface ChartBar {
  key: string;
  /** "Sat 21 Nov", or "November 2026". */
  label: string;
  /** The bar's height: the day's steps, or the month's average a day. */
  value: number;
  steps: number;
  motionSteps: number;
  healthSteps: number;
  manualSteps: number;
  pendingSteps: number;
  /** Counted on this phone and not yet sent. */
  unsentSteps: number;
  /** Days the month's average is over (the year's view only). */
  days?: number;
  /** The day's own goal (a day's bar only): the goal it had then, not today's. */
  goal?: number;
}

/** What a bar's steps were, in words: "Sat 21 Nov: 8,200 steps. This phone 6,000 · Apple Health 7,500". */
export function barText(bar: ChartBar): string {
  const head =
    bar.days === undefined
      ? `${bar.label}: ${countOf(bar.steps, "step")}`
      : `${bar.label}: ${countOf(bar.steps, "step")}, ${formatSteps(bar.value)} a day on average`;
  const parts = [
    ["This phone", bar.motionSteps],
    ["Apple Health", bar.healthSteps],
    ["By hand", bar.manualSteps],
    ["Waiting for a check", bar.pendingSteps],
    ["Not yet sent", bar.unsentSteps],
  ] as const;
  const sources = parts
    .filter(([, steps]) => steps > 0)
    .map(([name, steps]) => `${name} ${formatSteps(steps)}`);
  return sources.length === 0 ? `${head}.` : `${head}. ${sources.join(" · ")}.`;
}

function dayBar(day: HistoryDay): ChartBar {
  const counted = Math.min(DAILY_STEP_MAX, Math.max(day.motionSteps, day.healthSteps) + day.manualSteps);
  return {
    key: day.date,
    label: formatShortDay(day.date),
    value: day.steps,
    steps: day.steps,
    motionSteps: day.motionSteps,
    healthSteps: day.healthSteps,
    manualSteps: day.manualSteps,
    pendingSteps: day.pendingSteps ?? 0,
    unsentSteps: Math.max(0, day.steps - counted),
    goal: day.goal,
  };
}

/** The year's days as months, each with its average a day over the days it has had so far. */
export function monthBars(days: readonly HistoryDay[]): ChartBar[] {
  const months = new Map<string, ChartBar>();
  for (const day of days) {
    const month = monthOfDay(day.date);
    const bar = months.get(month) ?? {
      ...dayBar({ date: day.date, steps: 0, motionSteps: 0, healthSteps: 0, manualSteps: 0, goal: 0 }),
      key: month,
      label: formatMonth(month),
      days: 0,
      goal: undefined,
    };
    const one = dayBar(day);
    bar.steps += one.steps;
    bar.motionSteps += one.motionSteps;
    bar.healthSteps += one.healthSteps;
    bar.manualSteps += one.manualSteps;
    bar.pendingSteps += one.pendingSteps;
    bar.unsentSteps += one.unsentSteps;
    bar.days = (bar.days ?? 0) + 1;
    bar.value = Math.round(bar.steps / bar.days);
    months.set(month, bar);
  }
  return [...months.values()];
}

/** The days the year's view asks for: from the first of the month eleven months back to today. */
export function yearDaysFor(today: string): number {
  return daysBetween(`${addMonths(monthOfDay(today), -11)}-01`, today) + 1;
}

/** The y-axis' top: above the goal and the tallest bar, at a round number of steps. */
export function axisTop(goal: number, values: readonly number[]): number {
  const highest = Math.max(goal * 1.2, ...values);
  const step = highest > 20_000 ? 10_000 : 5_000;
  return Math.ceil(highest / step) * step;
}

const compact = (steps: number) => (steps === 0 ? "0" : `${formatSteps(steps / 1000)}k`);

/**
 * The walker's days as bars, a week, 30 days or a year (months) at a time, against their daily goal,
 * with a y-axis and the goal labelled on its line. The chart is one control: a tap on a bar, or the
 * arrow keys once it has focus, show that bar's steps and where they came from. The same numbers
 * are in a table under it.
 */
export function StepHistoryChart({
  days,
  dailyGoal,
}: {
  /** The last 30 days, today the last, with this phone's unsent steps in. */
  days: readonly HistoryDay[];
  dailyGoal: number;
}) {
  const [view, setView] = useState<ChartView>("month");
  const today = days.at(-1)?.date ?? "";
  const yearDays = yearDaysFor(today || "2000-01-01");
  const year = useQuery<StepHistoryResponse>({
    queryKey: [...STEP_HISTORY_KEY, "year", yearDays],
    queryFn: async () =>
      (await (
        await apiRequest("GET", `${STEP_HISTORY_PATH}?days=${yearDays}`)
      ).json()) as StepHistoryResponse,
    enabled: view === "year" && today !== "",
  });

  const recent = new Map(days.map((day) => [day.date, day]));
  const bars =
    view === "week"
      ? days.slice(-7).map(dayBar)
      : view === "month"
        ? days.map(dayBar)
        : monthBars((year.data?.days ?? []).map((day) => recent.get(day.date) ?? day));
  const loading = view === "year" && !year.data;

  return (
    <section className="card p-4" aria-labelledby="history-title">
      <div className="flex flex-wrap items-center justify-between gap-2">
        <h2 id="history-title" className="text-lg font-semibold">
          {VIEWS[view].title}
        </h2>
        <fieldset className="flex min-w-0 flex-wrap gap-1 rounded-lg border border-line p-1">
          <legend className="sr-only">Show the steps of</legend>
          {(Object.keys(VIEWS) as ChartView[]).map((option) => (
            <button
              key={option}
              type="button"
              className={`min-h-9 rounded-md px-3 text-sm font-semibold ${
                view === option ? "bg-brand-strong text-on-brand" : "text-ink"
              }`}
              aria-pressed={view === option}
              onClick={() => setView(option)}
            >
              {VIEWS[option].button}
            </button>
          ))}
        </fieldset>
      </div>
      {loading ? (
        <p className="mt-3 text-sm text-muted" role="status">
          {year.isError
            ? "The year could not be loaded. It will show when you are online."
            : "Loading the year…"}
        </p>
      ) : (
        <Bars key={view} bars={bars} goal={dailyGoal} view={view} today={today} />
      )}
    </section>
  );
}

function Bars({
  bars,
  goal,
  view,
  today,
}: {
  bars: ChartBar[];
  goal: number;
  view: ChartView;
  today: string;
}) {
  const [selected, setSelected] = useState(bars.length - 1);
  const index = Math.min(Math.max(0, selected), bars.length - 1);
  const chosen = bars[index];
  const top = axisTop(
    goal,
    bars.map((bar) => bar.value),
  );
  const percent = (steps: number) => `${(Math.min(steps, top) / top) * 100}%`;
  const total = bars.reduce((sum, bar) => sum + bar.steps, 0);
  // Each day is judged by the goal it had: raising the goal today leaves the days before it alone. A
  // month (the year's view) is its average a day against today's goal.
  // Today is judged by the goal as it stands now, which a change made today may have just set.
  const reached = (bar: ChartBar) => bar.value >= (bar.key === today ? goal : (bar.goal ?? goal));
  const goalDays = view === "year" ? null : bars.filter(reached).length;
  const first = bars[0];
  const last = bars.at(-1);

  const move = (to: number) => setSelected(Math.min(Math.max(0, to), bars.length - 1));
  const onKeyDown = (event: KeyboardEvent) => {
    const to = {
      ArrowLeft: index - 1,
      ArrowDown: index - 1,
      ArrowRight: index + 1,
      ArrowUp: index + 1,
      Home: 0,
      End: bars.length - 1,
    }[event.key];
    if (to === undefined) return;
    event.preventDefault();
    move(to);
  };
  const onPointerDown = (event: PointerEvent<HTMLDivElement>) => {
    const box = event.currentTarget.getBoundingClientRect();
    if (box.width > 0) move(Math.floor(((event.clientX - box.left) / box.width) * bars.length));
  };

  return (
    <>
      <p className="text-sm text-muted">
        {formatSteps(total)} steps
        {goalDays !== null && ` · daily goal reached on ${countOf(goalDays, "day")}`}
      </p>
      {/* The goal's line is named here, not on the line, where its label would hide the newest bars. */}
      <p aria-hidden="true" className="mt-1 flex items-center gap-2 text-xs font-semibold">
        <span className="w-6 border-t-2 border-dashed border-ink" />
        Goal {formatSteps(goal)}
      </p>
      <div className="mt-6 flex h-44 gap-1">
        {/* As tall inside as the plot beside it, whose floor is above its bottom border. */}
        <div
          aria-hidden="true"
          className="relative w-8 shrink-0 border-b border-transparent text-right text-xs tabular-nums text-muted"
        >
          {[top, top / 2, 0].map((tick) => (
            // Placed by its bottom edge at the tick's height, then moved down half its own height,
            // so that the number's middle sits on the level it names.
            <span key={tick} className="absolute right-0 translate-y-1/2" style={{ bottom: percent(tick) }}>
              {compact(tick)}
            </span>
          ))}
        </div>
        <div
          className="relative min-w-0 flex-1 cursor-pointer touch-manipulation border-b border-l border-line outline-offset-4"
          role="slider"
          tabIndex={0}
          aria-label={`${VIEWS[view].picture}; the dashed line is your daily goal of ${formatSteps(goal)} steps today. Use the arrow keys to read each bar.`}
          aria-valuemin={0}
          aria-valuemax={Math.max(0, bars.length - 1)}
          aria-valuenow={index}
          aria-valuetext={chosen ? barText(chosen) : "No steps yet"}
          onKeyDown={onKeyDown}
          onPointerDown={onPointerDown}
          data-testid="history-chart"
        >
          <div aria-hidden="true" className="absolute inset-0 flex items-end gap-px px-px">
            {bars.map((bar, barIndex) => (
              <div
                key={bar.key}
                className={`min-w-0 flex-1 rounded-t-sm ${reached(bar) ? "bg-brand-strong" : "bg-brand/60"} ${
                  barIndex === index ? "outline-2 outline-ink outline-solid" : ""
                }`}
                style={{ height: bar.value > 0 ? `max(2px, ${percent(bar.value)})` : 0 }}
              />
            ))}
          </div>
          <div
            aria-hidden="true"
            className="pointer-events-none absolute inset-x-0 border-t border-dashed border-ink"
            style={{ bottom: percent(goal) }}
          />
        </div>
      </div>
      {first && last && (
        <div aria-hidden="true" className="mt-1 flex justify-between pl-9 text-xs text-muted">
          <span>{first.label}</span>
          <span>{last.key === today ? "Today" : last.label}</span>
        </div>
      )}
      <p className="mt-3 min-h-10 text-sm" data-testid="chart-detail">
        {chosen ? barText(chosen) : "No steps yet."}
      </p>
      <details className="mt-2">
        <summary className="cursor-pointer py-1.5 text-sm font-semibold text-brand-strong">
          Show the {view === "year" ? "12 months" : `${bars.length} days`} as a table
        </summary>
        <table className="mt-2 w-full text-sm">
          <caption className="sr-only">{VIEWS[view].picture}</caption>
          <thead>
            <tr className="border-b border-line text-left">
              <th scope="col" className="py-1 font-semibold">
                {view === "year" ? "Month" : "Day"}
              </th>
              <th scope="col" className="py-1 text-right font-semibold">
                Steps
              </th>
              <th scope="col" className="py-1 text-right font-semibold">
                {view === "year" ? "A day" : "Daily goal"}
              </th>
            </tr>
          </thead>
          <tbody>
            {bars.map((bar) => (
              <tr key={bar.key} className="border-b border-line last:border-0">
                <th scope="row" className="py-1 text-left font-normal">
                  {bar.label}
                </th>
                <td className="py-1 text-right tabular-nums">{formatSteps(bar.steps)}</td>
                <td className="py-1 text-right tabular-nums">
                  {view === "year" ? formatSteps(bar.value) : goalText(reached(bar), bar.key === today)}
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      </details>
    </>
  );
}

/** A day's goal in the table: reached, or not (yet, while the day is today). */
function goalText(reached: boolean, isToday: boolean): string {
  if (reached) return "Reached";
  return isToday ? "Not yet" : "Not reached";
}
