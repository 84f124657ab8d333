import type { QueryClient, QueryKey } from "@tanstack/react-query";
import type { ReactNode } from "react";
import { Navigate, Route, Routes } from "react-router-dom";
import { LoadingSpinner } from "../components/loading-spinner";
import { RequireAuth } from "../features/auth/require-auth";
import { wasSignedInHere } from "../lib/last-user";
import { paths } from "../lib/paths";
import { returnTo } from "../lib/return-to";
import { DASHBOARD_STATS_KEY, STEP_HISTORY_KEY } from "../lib/step-queries";
import { authUserQuery, useAuth } from "../lib/use-auth";
import { Layout, preloadStepTracking } from "./layout";
import { Screen, screen } from "./screen";

// Every screen is its own chunk, so a signed-out visitor on the landing page loads none of the others.
export const landingPage = screen(
  () => import("../features/landing/landing-page"),
  (m) => m.LandingPage,
);
const subscribePage = screen(
  () => import("../features/subscribe/subscribe-page"),
  (m) => m.SubscribePage,
);
const termsPage = screen(
  () => import("../features/terms/terms-page"),
  (m) => m.TermsPage,
);
const notFoundPage = screen(
  () => import("../components/not-found-page"),
  (m) => m.NotFoundPage,
);
const dashboardPage = screen(
  () => import("./routes/dashboard-page"),
  (m) => m.DashboardPage,
);
const charityPage = screen(
  () => import("../features/charity/charity-page"),
  (m) => m.CharityPage,
);
const prizeDrawPage = screen(
  () => import("../features/prizes/prize-draw-page"),
  (m) => m.PrizeDrawPage,
);
const groupsPage = screen(
  () => import("../features/groups/groups-page"),
  (m) => m.GroupsPage,
);
const groupDetailPage = screen(
  () => import("../features/groups/group-detail-page"),
  (m) => m.GroupDetailPage,
);
const accountPage = screen(
  () => import("./routes/account-page"),
  (m) => m.AccountPage,
);
const appleHealthPage = screen(
  () => import("../features/apple-health/apple-health-page"),
  (m) => m.AppleHealthPage,
);
const welcomePage = screen(
  () => import("./routes/welcome-page"),
  (m) => m.WelcomePage,
);
const notificationsPage = screen(
  () => import("../features/notifications/notifications-page"),
  (m) => m.NotificationsPage,
);
const challengesPage = screen(
  () => import("../features/challenges/challenges-page"),
  (m) => m.ChallengesPage,
);
// A challenge's page: a public one's totals signed out, the whole challenge signed in.
const challengePage = screen(
  () => import("../features/challenges/challenge-page"),
  (m) => m.ChallengePage,
);
// A month's draw results are public; a prize's claim form is for its signed-in winner.
const drawResultsPage = screen(
  () => import("../features/prizes/draw-results-page"),
  (m) => m.DrawResultsPage,
);
const prizeClaimPage = screen(
  () => import("../features/prizes/prize-claim-page"),
  (m) => m.PrizeClaimPage,
);
// A group's join link: signed in or not (signed out, it takes the visitor through sign-in and back).
const joinLinkPage = screen(
  () => import("../features/groups/join-link-page"),
  (m) => m.JoinLinkPage,
);
// Operators' console: the 404 page for everyone else.
const operatorRoute = screen(
  () => import("../features/operator/operator-page"),
  (m) => m.OperatorRoute,
);

// The signed-in screens, by path: loaded as soon as the app starts on one (preloadRoute), at the same
// time as the "who is signed in?" request rather than after it.
const signedInScreens = {
  [paths.dashboard]: dashboardPage,
  [paths.charity]: charityPage,
  [paths.prizeDraw]: prizeDrawPage,
  [paths.groups]: groupsPage,
  [paths.groupDetail]: groupDetailPage,
  [paths.account]: accountPage,
  [paths.appleHealth]: appleHealthPage,
  [paths.welcome]: welcomePage,
  [paths.notifications]: notificationsPage,
  [paths.challenges]: challengesPage,
};
// The server data a screen shows first, asked for with its code instead of after it has rendered.
const screenData: Partial<Record<keyof typeof signedInScreens, readonly QueryKey[]>> = {
  [paths.dashboard]: [DASHBOARD_STATS_KEY, STEP_HISTORY_KEY],
};

/**
 * As the app starts, asks who is signed in, and starts loading the screen it opened on, that
 * screen's data and the signed-in walker's step tracking, without waiting for the answer: on a
 * signed-in path, or on `/` when a walker signed in on this device before (anyone else on `/` loads
 * only the landing page's code). Signed out, the data's requests answer 401, kept as no data.
 */
export function preloadRoute(pathname: string, queryClient: QueryClient): void {
  void queryClient.prefetchQuery(authUserQuery);
  const opened = /^\/groups\/[^/]+$/.test(pathname) ? paths.groupDetail : pathname;
  if (opened === paths.home && !wasSignedInHere()) {
    // Most likely signed out: the landing page's code loads beside the question, not after its answer.
    void landingPage.preload().catch(() => {});
    return;
  }
  const path = (opened === paths.home ? paths.dashboard : opened) as keyof typeof signedInScreens;
  const opening = signedInScreens[path];
  if (!opening) return;
  for (const queryKey of screenData[path] ?? []) void queryClient.prefetchQuery({ queryKey });
  void opening.preload().catch(() => {});
  void preloadStepTracking().catch(() => {});
}

/** Every screen and its address. */
export function AppRoutes() {
  return (
    <Routes>
      <Route element={<Layout />}>
        <Route index element={<HomeRoute />} />
        <Route path={paths.dashboard} element={protect(<Welcomed page={<Screen of={dashboardPage} />} />)} />
        <Route path={paths.welcome} element={protect(<Screen of={welcomePage} />)} />
        <Route path={paths.charity} element={protect(<Screen of={charityPage} />)} />
        <Route path={paths.prizeDraw} element={protect(<Screen of={prizeDrawPage} />)} />
        <Route path={paths.drawResults} element={<Screen of={drawResultsPage} />} />
        <Route path={paths.prizeClaim} element={protect(<Screen of={prizeClaimPage} />)} />
        <Route path={paths.groups} element={protect(<Screen of={groupsPage} />)} />
        <Route path={paths.groupDetail} element={<SignedInOnly page={<Screen of={groupDetailPage} />} />} />
        <Route path={paths.groupJoin} element={<Screen of={joinLinkPage} />} />
        <Route path={paths.account} element={protect(<Screen of={accountPage} />)} />
        <Route path={paths.notifications} element={protect(<Screen of={notificationsPage} />)} />
        <Route path={paths.challenges} element={protect(<Screen of={challengesPage} />)} />
        <Route path={paths.challenge} element={<Screen of={challengePage} />} />
        <Route path={paths.appleHealth} element={protect(<Screen of={appleHealthPage} />)} />
        <Route path={paths.terms} element={<Screen of={termsPage} />} />
        <Route path={paths.subscribe} element={<Screen of={subscribePage} />} />
        <Route path={paths.operator} element={<Screen of={operatorRoute} />} />
        <Route path="*" element={<Screen of={notFoundPage} />} />
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
  return isAuthenticated ? <Welcomed page={<Screen of={dashboardPage} />} /> : <Screen of={landingPage} />;
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
  return isAuthenticated ? page : <Screen of={notFoundPage} />;
}
