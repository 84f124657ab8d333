import {
  addMonths,
  type DashboardStatsResponse,
  drawPostalClosesAt,
  FUTURE_MONTHLY_PRICE_PENCE,
  formatMonth,
  formatPounds,
  londonLongDate,
  londonMonth,
  postalEntryMonth,
  prizeEntries,
  type RevenueResponse,
  splitRevenue,
  stepsToNextEntry,
} from "@charity-steps/shared-types";
import { type UseQueryResult, useQueries, useQuery } from "@tanstack/react-query";
import { Trophy } from "lucide-react";
import { CollapsibleSection } from "../../components/collapsible-section";
import {
  CONFIRM_EMAIL_FOR_DRAW,
  DrawEmailNotice,
  useUnconfirmedWalker,
} from "../../components/draw-email-notice";
import { LoadingSpinner } from "../../components/loading-spinner";
import { Page } from "../../components/page";
import { PostalAddress, useDrawRules } from "../../components/postal-address";
import { drawsNewestFirst, useDrawList } from "../../lib/draw-list";
import { formatSteps } from "../../lib/format";
import { liveEligibleSteps, waitingStepsText } from "../../lib/step-progress";
import { DASHBOARD_STATS_KEY } from "../../lib/step-queries";
import { useLiveSteps } from "../../lib/use-live-steps";
import { useDraw } from "./draw-details";
import { PastResults, ticketMonths, YourPrizes, YourTickets } from "./my-draw";
import { myDrawKey, useMyPrizes } from "./prize-queries";

const TIERS = [
  { name: "Platinum", text: "The month's top prize, drawn from every entry." },
  { name: "Gold", text: "Major prizes for a handful of entries each month." },
  { name: "Silver", text: "Smaller prizes shared among more winners." },
  { name: "Bronze", text: "Vouchers and walking gear for many winners." },
] as const;

const prizeShare = formatPounds(splitRevenue(FUTURE_MONTHLY_PRICE_PENCE).prizes);

/**
 * When postal entries must arrive: this month's date until it has passed, then the next month's, for
 * which an entry sent now counts.
 */
export function postalClosingText(postalClosesAt: string, now: number): string {
  if (now <= Date.parse(postalClosesAt)) {
    return `Free postal entries for this month's draw must arrive by ${londonLongDate(postalClosesAt)}.`;
  }
  const next = postalEntryMonth(now);
  return `Postal entries for this month's draw closed on ${londonLongDate(postalClosesAt)}. One sent now enters ${formatMonth(next)}'s draw, and must arrive by ${londonLongDate(drawPostalClosesAt(next).toISOString())}.`;
}

export function PrizeDrawPage() {
  const stats = useQuery<DashboardStatsResponse | null>({ queryKey: DASHBOARD_STATS_KEY });
  const revenue = useQuery<RevenueResponse | null>({ queryKey: ["/api/revenue/current"] });
  const { monthSteps } = useLiveSteps(stats.data);
  const month = londonMonth();
  const lastMonth = addMonths(month, -1);
  const draw = useDraw(month);
  const drawList = useDrawList();
  const draws = drawsNewestFirst(drawList.data);
  const unconfirmed = useUnconfirmedWalker();
  // The cards above the sections come and go with these answers (a prize, tickets, the draw's
  // details, the postal address): the page waits for all of their first answers, so that it is laid
  // out once and a tap on a section never lands on the card that a late answer pushed under it.
  const cards: UseQueryResult[] = [
    stats,
    draw,
    drawList,
    useMyPrizes(),
    useDrawRules(),
    ...useQueries({
      queries: ticketMonths(lastMonth, draws).map((month) => ({ queryKey: myDrawKey(month) })),
    }),
  ];
  if (cards.some((card) => card.isLoading)) return <LoadingSpinner />;
  // Entries count only eligible steps: steps waiting for a check show, but buy no entry yet.
  const eligibleSteps = liveEligibleSteps(stats.data, monthSteps);
  const entries = prizeEntries(eligibleSteps);
  const waitingSteps = stats.data?.pendingMonthSteps ?? 0;

  return (
    <Page title="Prize Draw">
      <section className="card p-6 text-center" aria-label="Your prize entries this month">
        <Trophy aria-hidden="true" className="mx-auto size-10 text-brand-strong" />
        <p className="mt-2 text-5xl font-bold" data-testid="entry-count">
          {entries}
        </p>
        <p className="text-muted">{entries === 1 ? "prize entry this month" : "prize entries this month"}</p>
        <p className="mt-3 font-semibold">
          {entries === 0
            ? `Walk ${formatSteps(stepsToNextEntry(eligibleSteps))} more steps this month to earn your first prize entry`
            : unconfirmed
              ? CONFIRM_EMAIL_FOR_DRAW
              : "Eligible for Prize Distribution!"}
        </p>
        <DrawEmailNotice className="mt-1" />
        <p className="mt-1 text-sm text-muted">{formatSteps(monthSteps)} steps walked this month</p>
        {waitingSteps > 0 && (
          <p className="mt-1 text-sm" data-testid="entry-count-waiting">
            {waitingStepsText(waitingSteps)}
          </p>
        )}
      </section>
      <YourPrizes />
      <YourTickets lastMonth={lastMonth} draws={draws} />
      <section className="card mt-4 space-y-2 p-4 text-muted" aria-labelledby="draw-heading">
        <h2 id="draw-heading" className="text-lg font-semibold text-ink">
          This month's draw
        </h2>
        {draw.data ? (
          <>
            <p data-testid="postal-closing">{postalClosingText(draw.data.postalClosesAt, Date.now())}</p>
            <p>
              Steps are counted as they stand at 12:00 (UK time) on {londonLongDate(draw.data.closesAt)}:
              steps synced after that do not change this month's draw.
            </p>
            <p>
              This month's draw commitment:{" "}
              <code className="text-sm text-ink [overflow-wrap:anywhere]" data-testid="draw-commitment">
                {draw.data.commitment}
              </code>
            </p>
            <p className="text-sm">
              The winners will be picked by computer from a secret number fixed before the draw; this code is
              that number's fingerprint. The number itself is revealed at the draw, so anyone can check that
              it matches this code and that the winners were not chosen by hand.
            </p>
          </>
        ) : draw.isLoading ? (
          <p>Loading this month's draw…</p>
        ) : (
          <p>This month's draw details are not available right now; please try again later.</p>
        )}
      </section>
      <PastResults draws={draws} />
      <section className="card mt-4 space-y-2 p-4 text-muted" aria-labelledby="postal-heading">
        <h2 id="postal-heading" className="text-lg font-semibold text-ink">
          Free entry by post
        </h2>
        <p>You never have to pay or walk to enter. To enter a month's draw for free, post a letter to:</p>
        <PostalAddress />
        <p>
          Include your full name, your postal address and your email address if you have one. One entry per
          envelope. A postal entry has exactly the same chance of winning as any other entry.
        </p>
        <p>Open to UK residents aged 18 or over.</p>
      </section>
      <div className="mt-4 space-y-3">
        <CollapsibleSection title="How Prize System Works">
          <p>Every 10,000 steps you walk in a month earns one entry into that month's prize draw.</p>
          <p>Entries count the whole month's steps, not each day's: a long weekend walk counts in full.</p>
          <p>A new month starts with no entries; last month's entries stay in last month's draw.</p>
        </CollapsibleSection>
        <CollapsibleSection title="Winner Notifications">
          <p>Winners are told by email and announced on our social media channels.</p>
          <p>Keep the email address on your account current so we can reach you if you win.</p>
        </CollapsibleSection>
        <CollapsibleSection title="Prize Categories">
          <ul className="space-y-2">
            {TIERS.map((tier) => (
              <li key={tier.name}>
                <span className="font-semibold text-ink">{tier.name}:</span> {tier.text}
              </li>
            ))}
          </ul>
        </CollapsibleSection>
        <CollapsibleSection title="Future Prize Pool">
          <p>
            After the app-store launch, {prizeShare} of every {formatPounds(FUTURE_MONTHLY_PRICE_PENCE)}{" "}
            monthly subscription goes into the prize pool.
          </p>
          <p>
            This month's pool:{" "}
            <span className="font-semibold text-ink">£{(revenue.data?.prizePool ?? 0).toFixed(2)}</span>
            {revenue.data?.totalRevenue === 0 ? " (the beta is free, so no money is collected yet)." : "."}
          </p>
        </CollapsibleSection>
      </div>
    </Page>
  );
}
