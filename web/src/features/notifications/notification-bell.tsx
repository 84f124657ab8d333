import { Bell } from "lucide-react";
import { NavLink } from "react-router-dom";
import { paths } from "../../lib/paths";
import { useNotifications } from "./use-notifications";

/** The header's bell: a link to the notifications, with the number unread. */
export function NotificationBell() {
  const notifications = useNotifications();
  const unread = notifications.data?.unread ?? 0;
  const label = unread > 0 ? `Notifications, ${unread} unread` : "Notifications";
  return (
    <NavLink
      to={paths.notifications}
      aria-label={label}
      title={label}
      className="relative inline-flex size-11 items-center justify-center rounded-md text-ink hover:bg-page aria-[current=page]:text-brand-strong"
    >
      <Bell aria-hidden="true" className="size-5" />
      {unread > 0 && (
        <span
          aria-hidden="true"
          data-testid="unread-count"
          className="absolute top-1 right-0.5 min-w-5 rounded-full bg-destructive px-1 text-center text-xs leading-5 font-bold text-on-destructive"
        >
          {unread > 99 ? "99+" : unread}
        </span>
      )}
    </NavLink>
  );
}
