import { FUTURE_MONTHLY_PRICE_PENCE, formatPounds, splitRevenue } from "@charity-steps/shared-types";
import { HeartHandshake } from "lucide-react";
import { CollapsibleSection } from "../../components/collapsible-section";
import { LoadingSpinner } from "../../components/loading-spinner";
import { Page } from "../../components/page";
import { useOnline } from "../../lib/use-online";
import { CharityCards, useCharityChoice } from "./charity-choice";

const charityShare = formatPounds(splitRevenue(FUTURE_MONTHLY_PRICE_PENCE).charity);

export function CharityPage() {
  const online = useOnline();
  const choice = useCharityChoice();
  const { selection, chosen } = choice;
  if (selection.isLoading) return <LoadingSpinner />;

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
          <CharityCards choice={choice} />
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
