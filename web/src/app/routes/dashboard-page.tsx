import {
  type DashboardStatsResponse,
  DEFAULT_DAILY_GOAL,
  MONTHLY_STEP_GOAL,
  prizeEntries,
  type StepHistoryResponse,
} from "@charity-steps/shared-types";
import { useQuery } from "@tanstack/react-query";
import { Flag, Gift, Heart, Trophy, Users } from "lucide-react";
import { lazy, type ReactNode, Suspense } from "react";
import { Link } from "react-router-dom";
import { AfterFirstScreen } from "../../components/after-first-screen";
import { CharityImpactLine } from "../../components/charity-impact-line";
import { CONFIRM_EMAIL_FOR_DRAW, useUnconfirmedWalker } from "../../components/draw-email-notice";
import { LoadLater } from "../../components/load-later";
import { LoadingSpinner } from "../../components/loading-spinner";
import { Page } from "../../components/page";
import { BadgeAnnouncer } from "../../features/badges/badge-announcer";
import { ChallengesDashboardCard } from "../../features/challenges/challenges-dashboard-card";
import { ProgressRing } from "../../features/dashboard/progress-ring";
import { StepHistoryChart } from "../../features/dashboard/step-history-chart";
import {
  monthlyProgressText,
  monthlyRingText,
  prizeEntriesText,
} from "../../features/dashboard/step-numbers";
import { TodayGoal } from "../../features/dashboard/today-goal";
import { WeekCard } from "../../features/dashboard/week-card";
import { InstallOffer } from "../../features/install/install-offer";
import { formatSteps } from "../../lib/format";
import { paths } from "../../lib/paths";
import { liveEligibleSteps, waitingStepsText } from "../../lib/step-progress";
import { DASHBOARD_STATS_KEY, STEP_HISTORY_KEY } from "../../lib/step-queries";
import { useAuth } from "../../lib/use-auth";
import { useHashTarget } from "../../lib/use-hash-target";
import { mergeHistory, useLiveSteps } from "../../lib/use-live-steps";
import { useLondonDay } from "../../lib/use-london-day";
import { useOnline } from "../../lib/use-online";

// Walk mode's card and the phone's step store (IndexedDB) load once the page has been painted, not
// before it: the numbers at the top show without them.
const TrackingCard = lazy(() =>
  import("../../features/tracking/tracking-card").then((module) => ({ default: module.TrackingCard })),
);
// The form and its drag-and-drop library load after the tiles: most visits only look at the numbers.
const ManualStepsForm = lazy(() =>
  import("../../features/manual-steps/manual-steps-form").then((module) => ({
    default: module.ManualStepsForm,
  })),
);
// Shown only to some walkers (a prize to claim, entries added by hand): loaded after the page.
const PrizeBanner = lazy(() =>
  import("../../features/prizes/prize-banner").then((module) => ({ default: module.PrizeBanner })),
);
const ManualEntriesList = lazy(() =>
  import("../../features/manual-steps/manual-entries-list").then((module) => ({
    default: module.ManualEntriesList,
  })),
);
const PaceHoldsList = lazy(() =>
  import("../../features/manual-steps/pace-holds-list").then((module) => ({ default: module.PaceHoldsList })),
);
const DayHoldsList = lazy(() =>
  import("../../features/manual-steps/day-holds-list").then((module) => ({ default: module.DayHoldsList })),
);

/**
 * The signed-in home: the month's and today's numbers, with the tracking card, the manual-steps form
 * and lists and the prize banner. It gathers several features, so it lives in app/: features never
 * import each other.
 */
export function DashboardPage() {
  const stats = useQuery<DashboardStatsResponse | null>({ queryKey: DASHBOARD_STATS_KEY });
  const history = useQuery<StepHistoryResponse | null>({ queryKey: STEP_HISTORY_KEY });
  const { todaySteps, monthSteps, device } = useLiveSteps(stats.data);
  const { user } = useAuth();
  const today = useLondonDay();
  const online = useOnline();
  const unconfirmed = useUnconfirmedWalker();
  useHashTarget();
  if (stats.isLoading) return <LoadingSpinner />;
  const data = stats.data;
  // Stats from another day (loaded before midnight) say nothing of today's goal.
  const fresh = data?.date === today;
  const dailyGoal = data?.dailyGoal ?? DEFAULT_DAILY_GOAL;
  // Prize entries count only eligible steps: what waits for a check shows, but buys no entry yet.
  const eligibleSteps = liveEligibleSteps(data, monthSteps);

  return (
    <Page title="Dashboard">
      <LoadLater placeholder={null}>
        <Suspense fallback={null}>
          <PrizeBanner />
        </Suspense>
      </LoadLater>
      {/* Offline, the page may show totals kept from the last visit: the walker is told either way. */}
      {(!online || stats.error) && (
        <p className="card mb-4 p-3 text-sm text-muted" role="status" data-testid="dashboard-connection">
          {online
            ? "Your totals from the server could not be loaded just now; this phone's steps are shown."
            : "You're offline. Steps counted on this phone are kept and sent when the signal is back."}
        </p>
      )}
      {user && <BadgeAnnouncer userId={user.id} />}
      {data && <InstallOffer hasSteps={data.monthlySteps > 0 || todaySteps > 0} />}
      <WeekCard userId={user?.id ?? ""} charityName={data?.charityName ?? null} now={Date.now()} />
      <TodayGoal
        userId={user?.id ?? ""}
        date={today}
        todaySteps={todaySteps}
        goal={dailyGoal}
        streak={fresh && data ? data.streak : { current: 0, best: 0 }}
        todayOnGoal={fresh && data ? data.todayOnGoal : false}
      />
      <section className="card mt-4 p-5 text-center" aria-labelledby="monthly-title">
        <h2 id="monthly-title" className="mb-3 text-lg font-semibold">
          Monthly Progress
        </h2>
        <ProgressRing
          value={monthSteps}
          goal={MONTHLY_STEP_GOAL}
          label="Steps this month towards the monthly goal"
          valueText={monthlyRingText(monthSteps)}
        >
          <span className="text-3xl font-bold" data-testid="month-steps">
            {formatSteps(monthSteps)}
          </span>
          <span className="text-sm text-muted">steps this month</span>
        </ProgressRing>
        <p className="mt-3 font-medium">Goal: {formatSteps(MONTHLY_STEP_GOAL)} steps</p>
        <p className="text-sm text-muted">{monthlyProgressText(monthSteps)}</p>
      </section>

      <div className="fit-grid mt-4 gap-3 [--fit-min:8rem]">
        <Tile icon={<Trophy aria-hidden="true" className="size-5" />} title="Prize Entries">
          <span className="text-2xl font-bold" data-testid="prize-entries">
            {prizeEntries(eligibleSteps)}
          </span>
          <span className="text-sm text-muted">{prizeEntriesText(eligibleSteps)}</span>
          {(data?.pendingMonthSteps ?? 0) > 0 && (
            <span className="text-sm" data-testid="prize-entries-waiting">
              {waitingStepsText(data?.pendingMonthSteps ?? 0)}
            </span>
          )}
          {unconfirmed && (
            <span className="text-sm text-notice-ink" data-testid="prize-entries-email">
              {CONFIRM_EMAIL_FOR_DRAW}
            </span>
          )}
        </Tile>
      </div>

      {/* Below a phone's first screen. */}
      <AfterFirstScreen>
        <nav
          className="fit-grid mt-3 gap-3 [--fit-min:8rem]"
          aria-label="Charity, prizes, groups and challenges"
        >
          <LinkTile
            to={paths.charity}
            icon={<Heart aria-hidden="true" className="size-5" />}
            title="Your Charity"
          >
            {data?.charityName ?? "Select charity"}
          </LinkTile>
          <LinkTile
            to={paths.prizeDraw}
            icon={<Gift aria-hidden="true" className="size-5" />}
            title="Prize Pool"
          >
            {/* The free beta has no subscriptions yet: a pool of £0.00 says nothing worth reading. */}
            {(data?.prizePool ?? 0) > 0 ? `£${(data?.prizePool ?? 0).toFixed(2)}` : "Monthly draw"}
          </LinkTile>
          <LinkTile to={paths.groups} icon={<Users aria-hidden="true" className="size-5" />} title="Groups">
            Join &amp; compete
          </LinkTile>
          <LinkTile
            to={paths.challenges}
            icon={<Flag aria-hidden="true" className="size-5" />}
            title="Challenges"
          >
            Walk for a target
          </LinkTile>
        </nav>
        <ChallengesDashboardCard />

        {data?.charityName && (
          <CharityImpactLine charityName={data.charityName} className="card mt-3 p-3 text-center" />
        )}

        <div className="mt-4 space-y-4">
          <LoadLater id="walk" placeholder={<div className="card h-72" aria-hidden="true" />}>
            <Suspense fallback={<div className="card h-72" aria-hidden="true" />}>
              <TrackingCard
                todaySteps={todaySteps}
                dailyGoal={dailyGoal}
                appleHealthLastImportAt={data?.appleHealthLastImportAt ?? null}
              />
            </Suspense>
          </LoadLater>
          {history.data && (
            <StepHistoryChart
              days={withTodayLive(mergeHistory(history.data.days, device), todaySteps)}
              dailyGoal={dailyGoal}
            />
          )}
          {/* Below the first screen: their code (and the form library's) loads as the walker nears them. */}
          <LoadLater id="add-steps" placeholder={<div className="card h-[34rem]" aria-hidden="true" />}>
            <Suspense fallback={<div className="card h-[34rem]" aria-hidden="true" />}>
              <ManualStepsForm />
            </Suspense>
            <Suspense fallback={null}>
              <ManualEntriesList />
            </Suspense>
            <Suspense fallback={null}>
              <PaceHoldsList />
            </Suspense>
            <Suspense fallback={null}>
              <DayHoldsList />
            </Suspense>
          </LoadLater>
        </div>
      </AfterFirstScreen>
    </Page>
  );
}

function Tile({ icon, title, children }: { icon: ReactNode; title: string; children: ReactNode }) {
  return (
    <section className="card flex flex-col gap-1 p-4" aria-label={title}>
      <h2 className="flex items-center gap-2 text-sm font-medium text-muted">
        <span className="text-brand-strong">{icon}</span>
        {title}
      </h2>
      {children}
    </section>
  );
}

function LinkTile({
  to,
  icon,
  title,
  children,
}: {
  to: string;
  icon: ReactNode;
  title: string;
  children: ReactNode;
}) {
  return (
    <Link to={to} className="card flex flex-col gap-1 p-3 hover:border-brand">
      <span className="text-brand-strong">{icon}</span>
      <span className="text-xs text-muted">{title}</span>
      <span className="text-sm font-semibold leading-tight">{children}</span>
    </Link>
  );
}

/** The chart's last bar is today: shown with the live count, not the count when history loaded. */
function withTodayLive(days: StepHistoryResponse["days"], todaySteps: number) {
  const today = days.at(-1);
  if (!today) return days;
  return [...days.slice(0, -1), { ...today, steps: Math.max(today.steps, todaySteps) }];
}
