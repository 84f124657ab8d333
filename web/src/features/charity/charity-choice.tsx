import { CHARITIES, type CharityName, type CharitySelectionResponse } from "@charity-steps/shared-types";
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { Check } from "lucide-react";
import { CharityImpactLine } from "../../components/charity-impact-line";
import { apiRequest } from "../../lib/api-client";
import { refreshStepQueries } from "../../lib/step-queries";
import { toast } from "../../lib/toast-store";
import { handleUnauthorizedError } from "../../lib/unauthorized";
import { useOnline } from "../../lib/use-online";

export const CHARITY_SELECTION_KEY = ["/api/charity/selection"] as const;

/** The walker's charity, and choosing one: the charity page's and the welcome's. */
export function useCharityChoice() {
  const queryClient = useQueryClient();
  const selection = useQuery<CharitySelectionResponse | null>({ queryKey: CHARITY_SELECTION_KEY });
  const select = useMutation({
    mutationFn: async (charityName: CharityName) =>
      (await (
        await apiRequest("POST", "/api/charity/select", { charityName })
      ).json()) as CharitySelectionResponse,
    onSuccess: async (answer) => {
      queryClient.setQueryData(CHARITY_SELECTION_KEY, answer);
      // Read once more through the service worker, so that the copy it keeps for a visit with no
      // signal is the new choice, not the one before it.
      void queryClient.invalidateQueries({ queryKey: CHARITY_SELECTION_KEY });
      toast({
        title: "Charity Selected!",
        description: `You've chosen to support ${answer.charityName} in the beta.`,
      });
      await refreshStepQueries(queryClient);
    },
    onError: (error) => {
      if (handleUnauthorizedError(error)) return;
      toast({
        title: "Selection Failed",
        description: "Failed to select charity. Please try again.",
        variant: "destructive",
      });
    },
  });
  return { selection, chosen: selection.data?.charityName ?? null, select };
}

/** The three charities as cards, each with its Select button; the chosen one marked as chosen. */
export function CharityCards({ choice }: { choice: ReturnType<typeof useCharityChoice> }) {
  const online = useOnline();
  const { chosen, select } = choice;
  return (
    <ul className="space-y-3">
      {CHARITIES.map((charity) => {
        const isChosen = charity.name === chosen;
        return (
          <li
            key={charity.name}
            className={`rounded-lg border-2 p-4 text-ink ${isChosen ? "border-brand-strong bg-brand-soft" : "border-line bg-surface"}`}
          >
            <h3 className="text-lg font-semibold">{charity.name}</h3>
            <p className="mt-1 text-sm text-muted">{charity.description}</p>
            <p className="mt-2 text-sm">
              <span className="font-medium">Focus:</span> {charity.focus}
            </p>
            <CharityImpactLine charityName={charity.name} className="mt-2 text-muted" />
            <button
              type="button"
              // Chosen, not unavailable: the chosen card's button keeps the brand's colour (btn-chosen).
              className={`${isChosen ? "btn-chosen" : "btn-primary"} mt-3 w-full`}
              disabled={isChosen || select.isPending || !online}
              aria-label={isChosen ? `Selected: ${charity.name}` : `Select ${charity.name}`}
              onClick={() => select.mutate(charity.name)}
            >
              {isChosen ? (
                <>
                  <Check aria-hidden="true" className="size-4" /> Selected
                </>
              ) : (
                "Select"
              )}
            </button>
          </li>
        );
      })}
    </ul>
  );
}
