import type { QueryClient, QueryKey } from "@tanstack/react-query";
import { lazy, type ReactNode } from "react";
import { Outlet, type RouteObject } from "react-router-dom";
import { LoadingSpinner } from "../components/loading-spinner";
import { RequireAuth } from "../features/auth/require-auth";
import { authUserQuery, useAuth, wasSignedInHere } from "../features/auth/use-auth";
import { ErrorFallback } from "../features/errors/error-fallback";
import { DASHBOARD_STATS_KEY, STEP_HISTORY_KEY } from "../lib/step-queries";
import { Layout, preloadStepTracking } from "./layout";
import { paths } from "./paths";

// Every screen is its own chunk, so a signed-out visitor on the landing page loads none of the others.
const loadDashboard = () => import("../features/dashboard/dashboard-page");
const LandingPage = lazy(() =>
  import("../features/landing/landing-page").then((m) => ({ default: m.LandingPage })),
);
const DashboardPage = lazy(() => loadDashboard().then((m) => ({ default: m.DashboardPage })));
const NotFoundPage = lazy(() =>
  import("../features/not-found/not-found-page").then((m) => ({ default: m.NotFoundPage })),
);

// The server data the dashboard shows first, asked for with its code instead of after it has rendered.
const dashboardData: readonly QueryKey[] = [DASHBOARD_STATS_KEY, STEP_HISTORY_KEY];

/**
 * Every screen and its address. React Router loads a screen's code (`lazy`) and runs its `loader`
 * together; the loaders only start requests (the signed-in walker, a screen's data, the step
 * tracking code) and never wait for them, so nothing waits for "who is signed in?" to answer.
 * Signed out, a screen's data requests answer 401, kept as no data.
 */
export function appRoutes(queryClient: QueryClient): RouteObject[] {
  const prefetch = (queryKeys: readonly QueryKey[]) => {
    for (const queryKey of queryKeys) void queryClient.prefetchQuery({ queryKey });
  };
  // A signed-in screen also needs the walker's step tracking, whatever screen it is.
  const signedInScreen =
    (queryKeys: readonly QueryKey[] = []) =>
    () => {
      prefetch(queryKeys);
      void preloadStepTracking().catch(() => {});
      return null;
    };

  return [
    {
      element: <Layout />,
      HydrateFallback: LoadingSpinner,
      errorElement: <ErrorFallback />,
      loader: () => {
        void queryClient.prefetchQuery(authUserQuery);
        return null;
      },
      // The walker's query is kept fresh by its own rules, not by navigating.
      shouldRevalidate: () => false,
      children: [
        {
          // A screen that fails to load or render; forgotten when the walker goes elsewhere.
          errorElement: <ErrorFallback />,
          children: [
            {
              index: true,
              element: <HomeRoute />,
              // `/` is the dashboard for a walker who signed in on this device before: start loading
              // it now. A first-time visitor loads only the landing page.
              loader: () => {
                if (!wasSignedInHere()) return null;
                void loadDashboard().catch(() => {});
                return signedInScreen(dashboardData)();
              },
            },
            {
              element: (
                <RequireAuth>
                  <Outlet />
                </RequireAuth>
              ),
              children: [
                {
                  path: paths.dashboard,
                  loader: signedInScreen(dashboardData),
                  lazy: () => loadDashboard().then((m) => ({ Component: m.DashboardPage })),
                },
                {
                  path: paths.charity,
                  loader: signedInScreen(),
                  lazy: () =>
                    import("../features/charity/charity-page").then((m) => ({ Component: m.CharityPage })),
                },
                {
                  path: paths.prizeDraw,
                  loader: signedInScreen(),
                  lazy: () =>
                    import("../features/prizes/prize-draw-page").then((m) => ({
                      Component: m.PrizeDrawPage,
                    })),
                },
                {
                  path: paths.groups,
                  loader: signedInScreen(),
                  lazy: () =>
                    import("../features/groups/groups-page").then((m) => ({ Component: m.GroupsPage })),
                },
                {
                  path: paths.account,
                  loader: signedInScreen(),
                  lazy: () =>
                    import("../features/account/account-page").then((m) => ({ Component: m.AccountPage })),
                },
              ],
            },
            {
              // Group pages do not exist for signed-out visitors: they get the 404 page.
              element: (
                <SignedInOnly>
                  <Outlet />
                </SignedInOnly>
              ),
              children: [
                {
                  path: paths.groupDetail,
                  loader: signedInScreen(),
                  lazy: () =>
                    import("../features/groups/group-detail-page").then((m) => ({
                      Component: m.GroupDetailPage,
                    })),
                },
              ],
            },
            {
              path: paths.terms,
              lazy: () => import("../features/terms/terms-page").then((m) => ({ Component: m.TermsPage })),
            },
            { path: "*", element: <NotFoundPage /> },
          ],
        },
      ],
    },
  ];
}

/** `/`: the dashboard for a signed-in walker, the landing page for everyone else. */
function HomeRoute() {
  const { isLoading, isAuthenticated } = useAuth();
  if (isLoading) return <LoadingSpinner />;
  return isAuthenticated ? <DashboardPage /> : <LandingPage />;
}

function SignedInOnly({ children }: { children: ReactNode }) {
  const { isLoading, isAuthenticated } = useAuth();
  if (isLoading) return <LoadingSpinner />;
  return isAuthenticated ? children : <NotFoundPage />;
}
