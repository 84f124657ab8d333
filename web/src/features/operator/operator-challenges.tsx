import {
  CHALLENGES_PATH,
  type ChallengeInput,
  type ChallengeItem,
  type ChallengesResponse,
  londonDay,
  OPERATOR_CHALLENGES_PATH,
  operatorChallengePath,
} from "@charity-steps/shared-types";
import { type QueryClient, useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { Flag } from "lucide-react";
import { type FormEvent, useState } from "react";
import { Link } from "react-router-dom";
import { ChallengeForm } from "../../components/challenge-form";
import { ConfirmDialog } from "../../components/confirm-dialog";
import { apiRequest, serverMessage } from "../../lib/api-client";
import { challengePagePath, paths } from "../../lib/paths";
import { toast } from "../../lib/toast-store";
import { AUDIT_LOG_KEY } from "./operator-queries";

/** After an operator's change to a challenge: the list, and the audit log that records the change. */
function refreshChallenges(queryClient: QueryClient) {
  return Promise.all([
    queryClient.invalidateQueries({ queryKey: [CHALLENGES_PATH] }),
    queryClient.invalidateQueries({ queryKey: AUDIT_LOG_KEY }),
  ]);
}

/**
 * Operators set public challenges (anyone may join them, and their totals are public), cancel one
 * before it starts, and move a running one's end later.
 */
export function OperatorChallenges() {
  const queryClient = useQueryClient();
  const create = useMutation({
    mutationFn: async (input: ChallengeInput) =>
      (await (await apiRequest("POST", OPERATOR_CHALLENGES_PATH, input)).json()) as ChallengeItem,
    onSuccess: () => refreshChallenges(queryClient),
  });
  return (
    <section className="card mt-4 space-y-3 p-4" aria-labelledby="operator-challenges-title">
      <h2
        id="operator-challenges-title"
        tabIndex={-1}
        className="flex items-center gap-2 text-lg font-semibold"
      >
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
      <PublicChallengesList />
      <p className="text-sm">
        <Link to={paths.challenges} className="link">
          See the challenges as walkers do
        </Link>
      </p>
    </section>
  );
}

/** The public challenges not ended: cancel one that has not started, or move a running one's end later. */
function PublicChallengesList() {
  const queryClient = useQueryClient();
  const challenges = useQuery<ChallengesResponse | null>({ queryKey: [CHALLENGES_PATH] });
  const today = londonDay();
  const [cancelling, setCancelling] = useState<ChallengeItem | null>(null);
  const refresh = () => refreshChallenges(queryClient);
  const cancel = useMutation({
    mutationFn: async (id: string) => apiRequest("DELETE", operatorChallengePath(id)),
    onSuccess: async () => {
      await refresh();
      // The button that asked is gone with its challenge: the focus goes to the section's heading,
      // not to the top of the page.
      document.getElementById("operator-challenges-title")?.focus();
    },
    onError: (error) =>
      toast({
        title: "Not cancelled",
        description: serverMessage(error, "Please try again."),
        variant: "destructive",
      }),
  });
  const moveEnd = useMutation({
    mutationFn: async ({ item, endsOn }: { item: ChallengeItem; endsOn: string }) => {
      const input: ChallengeInput = {
        name: item.name,
        description: item.description,
        charityName: item.charityName,
        kind: item.kind,
        target: item.target,
        dailyTarget: item.dailyTarget,
        startsOn: item.startsOn,
        endsOn,
      };
      await apiRequest("PUT", operatorChallengePath(item.id), input);
    },
    onSuccess: () => {
      toast({ title: "The end moved" });
      return refresh();
    },
    onError: (error) =>
      toast({
        title: "Not moved",
        description: serverMessage(error, "Please try again."),
        variant: "destructive",
      }),
  });
  const running = (challenges.data?.items ?? []).filter(
    (item) => item.scope === "public" && item.endsOn >= today,
  );
  if (running.length === 0) return null;
  const submitEnd = (item: ChallengeItem) => (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const endsOn = String(new FormData(event.currentTarget).get("endsOn") ?? "");
    moveEnd.mutate({ item, endsOn });
  };
  return (
    <>
      <h3 className="font-semibold">Public challenges not ended</h3>
      <ul className="space-y-2" aria-label="Public challenges not ended">
        {running.map((item) => (
          <li key={item.id} className="rounded-lg border border-line p-3">
            <p className="font-medium [overflow-wrap:anywhere]">{item.name}</p>
            <p className="text-sm text-muted">
              {item.startsOn} to {item.endsOn}
            </p>
            {today < item.startsOn ? (
              <button type="button" className="btn-secondary mt-2" onClick={() => setCancelling(item)}>
                Cancel challenge
              </button>
            ) : (
              <form className="mt-2 flex flex-wrap items-end gap-2" onSubmit={submitEnd(item)}>
                <label className="block text-sm font-medium">
                  New end
                  <input
                    name="endsOn"
                    type="date"
                    className="field"
                    min={item.endsOn}
                    defaultValue={item.endsOn}
                    required
                  />
                </label>
                <button type="submit" className="btn-secondary" disabled={moveEnd.isPending}>
                  Move end
                </button>
              </form>
            )}
          </li>
        ))}
      </ul>
      <ConfirmDialog
        open={cancelling !== null}
        title="Cancel this challenge?"
        description={`${cancelling?.name ?? "It"} goes, with everyone who joined it. It has not started, so no steps are lost.`}
        confirmLabel="Cancel challenge"
        onConfirm={() => {
          if (cancelling) cancel.mutate(cancelling.id);
          setCancelling(null);
        }}
        onCancel={() => setCancelling(null)}
      />
    </>
  );
}
