import { Flag } from "lucide-react";
import { Link } from "react-router-dom";
import { challengePagePath, paths } from "../../lib/paths";
import { useLondonDay } from "../../lib/use-london-day";
import { challengePaceText } from "./challenge-card";
import { useChallenges } from "./use-challenges";

/** The dashboard's one compact card of the walker's running challenges; nothing when they are in none. */
export function ChallengesDashboardCard() {
  const challenges = useChallenges();
  const today = useLondonDay();
  const running = (challenges.data?.items ?? []).filter(
    (challenge) => challenge.joined && challenge.startsOn <= today && challenge.endsOn >= today,
  );
  if (running.length === 0) return null;
  return (
    <section className="card mt-4 p-4" aria-labelledby="challenges-card-title" data-testid="challenges-card">
      <h2 id="challenges-card-title" className="flex items-center gap-2 text-lg font-semibold">
        <Flag aria-hidden="true" className="size-5 text-brand-strong" />
        Your challenges
      </h2>
      <ul className="mt-2 space-y-2">
        {running.map((challenge) => (
          <li key={challenge.id}>
            <Link to={challengePagePath(challenge.id)} className="font-medium [overflow-wrap:anywhere]">
              {challenge.name}
            </Link>
            <div
              className="mt-1 h-2 overflow-hidden rounded-full bg-line"
              role="progressbar"
              aria-label={`${challenge.name} progress`}
              aria-valuemin={0}
              aria-valuemax={100}
              aria-valuenow={challenge.progress?.percent ?? 0}
            >
              <div
                className="h-full rounded-full bg-brand-strong"
                style={{ width: `${challenge.progress?.percent ?? 0}%` }}
              />
            </div>
            <p className="text-sm text-muted">
              {challenge.progress?.percent ?? 0}% · {challengePaceText(challenge, today)}
            </p>
          </li>
        ))}
      </ul>
      <Link to={paths.challenges} className="link mt-2 inline-block text-sm">
        All challenges
      </Link>
    </section>
  );
}
