import { DAILY_GOAL_MAX, DAILY_GOAL_MIN, DAILY_GOAL_STEP, isDailyGoal } from "@charity-steps/shared-types";
import { Minus, Plus } from "lucide-react";
import { useId } from "react";
import { formatSteps } from "../../lib/format";

/** What the goal field says of a value it cannot take. */
export const DAILY_GOAL_HINT = `From ${formatSteps(DAILY_GOAL_MIN)} to ${formatSteps(DAILY_GOAL_MAX)} steps, in steps of ${DAILY_GOAL_STEP}.`;

/** A daily goal: a number field with buttons a step of 500 either way, held within its bounds. */
export function DailyGoalField({ value, onChange }: { value: number; onChange: (goal: number) => void }) {
  const id = useId();
  const valid = isDailyGoal(value);
  const nudge = (by: number) => {
    const rounded = Math.round(value / DAILY_GOAL_STEP) * DAILY_GOAL_STEP;
    onChange(Math.min(DAILY_GOAL_MAX, Math.max(DAILY_GOAL_MIN, rounded + by)));
  };
  return (
    <div>
      <label htmlFor={id} className="font-medium">
        Steps a day
      </label>
      <div className="mt-1 flex items-center gap-2">
        <button
          type="button"
          className="btn-secondary size-11 shrink-0 p-0"
          aria-label={`${DAILY_GOAL_STEP} fewer steps`}
          disabled={value <= DAILY_GOAL_MIN}
          onClick={() => nudge(-DAILY_GOAL_STEP)}
        >
          <Minus aria-hidden="true" className="size-5" />
        </button>
        <input
          id={id}
          type="number"
          inputMode="numeric"
          className="field mt-0 w-36 min-w-0 shrink text-center text-lg font-semibold"
          min={DAILY_GOAL_MIN}
          max={DAILY_GOAL_MAX}
          step={DAILY_GOAL_STEP}
          value={Number.isNaN(value) ? "" : value}
          aria-invalid={!valid}
          aria-describedby={`${id}-hint`}
          onChange={(event) => onChange(event.target.valueAsNumber)}
        />
        <button
          type="button"
          className="btn-secondary size-11 shrink-0 p-0"
          aria-label={`${DAILY_GOAL_STEP} more steps`}
          disabled={value >= DAILY_GOAL_MAX}
          onClick={() => nudge(DAILY_GOAL_STEP)}
        >
          <Plus aria-hidden="true" className="size-5" />
        </button>
      </div>
      <p
        id={`${id}-hint`}
        className={`mt-1 text-sm ${valid ? "text-muted" : "font-medium text-destructive"}`}
      >
        {DAILY_GOAL_HINT}
      </p>
    </div>
  );
}
