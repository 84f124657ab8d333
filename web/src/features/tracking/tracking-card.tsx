import { DEFAULT_DAILY_GOAL } from "@charity-steps/shared-types";
import { Activity, HeartPulse, Moon, Smartphone, X } from "lucide-react";
import { useCallback, useId, useState } from "react";
import { Link } from "react-router-dom";
import { formatSteps } from "../../lib/format";
import { isLondonToday, londonShortDay, londonTime } from "../../lib/london-time";
import { paths } from "../../lib/paths";
import { dailyGoalPercent } from "../../lib/step-progress";
import { PocketScreen } from "./pocket-screen";
import type { ScreenState } from "./screen-wake-lock";
import { useTracking } from "./tracking-store";

type Choice = "device_motion" | "apple_health" | "google_fit";

const CHOICES: { value: Choice; label: string; hint: string }[] = [
  {
    value: "device_motion",
    label: "This phone's motion sensors",
    hint: "Counts while this screen is on: keep the app open as you walk, or use the pocket screen.",
  },
  {
    value: "apple_health",
    label: "Apple Health (iPhone)",
    hint: "Your iPhone counts all day. Its Shortcuts app can send the steps here every evening.",
  },
  {
    value: "google_fit",
    label: "Google Fit",
    hint: "Google has shut down Google Fit's web access, so it cannot send steps any more. Count with this phone's motion sensors, or add steps by hand with a photo.",
  },
];

const SCREEN_MESSAGES: Record<ScreenState, string> = {
  "kept-on": "Counting while this screen is on. The screen stays on while you count.",
  off: "Counting while this screen is on. If it turns off, counting stops until you come back.",
  refused:
    "Counting while this screen is on. The phone would not keep the screen on (battery saver?), so counting stops when it turns off.",
  unsupported:
    "Counting while this screen is on. This browser cannot keep the screen on: keep it awake while you walk.",
};

/** "18:02" today, "3 Nov, 18:02" before, in London time like every day in the app. */
export function formatImportTime(iso: string, now: number = Date.now()): string {
  return isLondonToday(iso, now) ? londonTime(iso) : `${londonShortDay(iso, now)}, ${londonTime(iso)}`;
}

/** "1 h 5 min" or "12 min": how long counting paused. */
export function formatAway(ms: number): string {
  const minutes = Math.max(1, Math.round(ms / 60_000));
  const hours = Math.floor(minutes / 60);
  if (hours === 0) return `${minutes} min`;
  return minutes % 60 === 0 ? `${hours} h` : `${hours} h ${minutes % 60} min`;
}

/**
 * The real-time step tracking card: Enable, Test Movement, Disconnect, the Live badge, walk mode's
 * pocket screen, and the other ways to count (Apple Health; Google Fit, which is gone).
 */
export function TrackingCard({
  todaySteps,
  dailyGoal = DEFAULT_DAILY_GOAL,
  appleHealthLastImportAt = null,
}: {
  todaySteps: number;
  /** The walker's own goal for today. */
  dailyGoal?: number;
  /** When the Shortcut last sent Apple Health's steps with one of the walker's keys. */
  appleHealthLastImportAt?: string | null;
}) {
  const {
    connection,
    live,
    waitingForOtherTab,
    screen,
    pausedFor,
    dismissPause,
    enable,
    disconnect,
    testMovement,
  } = useTracking();
  const [choice, setChoice] = useState<Choice>("device_motion");
  const [testing, setTesting] = useState(false);
  const [pocket, setPocket] = useState(false);
  const leavePocket = useCallback(() => setPocket(false), []);
  const selectId = useId();
  const connected = connection !== "disconnected";
  const counting = live || waitingForOtherTab;
  const percent = dailyGoalPercent(todaySteps, dailyGoal);
  const hint = CHOICES.find((option) => option.value === choice)?.hint;

  return (
    <section id="walk" tabIndex={-1} className="card space-y-3 p-4" aria-labelledby={`${selectId}-title`}>
      <div className="flex items-center justify-between gap-2">
        <h2 id={`${selectId}-title`} className="flex items-center gap-2 text-lg font-semibold">
          <Activity aria-hidden="true" className="size-5 text-brand-strong" />
          Real-time step tracking
        </h2>
        {live && (
          <span className="flex items-center gap-1 rounded-full bg-brand-soft px-2 py-0.5 text-xs font-semibold text-brand-strong">
            <span
              aria-hidden="true"
              className="size-2 animate-pulse rounded-full bg-brand motion-reduce:animate-none"
            />
            Live
          </span>
        )}
      </div>
      <div>
        <p className="text-3xl font-bold" data-testid="tracking-today-steps">
          {formatSteps(todaySteps)}
        </p>
        <p className="text-sm text-muted">
          {percent}% of your {formatSteps(dailyGoal)}-step daily goal
        </p>
        <div className="mt-2 h-2 overflow-hidden rounded-full bg-line" aria-hidden="true">
          <div
            className="h-full rounded-full bg-brand transition-[width] motion-reduce:transition-none"
            style={{ width: `${percent}%` }}
          />
        </div>
      </div>
      {connected ? (
        <p className="text-sm text-muted" role="status">
          {waitingForOtherTab
            ? "Counting in another tab of Charity Steps; the numbers here follow it."
            : !live
              ? "Tap Enable to carry on counting."
              : SCREEN_MESSAGES[screen]}
        </p>
      ) : (
        <div className="space-y-2">
          <label htmlFor={selectId} className="block text-sm font-medium">
            Count steps with
            <select
              id={selectId}
              value={choice}
              aria-describedby={`${selectId}-hint`}
              onChange={(event) => setChoice(event.target.value as Choice)}
              className="field"
            >
              {CHOICES.map(({ value, label }) => (
                <option key={value} value={value}>
                  {label}
                </option>
              ))}
            </select>
          </label>
          <p id={`${selectId}-hint`} className="text-sm text-muted">
            {hint}
          </p>
        </div>
      )}
      {appleHealthLastImportAt && (
        <p className="flex items-center gap-2 text-sm text-muted" data-testid="apple-health-last-import">
          <HeartPulse aria-hidden="true" className="size-4 text-brand-strong" />
          <span>Apple Health: last import {formatImportTime(appleHealthLastImportAt)}</span>
        </p>
      )}
      {connected && pausedFor !== null && (
        <div className="flex gap-2 rounded-lg border border-line bg-page p-3 text-sm" role="note">
          <div className="space-y-1">
            <p className="font-medium">
              Counting paused for {formatAway(pausedFor)} while Charity Steps was in the background. Nothing
              was added for that time.
            </p>
            <p className="text-muted">
              To count a whole walk, keep the app open or use the pocket screen. To count the whole day on an
              iPhone,{" "}
              <Link className="link" to={paths.appleHealth}>
                send your steps from Apple Health
              </Link>
              .
            </p>
          </div>
          <button
            type="button"
            className="self-start rounded p-1 text-muted hover:text-ink"
            aria-label="Dismiss"
            onClick={dismissPause}
          >
            <X aria-hidden="true" className="size-4" />
          </button>
        </div>
      )}
      <div className="fit-grid gap-2 [--fit-min:6rem]">
        {!connected && choice === "apple_health" ? (
          <Link to={paths.appleHealth} className="btn-primary">
            <HeartPulse aria-hidden="true" className="size-4" />
            Set up
          </Link>
        ) : (
          <button
            type="button"
            className="btn-primary"
            disabled={counting || (!connected && choice === "google_fit")}
            onClick={() => void enable()}
          >
            <Smartphone aria-hidden="true" className="size-4" />
            Enable
          </button>
        )}
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
      {live && (
        <button type="button" className="btn-secondary w-full" onClick={() => setPocket(true)}>
          <Moon aria-hidden="true" className="size-4" />
          Pocket screen
        </button>
      )}
      {pocket && <PocketScreen todaySteps={todaySteps} onLeave={leavePocket} />}
    </section>
  );
}
