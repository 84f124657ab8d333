import {
  ACCOUNT_SESSIONS_PATH,
  type AccountSession,
  END_OTHER_SESSIONS_PATH,
  type EndOtherSessionsResponse,
} from "@charity-steps/shared-types";
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { LogOut, MonitorSmartphone } from "lucide-react";
import { useId } from "react";
import { apiRequest, serverMessage } from "../../lib/api-client";
import { isLondonToday, londonShortDay, londonTime } from "../../lib/london-time";
import { toast } from "../../lib/toast-store";
import { handleUnauthorizedError } from "../../lib/unauthorized";
import { useOnline } from "../../lib/use-online";

export const SIGNED_IN_DEVICES_KEY = [ACCOUNT_SESSIONS_PATH] as const;

/** "18:02 today" or "3 Nov", London time. */
function when(at: string): string {
  return isLondonToday(at) ? `${londonTime(at)} today` : londonShortDay(at);
}

/**
 * The browsers signed in to the walker's account, this one marked: End signs one out (its next
 * request is refused), and "Sign out everywhere else" keeps only this one.
 */
export function SignedInDevices() {
  const queryClient = useQueryClient();
  const online = useOnline();
  const ids = { title: useId() };
  const sessions = useQuery<AccountSession[] | null>({ queryKey: SIGNED_IN_DEVICES_KEY });

  const failed = (fallback: string) => (error: unknown) => {
    if (handleUnauthorizedError(error)) return;
    toast({ title: "Error", description: serverMessage(error, fallback), variant: "destructive" });
  };

  const end = useMutation({
    mutationFn: async (session: AccountSession) => {
      await apiRequest("DELETE", `${ACCOUNT_SESSIONS_PATH}/${encodeURIComponent(session.id)}`);
      return session;
    },
    onSuccess: async (session) => {
      queryClient.setQueryData<AccountSession[] | null>(SIGNED_IN_DEVICES_KEY, (list) =>
        list ? list.filter(({ id }) => id !== session.id) : list,
      );
      toast({ title: "Signed out", description: `${session.browser} is no longer signed in.` });
      await queryClient.invalidateQueries({ queryKey: SIGNED_IN_DEVICES_KEY });
    },
    onError: failed("That device could not be signed out. Please try again."),
  });

  const endOthers = useMutation({
    mutationFn: async () =>
      (await (await apiRequest("POST", END_OTHER_SESSIONS_PATH)).json()) as EndOtherSessionsResponse,
    onSuccess: async ({ ended }) => {
      queryClient.setQueryData<AccountSession[] | null>(SIGNED_IN_DEVICES_KEY, (list) =>
        list ? list.filter(({ current }) => current) : list,
      );
      toast({
        title: "Signed out everywhere else",
        description:
          ended === 1 ? "1 other device was signed out." : `${ended} other devices were signed out.`,
      });
      await queryClient.invalidateQueries({ queryKey: SIGNED_IN_DEVICES_KEY });
    },
    onError: failed("Your other devices could not be signed out. Please try again."),
  });

  // This device first, then the others as the server orders them (the most recently used first).
  const list = [...(sessions.data ?? [])].sort((a, b) => Number(b.current) - Number(a.current));
  const others = list.filter((session) => !session.current).length;

  return (
    <section className="card space-y-3 p-4" aria-labelledby={ids.title}>
      <h2 id={ids.title} className="flex items-center gap-2 text-lg font-semibold">
        <MonitorSmartphone aria-hidden="true" className="size-5 text-brand-strong" />
        Signed-in devices
      </h2>
      {sessions.isLoading ? (
        <p className="text-sm text-muted" role="status">
          Loading your devices…
        </p>
      ) : sessions.error ? (
        <p className="text-sm text-muted">Your devices could not be loaded. Check your connection.</p>
      ) : (
        <ul className="divide-y divide-line rounded-lg border border-line">
          {list.map((session) => (
            <li key={session.id} className="flex items-center justify-between gap-3 p-3">
              <div className="min-w-0">
                <p className="flex flex-wrap items-center gap-2 font-medium">
                  <span className="[overflow-wrap:break-word]">{session.browser}</span>
                  {session.current && (
                    <span className="rounded-full bg-brand-soft px-2 py-0.5 text-xs font-semibold text-brand-strong">
                      This device
                    </span>
                  )}
                </p>
                <p className="text-sm text-muted">
                  Last used {when(session.lastSeenAt)} · signed in {londonShortDay(session.createdAt)}
                </p>
              </div>
              {!session.current && (
                <button
                  type="button"
                  className="btn-secondary shrink-0 px-3 py-1.5 text-sm"
                  aria-label={`End ${session.browser}, last used ${when(session.lastSeenAt)}`}
                  disabled={!online || end.isPending}
                  onClick={() => end.mutate(session)}
                >
                  End
                </button>
              )}
            </li>
          ))}
        </ul>
      )}
      {others > 0 && (
        <button
          type="button"
          className="btn-secondary w-full"
          disabled={!online || endOthers.isPending}
          onClick={() => endOthers.mutate()}
        >
          <LogOut aria-hidden="true" className="size-4" />
          {endOthers.isPending ? "Signing out…" : "Sign out everywhere else"}
        </button>
      )}
      {!online && (
        <p className="text-sm text-muted" role="status">
          You're offline: signing devices out needs the connection.
        </p>
      )}
    </section>
  );
}
