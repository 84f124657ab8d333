import type { QueryClient, QueryKey } from "@tanstack/react-query";
import { lazy, type ReactNode } from "react";
import { Navigate, Route, Routes } from "react-router-dom";
import { LoadingSpinner } from "../components/loading-spinner";
import { RequireAuth } from "../features/auth/require-auth";
import { paths } from "../lib/paths";
import { returnTo } from "../lib/return-to";
import { DASHBOARD_STATS_KEY, STEP_HISTORY_KEY } from "../lib/step-queries";
import { authUserQuery, useAuth, wasSignedInHere } from "../lib/use-auth";
import { Layout, preloadStepTracking } from "./layout";

// Every screen is its own chunk, so a signed-out visitor on the landing page loads none of the others.
const LandingPage = lazy(() =>
  import("../features/landing/landing-page").then((m) => ({ default: m.LandingPage })),
);
const SubscribePage = lazy(() =>
  import("../features/subscribe/subscribe-page").then((m) => ({ default: m.SubscribePage })),
);
const TermsPage = lazy(() => import("../features/terms/terms-page").then((m) => ({ default: m.TermsPage })));
const NotFoundPage = lazy(() =>
  import("../components/not-found-page").then((m) => ({ default: m.NotFoundPage })),
);
// The signed-in screens, by path: loaded as soon as the app starts on one (preloadRoute), at the same
// time as the "who is signed in?" request rather than after it.
const signedInScreens = {
  [paths.dashboard]: () => import("./routes/dashboard-page"),
  [paths.charity]: () => import("../features/charity/charity-page"),
  [paths.prizeDraw]: () => import("../features/prizes/prize-draw-page"),
  [paths.groups]: () => import("../features/groups/groups-page"),
  [paths.groupDetail]: () => import("../features/groups/group-detail-page"),
  [paths.account]: () => import("./routes/account-page"),
  [paths.appleHealth]: () => import("../features/apple-health/apple-health-page"),
  [paths.welcome]: () => import("./routes/welcome-page"),
  [paths.notifications]: () => import("../features/notifications/notifications-page"),
  [paths.challenges]: () => import("../features/challenges/challenges-page"),
};
// The server data a screen shows first, asked for with its code instead of after it has rendered.
const screenData: Partial<Record<keyof typeof signedInScreens, readonly QueryKey[]>> = {
  [paths.dashboard]: [DASHBOARD_STATS_KEY, STEP_HISTORY_KEY],
};
const DashboardPage = lazy(() =>
  signedInScreens[paths.dashboard]().then((m) => ({ default: m.DashboardPage })),
);
const CharityPage = lazy(() => signedInScreens[paths.charity]().then((m) => ({ default: m.CharityPage })));
const PrizeDrawPage = lazy(() =>
  signedInScreens[paths.prizeDraw]().then((m) => ({ default: m.PrizeDrawPage })),
);
const GroupsPage = lazy(() => signedInScreens[paths.groups]().then((m) => ({ default: m.GroupsPage })));
const GroupDetailPage = lazy(() =>
  signedInScreens[paths.groupDetail]().then((m) => ({ default: m.GroupDetailPage })),
);
const AccountPage = lazy(() => signedInScreens[paths.account]().then((m) => ({ default: m.AccountPage })));
const AppleHealthPage = lazy(() =>
  signedInScreens[paths.appleHealth]().then((m) => ({ default: m.AppleHealthPage })),
);
const WelcomePage = lazy(() => signedInScreens[paths.welcome]().then((m) => ({ default: m.WelcomePage })));
const NotificationsPage = lazy(() =>
  signedInScreens[paths.notifications]().then((m) => ({ default: m.NotificationsPage })),
);
const ChallengesPage = lazy(() =>
  signedInScreens[paths.challenges]().then((m) => ({ default: m.ChallengesPage })),
);
// A challenge's page: a public one's totals signed out, the whole challenge signed in.
const ChallengePage = lazy(() =>
  import("../features/challenges/challenge-page").then((m) => ({ default: m.ChallengePage })),
);
// A month's draw results are public; a prize's claim form is for its signed-in winner.
const DrawResultsPage = lazy(() =>
  import("../features/prizes/draw-results-page").then((m) => ({ default: m.DrawResultsPage })),
);
const PrizeClaimPage = lazy(() =>
  import("../features/prizes/prize-claim-page").then((m) => ({ default: m.PrizeClaimPage })),
);
// A group's join link: signed in or not (signed out, it takes the visitor through sign-in and back).
const JoinLinkPage = lazy(() =>
  import("../features/groups/join-link-page").then((m) => ({ default: m.JoinLinkPage })),
);
// Operators' console: the 404 page for everyone else.
const OperatorRoute = lazy(() =>
  import("../features/operator/operator-page").then((m) => ({ default: m.OperatorRoute })),
);

/**
 * As the app starts, asks who is signed in, and starts loading the screen it opened on, that
 * screen's data and the signed-in walker's step tracking, without waiting for the answer: on a
 * signed-in path, or on `/` when a walker signed in on this device before (a first-time visitor on
 * `/` loads only the landing page). Signed out, the data's requests answer 401, kept as no data.
 */
export function preloadRoute(pathname: string, queryClient: QueryClient): void {
  void queryClient.prefetchQuery(authUserQuery);
  const opened = /^\/groups\/[^/]+$/.test(pathname) ? paths.groupDetail : pathname;
  const path = (
    opened === paths.home && wasSignedInHere() ? paths.dashboard : opened
  ) as keyof typeof signedInScreens;
  const screen = signedInScreens[path];
  if (!screen) return;
  for (const queryKey of screenData[path] ?? []) void queryClient.prefetchQuery({ queryKey });
  void screen().catch(() => {});
  void preloadStepTracking().catch(() => {});
}

/** Every screen and its address. */
export function AppRoutes() {
  return (
    <Routes>
      <Route element={<Layout />}>
        <Route index element={<HomeRoute />} />
        <Route path={paths.dashboard} element={protect(<Welcomed page={<DashboardPage />} />)} />
        <Route path={paths.welcome} element={protect(<WelcomePage />)} />
        <Route path={paths.charity} element={protect(<CharityPage />)} />
        <Route path={paths.prizeDraw} element={protect(<PrizeDrawPage />)} />
        <Route path={paths.drawResults} element={<DrawResultsPage />} />
        <Route path={paths.prizeClaim} element={protect(<PrizeClaimPage />)} />
        <Route path={paths.groups} element={protect(<GroupsPage />)} />
        <Route path={paths.groupDetail} element={<SignedInOnly page={<GroupDetailPage />} />} />
        <Route path={paths.groupJoin} element={<JoinLinkPage />} />
        <Route path={paths.account} element={protect(<AccountPage />)} />
        <Route path={paths.notifications} element={protect(<NotificationsPage />)} />
        <Route path={paths.challenges} element={protect(<ChallengesPage />)} />
        <Route path={paths.challenge} element={<ChallengePage />} />
        <Route path={paths.appleHealth} element={protect(<AppleHealthPage />)} />
        <Route path={paths.terms} element={<TermsPage />} />
        <Route path={paths.subscribe} element={<SubscribePage />} />
        <Route path={paths.operator} element={<OperatorRoute />} />
        <Route path="*" element={<NotFoundPage />} />
      </Route>
    </Routes>
  );
}

function protect(page: ReactNode) {
  return <RequireAuth>{page}</RequireAuth>;
}

/** `/`: the dashboard for a signed-in walker, the landing page for everyone else. */
function HomeRoute() {
  const { isLoading, isAuthenticated } = useAuth();
  if (isLoading) return <LoadingSpinner />;
  return isAuthenticated ? <Welcomed page={<DashboardPage />} /> : <LandingPage />;
}

/**
 * The home screen, once the walker has been welcomed: until then the welcome opens instead. A join
 * link opened before signing in comes first: sign-in lands here, and the link's page opens.
 */
function Welcomed({ page }: { page: ReactNode }) {
  const { user } = useAuth();
  const back = returnTo();
  if (user && back) return <Navigate to={back} replace />;
  if (user && user.onboardedAt === null) return <Navigate to={paths.welcome} replace />;
  return page;
}

/** A route that does not exist for signed-out visitors: they get the 404 page. */
function SignedInOnly({ page }: { page: ReactNode }) {
  const { isLoading, isAuthenticated } = useAuth();
  if (isLoading) return <LoadingSpinner />;
  return isAuthenticated ? page : <NotFoundPage />;
}
