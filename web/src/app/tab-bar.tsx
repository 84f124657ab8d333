import { HeartHandshake, LayoutDashboard, type LucideIcon, Trophy, UserRound, Users } from "lucide-react";
import { Link, useLocation } from "react-router-dom";
import { paths } from "../lib/paths";
import { activeTab, type TabId } from "./active-tab";

const TABS: { id: TabId; label: string; to: string; icon: LucideIcon }[] = [
  { id: "dashboard", label: "Dashboard", to: paths.dashboard, icon: LayoutDashboard },
  { id: "groups", label: "Groups", to: paths.groups, icon: Users },
  { id: "charity", label: "Charity", to: paths.charity, icon: HeartHandshake },
  { id: "prizes", label: "Prizes", to: paths.prizeDraw, icon: Trophy },
  { id: "account", label: "Account", to: paths.account, icon: UserRound },
];

/** The bottom five-tab bar; which tab is lit comes from `activeTab`. */
export function TabBar() {
  const current = activeTab(useLocation().pathname);

  return (
    // Sticky at the end of the page rather than fixed over it: when large text makes the bar taller
    // (see .tab-bar in styles.css) nothing of the page is hidden behind it.
    <nav
      aria-label="Main"
      className="tab-bar sticky bottom-0 z-30 border-t border-line bg-surface pb-[env(safe-area-inset-bottom)]"
    >
      <ul className="tab-bar-list mx-auto grid h-[var(--tab-bar-height)] max-w-3xl grid-cols-5">
        {TABS.map(({ id, label, to, icon: Icon }) => {
          const isActive = id === current;
          return (
            <li key={id} className="flex">
              <Link
                to={to}
                aria-current={isActive ? "page" : undefined}
                className={`flex flex-1 flex-col items-center justify-center gap-1 text-center text-xs leading-tight font-medium ${
                  isActive ? "text-brand-strong" : "text-muted hover:text-ink"
                }`}
              >
                <Icon aria-hidden="true" className="tab-bar-icon size-6" strokeWidth={isActive ? 2.5 : 2} />
                {label}
              </Link>
            </li>
          );
        })}
      </ul>
    </nav>
  );
}
