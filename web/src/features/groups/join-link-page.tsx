import {
  countOf,
  type GroupInvitation,
  groupInvitationPath,
  LOGIN_PATH,
  normaliseJoinCode,
} from "@charity-steps/shared-types";
import { useQuery } from "@tanstack/react-query";
import { Users } from "lucide-react";
import { useEffect } from "react";
import { Link, useNavigate, useParams } from "react-router-dom";
import { LoadingSpinner } from "../../components/loading-spinner";
import { Page } from "../../components/page";
import { ApiError, apiRequest } from "../../lib/api-client";
import { navigateTo } from "../../lib/browser-location";
import { groupPath, paths } from "../../lib/paths";
import { forgetReturnTo, rememberReturnTo } from "../../lib/return-to";
import { useAuth } from "../../lib/use-auth";
import { useGroupActions } from "./group-actions";

/**
 * `/groups/join/{CODE}`, a group's shared link. Signed in, it shows the group and "Join {name}";
 * signed out, it keeps the link for after sign-in and goes to sign in.
 */
export function JoinLinkPage() {
  const { code = "" } = useParams();
  const { isLoading, isAuthenticated } = useAuth();
  useEffect(() => {
    if (isLoading) return;
    if (isAuthenticated) {
      forgetReturnTo();
      return;
    }
    rememberReturnTo(window.location.pathname);
    navigateTo(LOGIN_PATH);
  }, [isLoading, isAuthenticated]);

  if (isLoading) return <LoadingSpinner />;
  if (!isAuthenticated) {
    return (
      <Page title="Join a group">
        <p className="card p-4 text-muted" role="status">
          Taking you to sign in: you come back here to join.
        </p>
      </Page>
    );
  }
  return <Invitation code={normaliseJoinCode(code)} />;
}

function Invitation({ code }: { code: string }) {
  const navigate = useNavigate();
  const { join } = useGroupActions();
  const invitation = useQuery<GroupInvitation>({
    queryKey: [groupInvitationPath(code)],
    queryFn: async () =>
      (await (await apiRequest("GET", groupInvitationPath(code))).json()) as GroupInvitation,
    retry: false,
  });

  if (invitation.isPending) return <LoadingSpinner />;
  if (invitation.isError) {
    const unknown = invitation.error instanceof ApiError && invitation.error.status === 404;
    return (
      <Page title="Join a group">
        <section className="card space-y-3 p-4">
          <p>
            {unknown
              ? "No group has this join code. The group may have been deleted, or the link cut short."
              : "This group could not be loaded. Check your connection and try again."}
          </p>
          <Link to={paths.groups} className="link">
            Go to your groups
          </Link>
        </section>
      </Page>
    );
  }
  const group = invitation.data;
  return (
    <Page title="Join a group">
      <section className="card space-y-3 p-5" aria-labelledby="invitation-name">
        <p className="flex items-center gap-2 text-sm text-muted">
          <Users aria-hidden="true" className="size-4" />
          {countOf(group.memberCount, "member")}
        </p>
        <h2 id="invitation-name" className="text-2xl font-bold">
          {group.name}
        </h2>
        {group.description && (
          <p className="whitespace-pre-line text-muted [overflow-wrap:anywhere]">{group.description}</p>
        )}
        {group.member ? (
          <>
            <p className="font-semibold text-brand-strong">You are in this group.</p>
            <Link to={groupPath(group.id)} className="btn-primary w-full">
              Open {group.name}
            </Link>
          </>
        ) : (
          <>
            <p className="text-sm text-muted">
              Members see each other's names and steps on the group's monthly leaderboard, never emails.
            </p>
            <button
              type="button"
              className="btn-primary w-full"
              disabled={join.isPending}
              onClick={() => join.mutate(code, { onSuccess: (joined) => navigate(groupPath(joined.id)) })}
            >
              Join {group.name}
            </button>
          </>
        )}
      </section>
    </Page>
  );
}
