import { FREE_TRIAL_DAYS, FUTURE_MONTHLY_PRICE_PENCE, formatPounds } from "@charity-steps/shared-types";
import { Gift, HeartHandshake, Rocket, Wrench } from "lucide-react";
import { Page } from "../../components/page";
import { REVENUE_SPLIT } from "../../lib/pricing";

const SHARE_ICONS = { charity: HeartHandshake, prizes: Gift, operating: Wrench } as const;

/** The subscription to come: its price, what each payment will fund, and that the beta is free. */
export function SubscribePage() {
  return (
    <Page title="Subscribe">
      <section className="card space-y-3 p-4" aria-labelledby="subscribe-plan-title">
        <h2 id="subscribe-plan-title" className="flex items-center gap-2 text-lg font-semibold">
          <Rocket aria-hidden="true" className="size-5 text-brand-strong" />
          Coming Soon
        </h2>
        <p>
          <span className="text-3xl font-bold">{formatPounds(FUTURE_MONTHLY_PRICE_PENCE)}</span>
          <span className="text-muted">/month</span> · {FREE_TRIAL_DAYS}-day free trial, once Charity Steps is
          in the app stores.
        </p>
        <p className="rounded-lg bg-brand-soft p-3 font-medium text-brand-stronger">
          Nothing is charged in the beta: every feature is free while we test it together.
        </p>
      </section>
      <section className="card mt-4 space-y-3 p-4" aria-labelledby="subscribe-funds-title">
        <h2 id="subscribe-funds-title" className="text-lg font-semibold">
          What each payment will fund
        </h2>
        <ul className="space-y-3">
          {REVENUE_SPLIT.map(({ share, percent, pence, label }) => {
            const Icon = SHARE_ICONS[share];
            return (
              <li key={share} className="flex items-start gap-3">
                <Icon aria-hidden="true" className="mt-0.5 size-5 shrink-0 text-brand-strong" />
                <span>
                  <span className="font-semibold">
                    {percent}% ({formatPounds(pence)})
                  </span>{" "}
                  {label}
                </span>
              </li>
            );
          })}
        </ul>
      </section>
    </Page>
  );
}
