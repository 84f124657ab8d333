import {
  CHARITIES,
  FREE_TRIAL_DAYS,
  FUTURE_MONTHLY_PRICE_PENCE,
  formatNumber,
  formatPounds,
  JOIN_CODE_LENGTH,
  LOGIN_PATH,
  SIGN_UP_PATH,
  STEPS_PER_PRIZE_ENTRY,
} from "@charity-steps/shared-types";
import { Footprints, HeartHandshake, type LucideIcon, Trophy, Users } from "lucide-react";
import { type ReactNode, useState } from "react";
import { CharityImpactLine } from "../../components/charity-impact-line";
import { takeAccountDeleted } from "../../lib/account-deleted";
import { REVENUE_SPLIT } from "../../lib/pricing";

const stepsPerEntry = formatNumber(STEPS_PER_PRIZE_ENTRY);

const FEATURES: { icon: LucideIcon; title: string; text: string }[] = [
  {
    icon: Footprints,
    title: "Count your steps",
    text: "Your phone's motion sensors count as you walk, even without signal. You can also add steps by hand with a photo as proof.",
  },
  {
    icon: HeartHandshake,
    title: "Support a charity",
    text: `Pick one of ${CHARITIES.length} UK charities to walk for, and change your mind whenever you like.`,
  },
  {
    icon: Trophy,
    title: "Earn prize entries",
    text: `Every ${stepsPerEntry} steps you walk in a month earns an entry in that month's prize draw.`,
  },
  {
    icon: Users,
    title: "Walk together",
    text: `Start a group or join one with its ${JOIN_CODE_LENGTH}-character code, and climb the monthly leaderboard.`,
  },
];

/** The signed-out home page. Every sign-in button is a full navigation to the server. */
export function LandingPage() {
  // Read once, on the first render: the word stays for this visit, and is not said again.
  const [deleted] = useState(takeAccountDeleted);
  return (
    <>
      <section className="bg-gradient-to-b from-brand-soft to-page">
        <div className="mx-auto max-w-3xl px-4 pt-10 pb-8 text-center">
          {/* Always in the page, hidden unless an account was just deleted: the landing page's
              HTML (landing-script.ts) shows it as this render would. */}
          <p
            hidden={!deleted}
            className="card mb-6 p-4 text-left"
            role="status"
            data-testid="account-deleted"
          >
            <strong>Your account was deleted.</strong> Your personal data has been erased. Thank you for
            walking with us: you are welcome back any time.
          </p>
          <p className="inline-block rounded-full bg-surface px-3 py-1 text-sm font-semibold text-brand-strong shadow-sm">
            Free beta now open
          </p>
          <h1 className="mt-4 text-4xl leading-tight font-bold tracking-tight text-balance sm:text-5xl">
            Every step you walk helps a charity
          </h1>
          <p className="mx-auto mt-4 max-w-xl text-lg text-muted">
            Charity Steps counts your steps, backs the charity you choose and gives you a prize-draw entry for
            every {stepsPerEntry} steps you walk each month.
          </p>
          <div className="mt-8 flex flex-col justify-center gap-3 sm:flex-row">
            <a href={SIGN_UP_PATH} className="btn-primary px-6 py-3 text-lg">
              Get Started
            </a>
            <a href={LOGIN_PATH} className="btn-secondary px-6 py-3 text-lg">
              Welcome Back - Log In
            </a>
          </div>
        </div>
      </section>

      <LandingSection id="features" title="How it works">
        <ul className="grid gap-4 sm:grid-cols-2">
          {FEATURES.map(({ icon: Icon, title, text }) => (
            <li key={title} className="card flex flex-wrap gap-4 p-4">
              <div className="flex size-11 shrink-0 items-center justify-center rounded-full bg-brand-soft">
                <Icon aria-hidden="true" className="size-6 text-brand-strong" />
              </div>
              <div className="min-w-0 flex-[1_1_12rem]">
                <h3 className="font-semibold">{title}</h3>
                <p className="mt-1 text-muted">{text}</p>
              </div>
            </li>
          ))}
        </ul>
      </LandingSection>

      <LandingSection id="charities" title="Walk for a charity you care about">
        <ul className="grid gap-4">
          {CHARITIES.map((charity) => (
            <li key={charity.name} className="card p-4">
              <h3 className="font-semibold">{charity.name}</h3>
              <p className="mt-1 text-muted">{charity.description}</p>
              <p className="mt-2 text-sm font-medium text-brand-strong">{charity.focus}</p>
              <CharityImpactLine charityName={charity.name} className="mt-2 text-muted" />
            </li>
          ))}
        </ul>
      </LandingSection>

      <LandingSection id="beta" title="Join the free beta">
        <div className="card p-4">
          <p className="font-semibold">Free while we're in beta: no payment is taken.</p>
          <p className="mt-2 text-muted">
            When Charity Steps launches on the app stores, membership will be{" "}
            <strong className="text-ink">{formatPounds(FUTURE_MONTHLY_PRICE_PENCE)} a month</strong> with a{" "}
            {FREE_TRIAL_DAYS}-day free trial. Each payment will be split:
          </p>
          <ul className="mt-4 grid gap-2 sm:grid-cols-3">
            {REVENUE_SPLIT.map((part) => (
              <li key={part.share} className="rounded-lg bg-page p-3">
                <p className="text-2xl font-bold text-brand-strong">{part.percent}%</p>
                <p className="text-sm text-muted">
                  {formatPounds(part.pence)} {part.label}
                </p>
              </li>
            ))}
          </ul>
          <a href={LOGIN_PATH} className="btn-primary mt-5 w-full sm:w-auto">
            Sign In for Beta Access
          </a>
        </div>
      </LandingSection>

      <section className="mx-auto max-w-3xl px-4 pt-6 pb-10 text-center">
        <h2 className="text-2xl font-bold tracking-tight">Ready for your first walk?</h2>
        <p className="mt-2 text-muted">It takes a minute to sign up.</p>
        <a href={SIGN_UP_PATH} className="btn-primary mt-6 px-6 py-3 text-lg">
          Join Beta - Free
        </a>
      </section>
    </>
  );
}

function LandingSection({ id, title, children }: { id: string; title: string; children: ReactNode }) {
  return (
    <section aria-labelledby={`${id}-title`} className="mx-auto max-w-3xl px-4 py-6 sm:py-10">
      <h2 id={`${id}-title`} className="mb-4 text-2xl font-bold tracking-tight">
        {title}
      </h2>
      {children}
    </section>
  );
}
