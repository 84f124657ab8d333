import { paths } from "../lib/paths";

export type TabId = "dashboard" | "groups" | "charity" | "prizes" | "account";

/**
 * Which bottom tab is lit for a location: Dashboard on / and /dashboard, Groups on any
 * path starting /groups, the others on their own path only.
 */
export function activeTab(pathname: string): TabId | null {
  const path = pathname.length > 1 ? pathname.replace(/\/+$/, "") : pathname;
  if (path === paths.home || path === "" || path === paths.dashboard) return "dashboard";
  if (path.startsWith(paths.groups)) return "groups";
  if (path === paths.charity) return "charity";
  if (path === paths.prizeDraw) return "prizes";
  if (path === paths.account) return "account";
  return null;
}
