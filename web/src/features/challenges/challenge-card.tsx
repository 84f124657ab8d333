import {
  type ChallengeItem,
  challengePace,
  type DayString,
  formatShortDay,
} from "@charity-steps/shared-types";
import { Link } from "react-router-dom";
import { formatSteps } from "../../lib/format";
import { challengePagePath } from "../../lib/paths";

/** What a challenge asks, in a few words. */
export function challengeGoalText(challenge: Pick<ChallengeItem, "kind" | "target" | "dailyTarget">): string {
  switch (challenge.kind) {
    case "daily_target":
      return `${challenge.target} days of ${formatSteps(challenge.dailyTarget ?? 0)} steps`;
    case "team_total":
      return `${formatSteps(challenge.target)} steps together`;
    default:
      return `${formatSteps(challenge.target)} steps`;
  }
}

/** Days left, and whether the walker is on track or how much a day would finish it. */
export function challengePaceText(challenge: ChallengeItem, today: DayString): string {
  if (challenge.completedAt !== null) return "Completed";
  const pace = challengePace(challenge, today);
  if (today < challenge.startsOn) return `Starts ${formatShortDay(challenge.startsOn)}`;
  if (pace.daysLeft === 0) return "Ended";
  const left = pace.daysLeft === 1 ? "Last day" : `${pace.daysLeft} days left`;
  if (challenge.progress === null) return left;
  if (pace.onTrack) return `${left} · On track`;
  // For days on a daily target, the steps a day are the target's own.
  return `${left} · ${formatSteps(pace.stepsPerDay)} steps a day to finish`;
}

/** The challenge's progress as a bar, with its value in words for screen readers. */
export function ChallengeProgressBar({ challenge }: { challenge: ChallengeItem }) {
  const progress = challenge.progress;
  if (!progress) return null;
  const unit = challenge.kind === "daily_target" ? "days" : "steps";
  const text = `${formatSteps(progress.value)} of ${formatSteps(progress.target)} ${unit}, ${progress.percent}%`;
  return (
    <div className="mt-2">
      <div
        role="progressbar"
        aria-label={`${challenge.name} progress`}
        aria-valuemin={0}
        aria-valuemax={100}
        aria-valuenow={progress.percent}
        aria-valuetext={text}
        className="h-3 overflow-hidden rounded-full bg-line"
      >
        <div className="h-full rounded-full bg-brand-strong" style={{ width: `${progress.percent}%` }} />
      </div>
      <p className="mt-1 text-sm" data-testid="challenge-progress">
        {text}
      </p>
    </div>
  );
}

/** One challenge in a list: its name, what it asks, its progress and pace, and a link to its page. */
export function ChallengeCard({ challenge, today }: { challenge: ChallengeItem; today: DayString }) {
  return (
    <li className="card p-4" data-testid="challenge-card">
      <Link to={challengePagePath(challenge.id)} className="text-lg font-semibold [overflow-wrap:anywhere]">
        {challenge.name}
      </Link>
      <p className="text-sm text-muted">
        {challengeGoalText(challenge)}
        {challenge.charityName ? ` · for ${challenge.charityName}` : ""}
        {challenge.scope === "group" ? " · your group" : ""}
      </p>
      <ChallengeProgressBar challenge={challenge} />
      <p className="mt-1 text-sm font-medium" data-testid="challenge-pace">
        {challenge.joined
          ? challengePaceText(challenge, today)
          : `Not joined · ends ${formatShortDay(challenge.endsOn)}`}
      </p>
    </li>
  );
}
