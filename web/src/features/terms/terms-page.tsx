import {
  CHARITIES,
  FREE_TRIAL_DAYS,
  FUTURE_MONTHLY_PRICE_PENCE,
  formatNumber,
  formatPounds,
  POSTAL_ENTRY_DEADLINE_DAY,
  STEPS_PER_PRIZE_ENTRY,
} from "@charity-steps/shared-types";
import { ArrowLeft } from "lucide-react";
import type { ReactNode } from "react";
import { useLocation, useNavigate } from "react-router-dom";
import { PostalAddress } from "../../components/postal-address";
import { paths } from "../../lib/paths";
import { REVENUE_SPLIT } from "../../lib/pricing";

const charityNames = CHARITIES.map((charity) => charity.name).join(", ");

export function TermsPage() {
  const navigate = useNavigate();
  // React Router keys the first entry of a visit "default": there is nothing in-app to go back to.
  const hasHistory = useLocation().key !== "default";

  return (
    <div className="mx-auto w-full max-w-3xl px-4 py-6">
      <button
        type="button"
        className="btn-secondary mb-4 px-3 py-1.5 text-sm"
        onClick={() => (hasHistory ? navigate(-1) : navigate(paths.home))}
      >
        <ArrowLeft aria-hidden="true" className="size-4" />
        Back
      </button>
      <h1 className="text-2xl font-bold tracking-tight">Terms &amp; Conditions</h1>
      <p className="mt-1 text-muted">
        Charity Steps is in a free beta: no payment is taken. These terms describe the service as it will run
        after launch.
      </p>

      <div className="mt-6 space-y-4">
        <TermsSection title="Postal free-entry option">
          <p>
            You never have to pay to enter a prize draw. Free entry by post is available for every monthly
            draw, on the same terms as paid members.
          </p>
          <p>
            A postal entry must arrive by the {ordinal(POSTAL_ENTRY_DEADLINE_DAY)} of the month to count in
            that month's draw. Send it to:
          </p>
          <PostalAddress />
          <p>
            Include your full name, your postal address and your email address if you have one. One entry per
            envelope. A postal entry has the same chance of winning as any other entry. Open to UK residents
            aged 18 or over.
          </p>
        </TermsSection>

        <TermsSection title="How it works">
          <p>
            Charity Steps counts the steps you walk with your phone's motion sensors, or steps you add by hand
            with a photo as proof.
          </p>
          <p>
            Every {formatNumber(STEPS_PER_PRIZE_ENTRY)} steps you walk in a calendar month (UK time) earns one
            entry in that month's prize draw. Entries are counted on your monthly total, not per day, and
            start again from zero each month.
          </p>
          <p>You choose one charity to support: {charityNames}. You can change it at any time.</p>
        </TermsSection>

        <TermsSection title="Revenue allocation">
          <p>
            After launch, membership will cost {formatPounds(FUTURE_MONTHLY_PRICE_PENCE)} a month with a{" "}
            {FREE_TRIAL_DAYS}-day free trial. Each monthly payment is divided as follows:
          </p>
          <ul className="list-disc space-y-1 pl-5">
            {REVENUE_SPLIT.map((part) => (
              <li key={part.share}>
                {part.percent}% ({formatPounds(part.pence)}) {part.label}
              </li>
            ))}
          </ul>
        </TermsSection>

        <TermsSection title="User responsibilities">
          <ul className="list-disc space-y-1 pl-5">
            <li>
              Record only steps you have really walked; photos sent as proof must be your own and genuine.
            </li>
            <li>Keep one account per person.</li>
            <li>Keep your email address current: prize winners are contacted by email and social media.</li>
            <li>Walk safely and within your own fitness; no prize is worth an injury.</li>
          </ul>
        </TermsSection>

        <TermsSection title="Cancellation and refunds">
          <ul className="list-disc space-y-1 pl-5">
            <li>
              You can cancel at any time; cancellation takes effect at the end of your current billing period.
            </li>
            <li>There are no refunds for part of a month.</li>
            <li>Your eligibility for prize draws ends immediately when you cancel.</li>
          </ul>
        </TermsSection>
      </div>
    </div>
  );
}

function TermsSection({ title, children }: { title: string; children: ReactNode }) {
  return (
    <section className="card space-y-2 p-4">
      <h2 className="text-lg font-semibold">{title}</h2>
      {children}
    </section>
  );
}

function ordinal(day: number): string {
  const suffixes: Record<string, string> = { one: "st", two: "nd", few: "rd", other: "th" };
  return `${day}${suffixes[new Intl.PluralRules("en-GB", { type: "ordinal" }).select(day)] ?? "th"}`;
}
