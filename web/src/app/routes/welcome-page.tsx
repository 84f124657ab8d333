import { DEFAULT_DAILY_GOAL, isDailyGoal } from "@charity-steps/shared-types";
import { Apple, Camera, Smartphone } from "lucide-react";
import { type ReactNode, useEffect, useRef, useState } from "react";
import { Link, useNavigate, useSearchParams } from "react-router-dom";
import { Page } from "../../components/page";
import { CharityCards, useCharityChoice } from "../../features/charity/charity-choice";
import { DailyGoalField } from "../../features/preferences/daily-goal-field";
import { usePreferences, useSavePreferences } from "../../features/preferences/use-preferences";
import { paths } from "../../lib/paths";
import { toast } from "../../lib/toast-store";
import { handleUnauthorizedError } from "../../lib/unauthorized";

const STEPS = ["Choose your charity", "How will you count?", "Your daily goal"] as const;

/** The step the address names (`?step=2`, counted from 1), so that a reload keeps the walker's place. */
function stepOf(params: URLSearchParams): number {
  const named = Number(params.get("step"));
  return Number.isInteger(named) && named >= 1 && named <= STEPS.length ? named - 1 : 0;
}

/**
 * A new walker's welcome, in three short steps: their charity, how they will count, and their
 * daily goal. Skip is always there; finishing or skipping marks the welcome done, so it is never
 * forced again (the Account page opens it on request). It gathers the charity and preferences
 * features, so it lives in app/.
 */
export function WelcomePage() {
  const navigate = useNavigate();
  const [params, setParams] = useSearchParams();
  const step = stepOf(params);
  // The step replaces the address rather than adding to the browser's history: once the welcome is
  // done, the browser's Back leaves it instead of opening one of its steps again.
  const goTo = (next: number) => setParams(next === 0 ? {} : { step: String(next + 1) }, { replace: true });
  const preferences = usePreferences();
  const [goal, setGoal] = useState<number | null>(null);
  const shownGoal = goal ?? preferences.data?.dailyGoal ?? DEFAULT_DAILY_GOAL;
  const charity = useCharityChoice();
  const save = useSavePreferences();
  const heading = useRef<HTMLHeadingElement>(null);
  // A step moved to (Next, Back, the browser's Back) has its heading take the focus, so a screen
  // reader hears where the walker now is; the step a page opens on leaves the focus to the page.
  const shownStep = useRef(step);
  useEffect(() => {
    if (shownStep.current !== step) heading.current?.focus();
    shownStep.current = step;
  }, [step]);

  const finish = (change: { dailyGoal?: number }) =>
    save.mutate(
      { ...change, onboarded: true },
      {
        onSuccess: () => navigate(paths.home, { replace: true }),
        onError: (error) => {
          if (handleUnauthorizedError(error)) return;
          toast({
            title: "Not saved",
            description: "Your choices could not be saved just now. Please try again.",
            variant: "destructive",
          });
        },
      },
    );
  const last = step === STEPS.length - 1;

  return (
    <Page title="Welcome to Charity Steps">
      <p className="text-muted">Three quick steps, and you are walking for a cause.</p>
      <ol className="mt-3 flex gap-2" aria-label="Steps of the welcome">
        {STEPS.map((name, index) => (
          <li
            key={name}
            aria-current={index === step ? "step" : undefined}
            className={`h-1.5 flex-1 rounded-full ${index <= step ? "bg-brand-strong" : "bg-line"}`}
          >
            <span className="sr-only">
              {name}
              {index < step ? " (done)" : ""}
            </span>
          </li>
        ))}
      </ol>
      <section className="card mt-4 p-4" aria-labelledby="welcome-step-title">
        <h2 id="welcome-step-title" ref={heading} tabIndex={-1} className="mb-3 text-xl font-semibold">
          {STEPS[step]}
        </h2>
        {step === 0 && (
          <>
            <p className="mb-3 text-muted">
              Your steps count for the charity you choose. You can change it at any time.
            </p>
            <CharityCards choice={charity} />
          </>
        )}
        {step === 1 && <CountingWays />}
        {step === 2 && (
          <>
            <p className="mb-3 text-muted">
              Pick a goal you can reach most days: a day on goal keeps your streak going. You can change it
              later on the Account page.
            </p>
            <DailyGoalField value={shownGoal} onChange={setGoal} />
          </>
        )}
      </section>
      <div className="mt-4 flex items-center justify-between gap-3">
        <button type="button" className="btn-secondary" disabled={save.isPending} onClick={() => finish({})}>
          Skip
        </button>
        <span className="flex-1" />
        {step > 0 && (
          <button type="button" className="btn-secondary" onClick={() => goTo(step - 1)}>
            Back
          </button>
        )}
        {last ? (
          <button
            type="button"
            className="btn-primary"
            disabled={save.isPending || !isDailyGoal(shownGoal)}
            onClick={() => finish({ dailyGoal: shownGoal })}
          >
            Done
          </button>
        ) : (
          <button type="button" className="btn-primary" onClick={() => goTo(step + 1)}>
            Next
          </button>
        )}
      </div>
    </Page>
  );
}

/** The three ways to count, plainly: what each needs and what it cannot do. */
function CountingWays() {
  return (
    <ul className="space-y-3">
      <Way icon={<Smartphone aria-hidden="true" className="size-6" />} title="This phone, in walk mode">
        Turn on tracking on the dashboard and walk with the app open. A web page counts only while it is open
        with the screen on, so walk mode keeps the screen awake for you.
      </Way>
      <Way icon={<Apple aria-hidden="true" className="size-6" />} title="Apple Health, on an iPhone">
        Your iPhone counts all day, even with the app closed.{" "}
        <Link className="link" to={paths.appleHealth}>
          Set up Apple Health
        </Link>{" "}
        with a Shortcut or an export.
      </Way>
      <Way icon={<Camera aria-hidden="true" className="size-6" />} title="By hand, with a photo">
        Add steps from any other tracker on the dashboard, with a photo of its count.
      </Way>
    </ul>
  );
}

function Way({ icon, title, children }: { icon: ReactNode; title: string; children: ReactNode }) {
  return (
    <li className="flex gap-3 rounded-lg border border-line p-3">
      <span className="text-brand-strong">{icon}</span>
      <div>
        <h3 className="font-semibold">{title}</h3>
        <p className="text-sm text-muted">{children}</p>
      </div>
    </li>
  );
}
