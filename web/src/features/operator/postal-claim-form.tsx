import {
  type OperatorPrize,
  operatorPrizeClaimPath,
  PRIZE_COUNTY_MAX_CHARS,
  PRIZE_DELIVERY_ADDRESS_MAX_CHARS,
  PRIZE_PUBLIC_NAME_MAX_CHARS,
  type PrizeClaimRequest,
} from "@charity-steps/shared-types";
import { useMutation, useQueryClient } from "@tanstack/react-query";
import { type FormEvent, useId, useState } from "react";
import { CharacterCount, overLimit, tooLongMessage } from "../../components/character-count";
import { FormProblem } from "../../components/form-problem";
import { apiRequest, serverMessage } from "../../lib/api-client";
import { toast } from "../../lib/toast-store";
import { handleUnauthorizedError } from "../../lib/unauthorized";
import { operatorDrawQuery } from "./operator-draw-queries";
import { AUDIT_LOG_KEY } from "./operator-queries";

/**
 * A postal winner has no account to claim with: they send their claim back (by post or mail) and
 * an operator records it here, within the same days to claim, with the same confirmations.
 */
export function PostalClaimForm({ month, prize }: { month: string; prize: OperatorPrize }) {
  const queryClient = useQueryClient();
  const ids = { name: useId(), county: useId(), address: useId(), over18: useId(), problem: useId() };
  const [problem, setProblem] = useState<string | null>(null);
  const [fields, setFields] = useState({ publicName: "", county: "", deliveryAddress: "", over18: false });

  const record = useMutation({
    mutationFn: async (claim: PrizeClaimRequest) =>
      (await apiRequest("POST", operatorPrizeClaimPath(prize.id), claim)).json() as Promise<OperatorPrize>,
    onSuccess: async () => {
      setProblem(null);
      toast({ title: "Claim recorded", description: `${prize.tier}, ticket ${prize.ticket}: claimed.` });
      await Promise.all([
        queryClient.invalidateQueries({ queryKey: operatorDrawQuery(month).queryKey }),
        queryClient.invalidateQueries({ queryKey: AUDIT_LOG_KEY }),
      ]);
    },
    onError: (error) => {
      if (handleUnauthorizedError(error)) return;
      setProblem(
        serverMessage(error, "The claim could not be recorded. Check your connection and try again."),
      );
    },
  });

  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (!fields.publicName.trim() || !fields.county.trim() || !fields.deliveryAddress.trim()) {
      setProblem("Fill in the name to publish, the county and where to send the prize.");
      return;
    }
    if (!fields.over18) {
      setProblem("Record the claim only once the winner has confirmed that they are 18 or over.");
      return;
    }
    const limits = [
      ["The name to publish", fields.publicName, PRIZE_PUBLIC_NAME_MAX_CHARS],
      ["The county", fields.county, PRIZE_COUNTY_MAX_CHARS],
      ["The address", fields.deliveryAddress, PRIZE_DELIVERY_ADDRESS_MAX_CHARS],
    ] as const;
    const tooLong = limits.find(([, text, max]) => overLimit(text.trim(), max));
    if (tooLong) {
      setProblem(tooLongMessage(tooLong[0], tooLong[2]));
      return;
    }
    // Sent as counted: the server's limits are on the text as it arrives, before it trims it.
    record.mutate({
      ...fields,
      publicName: fields.publicName.trim(),
      county: fields.county.trim(),
      deliveryAddress: fields.deliveryAddress.trim(),
      over18: true,
    });
  };

  const set = (key: keyof typeof fields) => (value: string | boolean) =>
    setFields((current) => ({ ...current, [key]: value }));

  return (
    <details className="draw-confirm mt-2">
      <summary className="cursor-pointer text-sm font-medium">Record their claim</summary>
      <form className="mt-2 space-y-2" onSubmit={submit} noValidate aria-describedby={ids.problem}>
        <div>
          <label htmlFor={ids.name} className="block text-sm font-medium">
            Name to publish (e.g. J. Smith)
          </label>
          <input
            id={ids.name}
            className="field"
            value={fields.publicName}
            aria-describedby={`${ids.name}-count`}
            onChange={(event) => set("publicName")(event.target.value)}
          />
          <CharacterCount
            id={`${ids.name}-count`}
            label="The name to publish"
            text={fields.publicName.trim()}
            max={PRIZE_PUBLIC_NAME_MAX_CHARS}
          />
        </div>
        <div>
          <label htmlFor={ids.county} className="block text-sm font-medium">
            County
          </label>
          <input
            id={ids.county}
            className="field"
            value={fields.county}
            aria-describedby={`${ids.county}-count`}
            onChange={(event) => set("county")(event.target.value)}
          />
          <CharacterCount
            id={`${ids.county}-count`}
            label="The county"
            text={fields.county.trim()}
            max={PRIZE_COUNTY_MAX_CHARS}
          />
        </div>
        <div>
          <label htmlFor={ids.address} className="block text-sm font-medium">
            Where to send the prize
          </label>
          <textarea
            id={ids.address}
            className="field"
            rows={3}
            value={fields.deliveryAddress}
            aria-describedby={`${ids.address}-count`}
            onChange={(event) => set("deliveryAddress")(event.target.value)}
          />
          <CharacterCount
            id={`${ids.address}-count`}
            label="The address"
            text={fields.deliveryAddress.trim()}
            max={PRIZE_DELIVERY_ADDRESS_MAX_CHARS}
          />
        </div>
        <div className="flex items-start gap-2">
          <input
            id={ids.over18}
            type="checkbox"
            checked={fields.over18}
            onChange={(event) => set("over18")(event.target.checked)}
          />
          <label htmlFor={ids.over18} className="text-sm">
            The winner confirmed that they are 18 or over
          </label>
        </div>
        <FormProblem id={ids.problem} problem={problem} />
        <button type="submit" className="btn-primary draw-small-button" disabled={record.isPending}>
          {record.isPending ? "Recording…" : "Record the claim"}
        </button>
      </form>
    </details>
  );
}
