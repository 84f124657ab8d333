import { DAILY_STEP_GOAL } from "@charity-steps/shared-types";
import { Activity, Smartphone } from "lucide-react";
import { useId, useState } from "react";
import { dailyGoalPercent, formatSteps } from "../dashboard/step-numbers";
import { type TrackingChoice, useTracking } from "./tracking-store";
import { HEALTH_FALLBACK_MESSAGES } from "./tracking-toasts";

const CHOICES: { value: TrackingChoice; label: string }[] = [
  { value: "device_motion", label: "This phone's motion sensors" },
  { value: "apple_health", label: "Apple Health" },
  { value: "google_fit", label: "Google Fit" },
];

/** The real-time step tracking card: Enable, Test Movement, Disconnect and the Live badge. */
export function TrackingCard({ todaySteps }: { todaySteps: number }) {
  const { connection, live, waitingForOtherTab, enable, disconnect, testMovement } = useTracking();
  const [choice, setChoice] = useState<TrackingChoice>("device_motion");
  const [testing, setTesting] = useState(false);
  const selectId = useId();
  const connected = connection !== "disconnected";
  const counting = live || waitingForOtherTab;
  const percent = dailyGoalPercent(todaySteps);

  return (
    <section className="card space-y-3 p-4" aria-labelledby={`${selectId}-title`}>
      <div className="flex items-center justify-between gap-2">
        <h2 id={`${selectId}-title`} className="flex items-center gap-2 text-lg font-semibold">
          <Activity aria-hidden="true" className="size-5 text-brand-strong" />
          Real-time step tracking
        </h2>
        {live && (
          <span className="flex items-center gap-1 rounded-full bg-brand-soft px-2 py-0.5 text-xs font-semibold text-brand-strong">
            <span aria-hidden="true" className="size-2 animate-pulse rounded-full bg-brand" />
            Live
          </span>
        )}
      </div>
      <div>
        <p className="text-3xl font-bold" data-testid="tracking-today-steps">
          {formatSteps(todaySteps)}
        </p>
        <p className="text-sm text-muted">
          {percent}% of the {formatSteps(DAILY_STEP_GOAL)}-step daily goal
        </p>
        <div className="mt-2 h-2 overflow-hidden rounded-full bg-line" aria-hidden="true">
          <div className="h-full rounded-full bg-brand transition-[width]" style={{ width: `${percent}%` }} />
        </div>
      </div>
      {connected ? (
        <p className="text-sm text-muted" role="status">
          {waitingForOtherTab
            ? "Counting in another tab of Charity Steps; the numbers here follow it."
            : !live
              ? "Tap Enable to carry on counting."
              : connection === "apple_health" || connection === "google_fit"
                ? HEALTH_FALLBACK_MESSAGES[connection]
                : "Counting with this phone's motion sensors while the app is open."}
        </p>
      ) : (
        <label htmlFor={selectId} className="block text-sm font-medium">
          Count steps with
          <select
            id={selectId}
            value={choice}
            onChange={(event) => setChoice(event.target.value as TrackingChoice)}
            className="mt-1 w-full rounded-lg border border-line bg-white px-3 py-2"
          >
            {CHOICES.map(({ value, label }) => (
              <option key={value} value={value}>
                {label}
              </option>
            ))}
          </select>
        </label>
      )}
      <div className="grid grid-cols-3 gap-2">
        <button
          type="button"
          className="btn-primary"
          disabled={counting}
          onClick={() => void enable(connected ? (connection as TrackingChoice) : choice)}
        >
          <Smartphone aria-hidden="true" className="size-4" />
          Enable
        </button>
        <button
          type="button"
          className="btn-secondary"
          disabled={testing}
          onClick={async () => {
            setTesting(true);
            await testMovement();
            setTesting(false);
          }}
        >
          {testing ? "Testing…" : "Test Movement"}
        </button>
        <button
          type="button"
          className="btn-secondary"
          disabled={!connected}
          onClick={() => void disconnect()}
        >
          Disconnect
        </button>
      </div>
    </section>
  );
}
