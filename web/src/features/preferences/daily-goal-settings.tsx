import { DEFAULT_DAILY_GOAL, isDailyGoal } from "@charity-steps/shared-types";
import { Target } from "lucide-react";
import { useState } from "react";
import { Link } from "react-router-dom";
import { formatSteps } from "../../lib/format";
import { paths } from "../../lib/paths";
import { toast } from "../../lib/toast-store";
import { DailyGoalField } from "./daily-goal-field";
import { useChangePreferences, usePreferences } from "./use-preferences";

/** The Account page's daily goal, and the way back to the welcome. */
export function DailyGoalSettings() {
  const preferences = usePreferences();
  const { change, isPending } = useChangePreferences();
  const [goal, setGoal] = useState<number | null>(null);
  const saved = preferences.data?.dailyGoal ?? DEFAULT_DAILY_GOAL;
  const shown = goal ?? saved;
  return (
    <section className="card mt-4 space-y-3 p-4" aria-labelledby="daily-goal-title">
      <h2 id="daily-goal-title" className="flex items-center gap-2 text-lg font-semibold">
        <Target aria-hidden="true" className="size-5 text-brand-strong" />
        Your daily goal
      </h2>
      <p className="text-sm text-muted">
        A new goal counts from today; the days before keep the goal they had, and so does your streak.
      </p>
      <form
        className="space-y-3"
        onSubmit={(event) => {
          event.preventDefault();
          change(
            { dailyGoal: shown },
            {
              onSuccess: (answer) => {
                setGoal(null);
                toast({
                  title: "Daily goal saved",
                  description: `${formatSteps(answer.dailyGoal)} steps a day from today.`,
                });
              },
            },
          );
        }}
      >
        <DailyGoalField value={shown} onChange={setGoal} />
        <button
          type="submit"
          className="btn-primary"
          disabled={isPending || !isDailyGoal(shown) || shown === saved}
        >
          Save goal
        </button>
      </form>
      <p className="text-sm">
        <Link className="link" to={paths.welcome}>
          Open the welcome again
        </Link>
      </p>
    </section>
  );
}
