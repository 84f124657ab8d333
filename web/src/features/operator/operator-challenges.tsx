import { CHALLENGES_PATH, type ChallengeItem, OPERATOR_CHALLENGES_PATH } from "@charity-steps/shared-types";
import { useMutation, useQueryClient } from "@tanstack/react-query";
import { Flag } from "lucide-react";
import { Link } from "react-router-dom";
import { ChallengeForm } from "../../components/challenge-form";
import { apiRequest } from "../../lib/api-client";
import { challengePagePath, paths } from "../../lib/paths";
import { toast } from "../../lib/toast-store";

/** Operators set public challenges: anyone may join them, and their totals are public. */
export function OperatorChallenges() {
  const queryClient = useQueryClient();
  const create = useMutation({
    mutationFn: async (input: Parameters<Parameters<typeof ChallengeForm>[0]["onSubmit"]>[0]) =>
      (await (await apiRequest("POST", OPERATOR_CHALLENGES_PATH, input)).json()) as ChallengeItem,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: [CHALLENGES_PATH] }),
  });
  return (
    <section className="card mt-4 space-y-3 p-4" aria-labelledby="operator-challenges-title">
      <h2 id="operator-challenges-title" className="flex items-center gap-2 text-lg font-semibold">
        <Flag aria-hidden="true" className="size-5 text-brand-strong" />
        Set a public challenge
      </h2>
      <p className="text-sm text-muted">
        Anyone may join it. Once it starts, only its end can be moved, and only later; every change is in the
        audit log.
      </p>
      <ChallengeForm
        kinds={["total_steps", "daily_target"]}
        submitLabel="Create Challenge"
        onSubmit={async (input) => {
          const made = await create.mutateAsync(input);
          toast({
            title: "Challenge created",
            description: `${made.name}: ${window.location.origin}${challengePagePath(made.id)}`,
          });
        }}
      />
      <p className="text-sm">
        <Link to={paths.challenges} className="link">
          See the challenges as walkers do
        </Link>
      </p>
    </section>
  );
}
