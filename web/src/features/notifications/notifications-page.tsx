import { londonDateTime } from "@charity-steps/shared-types";
import { BellOff, CheckCheck } from "lucide-react";
import { Link } from "react-router-dom";
import { LoadingSpinner } from "../../components/loading-spinner";
import { Page } from "../../components/page";
import { paths } from "../../lib/paths";
import { useMarkRead, useNotifications } from "./use-notifications";

/** Everything the app told the walker, newest first; opening one marks it read. */
export function NotificationsPage() {
  const notifications = useNotifications();
  const markRead = useMarkRead();
  const items = notifications.data?.items ?? [];
  const unread = notifications.data?.unread ?? 0;

  return (
    <Page title="Notifications">
      {notifications.isPending ? (
        <LoadingSpinner />
      ) : items.length === 0 ? (
        <div className="card flex flex-col items-center gap-2 p-6 text-center">
          <BellOff aria-hidden="true" className="size-8 text-muted" />
          <p className="font-semibold">Nothing yet</p>
          <p className="text-muted">
            Prize news, your goal and streaks, and your groups will show here. Choose what comes to your phone
            on the{" "}
            <Link className="link" to={paths.account}>
              Account
            </Link>{" "}
            page.
          </p>
        </div>
      ) : (
        <>
          <div className="mb-3 flex flex-wrap items-center justify-between gap-2">
            <p className="text-muted" data-testid="unread-summary">
              {unread === 0 ? "All read." : `${unread} unread.`}
            </p>
            <button
              type="button"
              className="btn-secondary"
              disabled={unread === 0 || markRead.isPending}
              onClick={() => markRead.mutate(undefined)}
            >
              <CheckCheck aria-hidden="true" className="size-4" />
              Mark all as read
            </button>
          </div>
          <ul className="space-y-2" aria-label="Your notifications">
            {items.map((item) => (
              <li key={item.id}>
                <Link
                  to={item.url}
                  className="card block p-4 text-ink no-underline hover:bg-page"
                  data-testid="notification"
                  onClick={() => {
                    if (item.readAt === null) markRead.mutate([item.id]);
                  }}
                >
                  <span className="flex items-start gap-2">
                    {item.readAt === null && (
                      <span
                        className="mt-2 size-2 shrink-0 rounded-full bg-brand-strong"
                        aria-hidden="true"
                      />
                    )}
                    <span className="min-w-0">
                      <span className="block font-semibold [overflow-wrap:break-word]">
                        {item.readAt === null && <span className="sr-only">Unread: </span>}
                        {item.title}
                      </span>
                      <span className="block [overflow-wrap:break-word]">{item.body}</span>
                      <span className="mt-1 block text-sm text-muted">{londonDateTime(item.createdAt)}</span>
                    </span>
                  </span>
                </Link>
              </li>
            ))}
          </ul>
        </>
      )}
    </Page>
  );
}
