import { lazy, Suspense, useCallback, useEffect, useState } from "react";
import { Link, Outlet, useLocation } from "react-router-dom";
import { LoadingSpinner } from "../components/loading-spinner";
import { ErrorBoundary } from "../features/errors/error-boundary";
import { paths } from "../lib/paths";
import { applyTheme, storedTheme } from "../lib/theme";
import { useAuth } from "../lib/use-auth";
import { ScreenShown } from "./screen";
import { TabBar } from "./tab-bar";
import { TopBar } from "./top-bar";

// Loaded only for signed-in walkers: visitors never download the device store.
export const preloadStepTracking = () => import("../features/tracking/step-tracking-lifecycle");
const StepTrackingLifecycle = lazy(preloadStepTracking);

export function Layout() {
  const { pathname } = useLocation();
  const { isLoading, isAuthenticated, user } = useAuth();
  // Hidden while we don't yet know who is here, and for signed-out visitors on the landing page.
  const showTabBar = !isLoading && (isAuthenticated || pathname !== paths.home);
  // The walker's theme once known; a visitor keeps what this device last showed.
  const theme = user?.theme;
  // The notification bell waits for the first screen: its code and request come after the screen's.
  const [screenShown, setScreenShown] = useState(false);
  const markScreenShown = useCallback(() => setScreenShown(true), []);
  useEffect(() => applyTheme(theme ?? storedTheme()), [theme]);
  // A new page opens at its top, not at the scroll position the last one was left at.
  // biome-ignore lint/correctness/useExhaustiveDependencies: it runs for each new page's path
  useEffect(() => {
    window.scrollTo(0, 0);
  }, [pathname]);

  return (
    <div className="flex min-h-dvh flex-col">
      <a
        href="#main"
        className="sr-only z-50 rounded-md bg-surface px-3 py-2 focus:not-sr-only focus:fixed focus:top-2 focus:left-2"
      >
        Skip to content
      </a>
      {user && (
        <Suspense fallback={null}>
          <StepTrackingLifecycle userId={user.id} />
        </Suspense>
      )}
      <TopBar screenShown={screenShown} />
      <main id="main" className="min-h-dvh flex-1">
        <ErrorBoundary resetKey={pathname}>
          <Suspense fallback={<LoadingSpinner />}>
            <ScreenShown value={markScreenShown}>
              <Outlet />
            </ScreenShown>
          </Suspense>
        </ErrorBoundary>
      </main>
      {!isLoading && (
        <footer className="border-t border-line">
          <div className="mx-auto flex max-w-3xl flex-wrap items-center justify-between gap-2 px-4 py-4 text-sm text-muted">
            <p>© Charity Steps</p>
            {/* A whole thumb's height: the tab bar sits just below it. */}
            <Link to={paths.terms} className="link inline-flex min-h-11 items-center">
              Terms &amp; Conditions
            </Link>
          </div>
        </footer>
      )}
      {showTabBar && <TabBar />}
    </div>
  );
}
