import {
  CHARITIES,
  type CharityName,
  type CharitySelectionResponse,
  FUTURE_MONTHLY_PRICE_PENCE,
  formatPounds,
  splitRevenue,
} from "@charity-steps/shared-types";
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { Check, HeartHandshake } from "lucide-react";
import { CollapsibleSection } from "../../components/collapsible-section";
import { LoadingSpinner } from "../../components/loading-spinner";
import { Page } from "../../components/page";
import { apiRequest } from "../../lib/api-client";
import { refreshStepQueries } from "../../lib/step-queries";
import { toast } from "../../lib/toast-store";
import { handleUnauthorizedError } from "../../lib/unauthorized";
import { useOnline } from "../../lib/use-online";

const SELECTION_KEY = ["/api/charity/selection"] as const;
const charityShare = formatPounds(splitRevenue(FUTURE_MONTHLY_PRICE_PENCE).charity);

export function CharityPage() {
  const queryClient = useQueryClient();
  const online = useOnline();
  const selection = useQuery<CharitySelectionResponse | null>({ queryKey: SELECTION_KEY });
  const select = useMutation({
    mutationFn: async (charityName: CharityName) =>
      (await (
        await apiRequest("POST", "/api/charity/select", { charityName })
      ).json()) as CharitySelectionResponse,
    onSuccess: async (answer) => {
      queryClient.setQueryData(SELECTION_KEY, answer);
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
  if (selection.isLoading) return <LoadingSpinner />;
  const chosen = selection.data?.charityName ?? null;

  return (
    <Page title="Charity">
      {chosen && (
        <section
          className="card mb-4 flex items-center gap-3 border-brand bg-brand-soft p-4"
          aria-label="Your Beta Selection"
        >
          <HeartHandshake aria-hidden="true" className="size-8 text-brand-strong" />
          <div>
            <p className="text-sm font-semibold text-brand-strong">Your Beta Selection</p>
            <p className="text-lg font-bold">{chosen}</p>
          </div>
        </section>
      )}
      {!online && (
        <p className="card mb-4 p-3 text-sm text-muted" role="status">
          You're offline: choosing a charity needs the connection.
        </p>
      )}
      <div className="space-y-3">
        <CollapsibleSection title="How Charity Support Works">
          <p>
            Choose one of three UK charities. While the beta is free, your choice tells us where your steps
            should count.
          </p>
          <p>
            After the app-store launch, half of every {formatPounds(FUTURE_MONTHLY_PRICE_PENCE)} monthly
            subscription ({charityShare}) will go to the charity you chose. You can change your choice at any
            time.
          </p>
        </CollapsibleSection>
        <CollapsibleSection title="Choose Your Charity" defaultOpen>
          <ul className="space-y-3">
            {CHARITIES.map((charity) => {
              const isChosen = charity.name === chosen;
              return (
                <li key={charity.name} className="rounded-lg border border-line bg-white p-4 text-ink">
                  <h3 className="text-lg font-semibold">{charity.name}</h3>
                  <p className="mt-1 text-sm text-muted">{charity.description}</p>
                  <p className="mt-2 text-sm">
                    <span className="font-medium">Focus:</span> {charity.focus}
                  </p>
                  <button
                    type="button"
                    className={`${isChosen ? "btn-secondary" : "btn-primary"} mt-3 w-full`}
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
        </CollapsibleSection>
        <CollapsibleSection title="Future Impact">
          <p>
            Once paid subscriptions start, we will publish each month how much every charity received from
            Charity Steps walkers. In the free beta no money changes hands yet.
          </p>
        </CollapsibleSection>
      </div>
    </Page>
  );
}
