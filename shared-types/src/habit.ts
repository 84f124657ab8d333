import { type Static, Type } from "typebox";
import { DAILY_STEP_GOAL } from "./constants.js";
import { addDays, type DayString, londonDay, londonDayStart, londonHour } from "./dates.js";
import { countOf, formatNumber } from "./numbers.js";
import { THEMES } from "./theme.js";

/** The walker's own settings: their daily goal, the app's theme, and whether they were welcomed. */
export const ACCOUNT_PREFERENCES_PATH = "/api/account/preferences";

export const DAILY_GOAL_MIN = 2_000;
export const DAILY_GOAL_MAX = 30_000;
/** A goal moves in steps of this many. */
export const DAILY_GOAL_STEP = 500;
/** The goal of every day before the walker first set one of their own. */
export const DEFAULT_DAILY_GOAL = DAILY_STEP_GOAL;

/** What a goal outside its bounds is told, after the field's name. */
export const DAILY_GOAL_RULE = `must be a whole number of steps from ${formatNumber(DAILY_GOAL_MIN)} to ${formatNumber(DAILY_GOAL_MAX)}, in steps of ${DAILY_GOAL_STEP}`;

export function isDailyGoal(value: unknown): value is number {
  return (
    typeof value === "number" &&
    Number.isInteger(value) &&
    value >= DAILY_GOAL_MIN &&
    value <= DAILY_GOAL_MAX &&
    value % DAILY_GOAL_STEP === 0
  );
}

const ThemeSchema = Type.Enum(THEMES, {
  description: "system follows the device's light or dark setting",
});

export const PreferencesResponse = Type.Object({
  dailyGoal: Type.Integer({ description: "Steps a day; 10,000 until the walker sets their own" }),
  theme: ThemeSchema,
  onboardedAt: Type.Union([Type.String({ description: "ISO 8601 timestamp" }), Type.Null()], {
    description: "When the walker finished or skipped the welcome; null until then",
  }),
  weeklyEmail: Type.Boolean({
    description: "Monday's look back on the week comes by email too (once the email is confirmed)",
  }),
});
export type PreferencesResponse = Static<typeof PreferencesResponse>;

/** `PUT /api/account/preferences`: any of the settings; `onboarded: true` marks the welcome done. */
export const PreferencesUpdate = Type.Object(
  {
    dailyGoal: Type.Optional(
      Type.Integer({
        minimum: DAILY_GOAL_MIN,
        maximum: DAILY_GOAL_MAX,
        multipleOf: DAILY_GOAL_STEP,
        errorMessage: DAILY_GOAL_RULE,
      }),
    ),
    theme: Type.Optional(ThemeSchema),
    weeklyEmail: Type.Optional(Type.Boolean()),
    onboarded: Type.Optional(
      Type.Literal(true, { description: "The welcome was finished or skipped; it stays so once set" }),
    ),
  },
  { additionalProperties: false, minProperties: 1 },
);
export type PreferencesUpdate = Static<typeof PreferencesUpdate>;

/** From `from` on (a London day), the walker's goal was `goal`, until a later row says otherwise. */
export interface GoalFrom {
  from: DayString;
  goal: number;
}

/**
 * The goal of `day`: the latest goal set on or before it, or the default for days before the
 * walker first set one. `goals` is in order of `from`.
 */
export function goalOn(goals: readonly GoalFrom[], day: DayString): number {
  let goal = DEFAULT_DAILY_GOAL;
  for (const row of goals) {
    if (row.from > day) break;
    goal = row.goal;
  }
  return goal;
}

export interface Streak {
  /** Days on goal in a row, ending today once today is on goal, else ending yesterday. */
  current: number;
  /** The longest such run ever, the current one included. */
  best: number;
}

/**
 * Streaks: runs of consecutive London days on which the counted steps reached that day's goal.
 * Today does not break a run until it is over: until today is on goal, the run shown is the one
 * ending yesterday. `days` maps each day with steps to its counted total.
 */
export function streakOf(
  days: ReadonlyMap<DayString, number>,
  goals: readonly GoalFrom[],
  today: DayString,
): Streak & { todayOnGoal: boolean } {
  const onGoal = (day: DayString) => (days.get(day) ?? 0) >= goalOn(goals, day);
  const todayOnGoal = onGoal(today);
  let current = 0;
  for (let day = todayOnGoal ? today : addDays(today, -1); onGoal(day); day = addDays(day, -1)) current++;
  let best = current;
  let run = 0;
  let previous: DayString | null = null;
  for (const day of [...days.keys()].filter((day) => day <= today).sort()) {
    if (!onGoal(day)) {
      run = 0;
      previous = null;
      continue;
    }
    run = previous !== null && addDays(previous, 1) === day ? run + 1 : 1;
    previous = day;
    best = Math.max(best, run);
  }
  return { current, best, todayOnGoal };
}

/** A week's look back: `start` is its Monday (a London day). */
export const WEEK_SUMMARY_PATH = "/api/summary/week";
/** The week's card shows from this hour (London) on the Monday after the week. */
export const WEEK_SUMMARY_FROM_HOUR = 7;
export const NOT_A_MONDAY_MESSAGE = "start must be a Monday (YYYY-MM-DD), the first day of a week.";

export const WeekSummaryQuery = Type.Object(
  {
    start: Type.String({
      pattern: "^[0-9]{4}-[0-9]{2}-[0-9]{2}$",
      errorMessage: "must be a date, YYYY-MM-DD",
      description: "The week's Monday, YYYY-MM-DD",
    }),
  },
  { additionalProperties: false },
);
export type WeekSummaryQuery = Static<typeof WeekSummaryQuery>;

export const WeekSummaryResponse = Type.Object({
  start: Type.String(),
  /** Every counted step of the week (pending ones included). */
  steps: Type.Integer(),
  /** Days whose counted steps reached that day's own goal. */
  daysOnGoal: Type.Integer(),
  /** The week's day with the most steps (its Monday with 0 for a week without any). */
  bestDay: Type.Object({ date: Type.String(), steps: Type.Integer() }),
  /** The week before's steps: 0 when there were none. */
  previousWeekSteps: Type.Integer(),
});
export type WeekSummaryResponse = Static<typeof WeekSummaryResponse>;

/**
 * The Monday of the week to look back on at `now`: last week's, from 07:00 London on Monday until
 * the next Monday's 07:00; null in the hours before that, when the week just ended is not ready.
 */
export function weekToLookBackOn(now: number): DayString | null {
  const today = londonDay(now);
  if (isMonday(today) && londonHour(now) < WEEK_SUMMARY_FROM_HOUR) return null;
  return addDays(mondayOf(today), -7);
}

/** The instant the week from Monday `start` is over: midnight London at the start of the next Monday. */
export function weekEndsAt(start: DayString): number {
  return londonDayStart(addDays(start, 7));
}

/**
 * Whether an account created at `createdAt` was the walker's during the week from `start`: a week
 * they joined in is theirs (part of it), one over before they joined is not theirs to look back on,
 * whatever steps their phone's history brought from it.
 */
export function hadAccountInWeek(createdAt: number, start: DayString): boolean {
  return createdAt < weekEndsAt(start);
}

/** Monday is day 1 of the week, as in ISO 8601 (the calendar day's own weekday, whatever the zone). */
export function isMonday(day: DayString): boolean {
  return new Date(`${day}T12:00:00Z`).getUTCDay() === 1;
}

/** The Monday of the week holding `day`. */
export function mondayOf(day: DayString): DayString {
  const weekday = new Date(`${day}T12:00:00Z`).getUTCDay();
  return addDays(day, -((weekday + 6) % 7));
}

/** The week's summary from its days' counted steps (`days` may hold days outside the two weeks). */
export function weekSummary(
  start: DayString,
  days: ReadonlyMap<DayString, number>,
  goals: readonly GoalFrom[],
): WeekSummaryResponse {
  let steps = 0;
  let daysOnGoal = 0;
  let bestDay = { date: start, steps: 0 };
  let previousWeekSteps = 0;
  for (let offset = 0; offset < 7; offset++) {
    const day = addDays(start, offset);
    const total = days.get(day) ?? 0;
    steps += total;
    if (total >= goalOn(goals, day)) daysOnGoal++;
    if (total > bestDay.steps) bestDay = { date: day, steps: total };
    previousWeekSteps += days.get(addDays(start, offset - 7)) ?? 0;
  }
  return { start, steps, daysOnGoal, bestDay, previousWeekSteps };
}

/**
 * How often the week's look back is mailed, in the mail and on the page that stops it: it goes from
 * the Monday after the week, or later that week when a process was down, never twice.
 */
export const WEEKLY_SUMMARY_CADENCE = "once a week, after each week ends";

/** The week against the one before, in words: the card's line and the mail's. */
export function weekChangeText(steps: number, previous: number): string {
  if (previous === 0)
    return steps > 0 ? "Your first week of steps with us" : "No steps the week before either";
  // Not "100% fewer": a week without steps, said as the walker would say it. The week looked back
  // on is over (the card and the mail come after it), so it is "that week".
  if (steps === 0) return `No steps that week, after ${countOf(previous, "step")} the week before`;
  // A few steps after many rounds to -100%, which would read as none at all.
  const change = Math.max(Math.round(((steps - previous) / previous) * 100), -99);
  if (change === 0) return "As many steps as the week before";
  return change > 0
    ? `${change}% more steps than the week before`
    : `${-change}% fewer steps than the week before`;
}

/** "Your 52,310 steps last week walked for British Heart Foundation". */
export function weekImpactText(steps: number, charityName: string): string {
  return `Your ${formatNumber(steps)} steps last week walked for ${charityName}`;
}
