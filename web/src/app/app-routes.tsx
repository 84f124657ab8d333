import { lazy, type ReactNode } from "react";
import { Route, Routes } from "react-router-dom";
import { LoadingSpinner } from "../components/loading-spinner";
import { RequireAuth } from "../features/auth/require-auth";
import { useAuth } from "../features/auth/use-auth";
import { Layout } from "./layout";
import { paths } from "./paths";

// Every screen is its own chunk, so a signed-out visitor on the landing page loads none of the others.
const LandingPage = lazy(() =>
  import("../features/landing/landing-page").then((m) => ({ default: m.LandingPage })),
);
const TermsPage = lazy(() => import("../features/terms/terms-page").then((m) => ({ default: m.TermsPage })));
const NotFoundPage = lazy(() =>
  import("../features/not-found/not-found-page").then((m) => ({ default: m.NotFoundPage })),
);
const DashboardPage = lazy(() =>
  import("../features/dashboard/dashboard-page").then((m) => ({ default: m.DashboardPage })),
);
const CharityPage = lazy(() =>
  import("../features/charity/charity-page").then((m) => ({ default: m.CharityPage })),
);
const PrizeDrawPage = lazy(() =>
  import("../features/prizes/prize-draw-page").then((m) => ({ default: m.PrizeDrawPage })),
);
const GroupsPage = lazy(() =>
  import("../features/groups/groups-page").then((m) => ({ default: m.GroupsPage })),
);
const GroupDetailPage = lazy(() =>
  import("../features/groups/group-detail-page").then((m) => ({ default: m.GroupDetailPage })),
);
const AccountPage = lazy(() =>
  import("../features/account/account-page").then((m) => ({ default: m.AccountPage })),
);

/** The route table of spec §2. */
export function AppRoutes() {
  return (
    <Routes>
      <Route element={<Layout />}>
        <Route index element={<HomeRoute />} />
        <Route path={paths.dashboard} element={protect(<DashboardPage />)} />
        <Route path={paths.charity} element={protect(<CharityPage />)} />
        <Route path={paths.prizeDraw} element={protect(<PrizeDrawPage />)} />
        <Route path={paths.groups} element={protect(<GroupsPage />)} />
        <Route path={paths.groupDetail} element={<SignedInOnly page={<GroupDetailPage />} />} />
        <Route path={paths.account} element={protect(<AccountPage />)} />
        <Route path={paths.terms} element={<TermsPage />} />
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
  return isAuthenticated ? <DashboardPage /> : <LandingPage />;
}

/** A route that does not exist for signed-out visitors ("not routed" in spec §2): they get the 404 page. */
function SignedInOnly({ page }: { page: ReactNode }) {
  const { isLoading, isAuthenticated } = useAuth();
  if (isLoading) return <LoadingSpinner />;
  return isAuthenticated ? page : <NotFoundPage />;
}
