import type { MyGroup } from "@charity-steps/shared-types";
import { useQuery } from "@tanstack/react-query";
import { ArrowLeft, Flag } from "lucide-react";
import { useState } from "react";
import { Link } from "react-router-dom";
import { ChallengeForm } from "../../components/challenge-form";
import { LoadingSpinner } from "../../components/loading-spinner";
import { Page } from "../../components/page";
import { paths } from "../../lib/paths";
import { toast } from "../../lib/toast-store";
import { useLondonDay } from "../../lib/use-london-day";
import { ChallengeCard } from "./challenge-card";
import { useChallenges, useCreateGroupChallenge } from "./use-challenges";

/** `/challenges`: the open challenges (public, and the walker's groups'), and those just ended. */
export function ChallengesPage() {
  const challenges = useChallenges();
  const today = useLondonDay();
  const items = challenges.data?.items ?? [];
  const open = items.filter((challenge) => challenge.endsOn >= today);
  const ended = items.filter((challenge) => challenge.endsOn < today);

  return (
    <Page
      title="Challenges"
      back={
        <Link to={paths.dashboard} className="link inline-flex items-center gap-1">
          <ArrowLeft aria-hidden="true" className="size-4" />
          Back to dashboard
        </Link>
      }
    >
      <p className="mb-4 text-muted">
        Walk toward a target for a few weeks, on your own or with your group, often for a charity. Steps you
        walked since a challenge started count, even before you join.
      </p>
      {challenges.isPending ? (
        <LoadingSpinner />
      ) : open.length === 0 ? (
        <div className="card flex flex-col items-center gap-2 p-6 text-center">
          <Flag aria-hidden="true" className="size-8 text-muted" />
          <p className="font-semibold">No challenges open just now</p>
          <p className="text-muted">New ones are set every month; a group's admin can set one below.</p>
        </div>
      ) : (
        <ul className="space-y-3" aria-label="Open challenges">
          {open.map((challenge) => (
            <ChallengeCard key={challenge.id} challenge={challenge} today={today} />
          ))}
        </ul>
      )}
      {ended.length > 0 && (
        <>
          <h2 className="mt-6 mb-2 text-lg font-semibold">Just ended</h2>
          <ul className="space-y-3" aria-label="Challenges just ended">
            {ended.map((challenge) => (
              <ChallengeCard key={challenge.id} challenge={challenge} today={today} />
            ))}
          </ul>
        </>
      )}
      <GroupChallengeSection />
    </Page>
  );
}

/** For a group's admin: set a challenge for the group (a team target, or one each). */
function GroupChallengeSection() {
  const groups = useQuery<MyGroup[] | null>({ queryKey: ["/api/groups"] });
  const create = useCreateGroupChallenge();
  const run = (groups.data ?? []).filter((group) => group.isAdmin);
  const [groupId, setGroupId] = useState<number | null>(null);
  if (run.length === 0) return null;
  const chosen = groupId ?? run[0]?.id ?? 0;
  return (
    <section className="card mt-6 space-y-3 p-4" aria-labelledby="group-challenge-title">
      <h2 id="group-challenge-title" className="text-lg font-semibold">
        Set a challenge for your group
      </h2>
      {run.length > 1 && (
        <label className="block text-sm font-medium">
          Group
          <select
            className="field"
            value={chosen}
            onChange={(event) => setGroupId(Number(event.target.value))}
          >
            {run.map((group) => (
              <option key={group.id} value={group.id}>
                {group.name}
              </option>
            ))}
          </select>
        </label>
      )}
      {run.length === 1 && <p className="text-sm text-muted">For {run[0]?.name}. Its members can join it.</p>}
      <ChallengeForm
        kinds={["team_total", "total_steps", "daily_target"]}
        submitLabel="Set Challenge"
        onSubmit={async (input) => {
          const made = await create.mutateAsync({ groupId: chosen, input });
          toast({ title: "Challenge set", description: `${made.name} is open to your group.` });
        }}
      />
    </section>
  );
}
