import { LOGIN_PATH, LOGOUT_PATH } from "@charity-steps/shared-types";
import { lazy, Suspense } from "react";
import { Link, NavLink } from "react-router-dom";
import { LogoMark } from "../components/logo-mark";
import { paths } from "../lib/paths";
import { useAuth } from "../lib/use-auth";

// Signed in only: the landing page's first screen does not carry it.
const NotificationBell = lazy(() =>
  import("../features/notifications/notification-bell").then((m) => ({ default: m.NotificationBell })),
);

const topLink =
  "rounded-md px-2 py-1.5 text-sm font-medium text-ink hover:bg-page aria-[current=page]:text-brand-strong";

/**
 * The header: home link always; signed in, the top navigation; signed out, a Sign In link. The
 * notification bell (its code and its request) waits until the first screen has shown.
 */
export function TopBar({ screenShown }: { screenShown: boolean }) {
  const { isLoading, isAuthenticated } = useAuth();

  return (
    <header className="top-bar sticky top-0 z-30 border-b border-line bg-surface pt-[env(safe-area-inset-top)]">
      <div className="mx-auto flex min-h-[var(--header-height)] max-w-3xl flex-wrap items-center justify-between gap-x-2 px-4">
        <Link to={paths.home} className="flex items-center gap-2 rounded-md font-bold text-ink">
          <LogoMark />
          <span className={isAuthenticated ? "sr-only sm:not-sr-only" : ""}>Charity Steps</span>
        </Link>
        {!isLoading &&
          (isAuthenticated ? (
            <nav aria-label="Top">
              <ul className="flex flex-wrap items-center gap-0.5">
                <li className="top-bar-also-in-tabs">
                  <NavLink to={paths.dashboard} className={topLink}>
                    Dashboard
                  </NavLink>
                </li>
                <li className="top-bar-also-in-tabs">
                  <NavLink to={paths.groups} className={topLink}>
                    Groups
                  </NavLink>
                </li>
                <li>
                  <NavLink to={paths.subscribe} className={topLink}>
                    Subscribe
                  </NavLink>
                </li>
                <li className="min-w-11">
                  {screenShown && (
                    <Suspense fallback={null}>
                      <NotificationBell />
                    </Suspense>
                  )}
                </li>
                <li>
                  <a href={LOGOUT_PATH} className={topLink}>
                    Logout
                  </a>
                </li>
              </ul>
            </nav>
          ) : (
            <a href={LOGIN_PATH} className="btn-primary px-3 py-1.5 text-sm">
              Sign In
            </a>
          ))}
      </div>
    </header>
  );
}
