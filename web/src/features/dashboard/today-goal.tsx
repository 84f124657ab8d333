import { Flame, PartyPopper } from "lucide-react";
import { useEffect, useRef, useState } from "react";
import { formatSteps } from "../../lib/format";
import { dailyGoalPercent } from "../../lib/step-progress";
import { toast, whenNoToastIsOpen } from "../../lib/toast-store";

/** The day a walker's goal was last celebrated on this device, by walker. */
const CELEBRATED_KEY = "charity-steps:goal-celebrated";

/** "5,500 of 8,000 steps today": the first screen's largest number and its words. */
export function todayGoalText(todaySteps: number, goal: number): string {
  return `${formatSteps(todaySteps)} of ${formatSteps(goal)} steps today`;
}

/**
 * The days on goal in a row to show: the server's run, with today added once the live count
 * reaches the goal before the server has heard (today never breaks a run before it is over).
 */
export function shownStreak(current: number, todayOnGoal: boolean, reachedNow: boolean): number {
  return !todayOnGoal && reachedNow ? current + 1 : current;
}

/** Today's steps against the walker's own goal, their streak, and a short celebration once a day. */
export function TodayGoal({
  userId,
  date,
  todaySteps,
  goal,
  streak,
  todayOnGoal,
}: {
  userId: string;
  date: string;
  todaySteps: number;
  goal: number;
  streak: { current: number; best: number };
  todayOnGoal: boolean;
}) {
  const reached = todaySteps >= goal;
  const celebrating = useCelebration(userId, date, todaySteps, goal);
  const days = shownStreak(streak.current, todayOnGoal, reached);
  const percent = dailyGoalPercent(todaySteps, goal);
  return (
    <section className="card p-5" aria-labelledby="today-title">
      <h2 id="today-title" className="text-lg font-semibold">
        Today
      </h2>
      {/* Read as one sentence: "5,500 of 8,000 steps today" (todayGoalText). */}
      <p className="mt-2" data-testid="today-goal-text">
        <span className="block text-5xl font-bold tabular-nums" data-testid="today-steps">
          {formatSteps(todaySteps)}
        </span>{" "}
        <span className="text-muted">of {formatSteps(goal)} steps today</span>
      </p>
      <div
        className="mt-3 h-3 overflow-hidden rounded-full bg-line"
        role="progressbar"
        aria-label="Today's steps towards your daily goal"
        aria-valuemin={0}
        aria-valuemax={goal}
        aria-valuenow={Math.min(todaySteps, goal)}
        aria-valuetext={`${percent}% of your daily goal`}
      >
        <div
          className={`h-full rounded-full bg-brand-strong ${celebrating ? "motion-safe:animate-pulse" : ""}`}
          style={{ width: `${percent}%` }}
        />
      </div>
      <div className="mt-3 flex flex-wrap items-center justify-between gap-2 text-sm">
        {reached ? (
          <span
            className="flex items-center gap-1 font-semibold text-brand-strong"
            data-testid="goal-reached"
          >
            <PartyPopper
              aria-hidden="true"
              className={`size-4 ${celebrating ? "motion-safe:animate-bounce" : ""}`}
            />
            Daily goal reached
          </span>
        ) : (
          <span className="text-muted">{formatSteps(goal - todaySteps)} steps to go today</span>
        )}
        {days >= 2 && (
          <span className="flex items-center gap-1 font-semibold" data-testid="streak">
            <Flame aria-hidden="true" className="size-4 text-brand-strong" />
            {days}-day streak
          </span>
        )}
      </div>
    </section>
  );
}

/**
 * The first time on this device that today's steps reach the goal: a toast, and a moment of
 * movement (for those who have not asked for less). Once a day, however often the page opens.
 */
function useCelebration(userId: string, date: string, todaySteps: number, goal: number): boolean {
  const reached = todaySteps >= goal;
  // The toast says the count when it shows (it may wait for another toast), not when it was queued.
  const steps = useRef(todaySteps);
  steps.current = todaySteps;
  const [celebrating, setCelebrating] = useState(false);
  useEffect(() => {
    if (!reached || celebratedOn(userId) === date) return;
    // One toast shows at a time, and a new one replaces it.
    return whenNoToastIsOpen(() => {
      if (celebratedOn(userId) === date) return;
      rememberCelebration(userId, date);
      setCelebrating(true);
      toast({
        title: "Daily goal reached!",
        description: `${formatSteps(steps.current)} steps today: your ${formatSteps(goal)}-step goal is done. Well walked!`,
      });
    });
  }, [reached, userId, date, goal]);
  useEffect(() => {
    if (!celebrating) return;
    const timer = setTimeout(() => setCelebrating(false), 3_000);
    return () => clearTimeout(timer);
  }, [celebrating]);
  return celebrating;
}

function celebratedOn(userId: string): string | null {
  try {
    const saved = JSON.parse(localStorage.getItem(CELEBRATED_KEY) ?? "{}") as Record<string, string>;
    return saved[userId] ?? null;
  } catch {
    return null;
  }
}

function rememberCelebration(userId: string, date: string): void {
  try {
    localStorage.setItem(CELEBRATED_KEY, JSON.stringify({ [userId]: date }));
  } catch {
    // Storage refused: the celebration may come again on the next visit, which harms nobody.
  }
}
