import {
  countOf,
  type Group,
  type GroupLeaderboardResponse,
  type GroupMembersResponse,
  nameInitials,
  type PublicUser,
} from "@charity-steps/shared-types";
import { useQuery } from "@tanstack/react-query";
import { ArrowLeft, Crown, Medal, Trophy, Users } from "lucide-react";
import { type KeyboardEvent, useId, useRef, useState } from "react";
import { Link, useNavigate, useParams } from "react-router-dom";
import { LoadingSpinner } from "../../components/loading-spinner";
import { Page } from "../../components/page";
import { ApiError } from "../../lib/api-client";
import { formatSteps } from "../../lib/format";
import { londonMediumDate } from "../../lib/london-time";
import { paths } from "../../lib/paths";
import { waitingStepsText } from "../../lib/step-progress";
import { useAuth } from "../../lib/use-auth";
import { useOnline } from "../../lib/use-online";
import { useGroupActions } from "./group-actions";
import { parseGroupId } from "./group-id";
import { JoinCodeButton } from "./join-code-button";
import { LeaveOrDeleteButton } from "./leave-or-delete-button";
import { ShareGroupButton } from "./share-group-button";

const TABS = ["leaderboard", "members"] as const;
type Tab = (typeof TABS)[number];

export function GroupDetailPage() {
  const groupId = parseGroupId(useParams().id);
  return (
    <Page
      title="Group"
      back={
        <Link to={paths.groups} className="link inline-flex items-center gap-1">
          <ArrowLeft aria-hidden="true" className="size-4" />
          Back to groups
        </Link>
      }
    >
      {groupId > 0 ? (
        <GroupDetail groupId={groupId} />
      ) : (
        <p className="card p-4 text-muted">This link does not name a group.</p>
      )}
    </Page>
  );
}

function GroupDetail({ groupId }: { groupId: number }) {
  const navigate = useNavigate();
  const { user } = useAuth();
  const online = useOnline();
  const [tab, setTab] = useState<Tab>("leaderboard");
  const tabIds = useId();
  const tabButtons = useRef<Partial<Record<Tab, HTMLButtonElement | null>>>({});
  // The tabs pattern: one Tab stop for the list, arrow keys (and Home, End) move between the tabs.
  const onTabKey = (event: KeyboardEvent) => {
    const at = TABS.indexOf(tab);
    const next =
      event.key === "ArrowRight"
        ? TABS[(at + 1) % TABS.length]
        : event.key === "ArrowLeft"
          ? TABS[(at - 1 + TABS.length) % TABS.length]
          : event.key === "Home"
            ? TABS[0]
            : event.key === "End"
              ? TABS[TABS.length - 1]
              : undefined;
    if (!next) return;
    event.preventDefault();
    setTab(next);
    tabButtons.current[next]?.focus();
  };
  // Data is loaded only for ids above 0: this component exists only then.
  const group = useQuery<Group | null>({ queryKey: ["/api/groups", groupId] });
  const members = useQuery<GroupMembersResponse | null>({ queryKey: ["/api/groups", groupId, "members"] });
  const leaderboard = useQuery<GroupLeaderboardResponse | null>({
    queryKey: ["/api/groups", groupId, "leaderboard"],
  });
  const back = () => navigate(paths.groups);
  const { leave, remove } = useGroupActions({ left: back, deleted: back });

  if (group.isLoading) return <LoadingSpinner />;
  if (!group.data) {
    return (
      <p className="card p-4 text-muted">
        {group.error ? groupError(group.error) : "This group could not be loaded."}
      </p>
    );
  }
  const data = group.data;
  const isAdmin = data.adminUserId === user?.id;

  return (
    <div className="space-y-4">
      {!online && (
        <p className="card p-3 text-sm text-muted" role="status">
          You're offline: showing this group as it was last loaded. Leaving or deleting needs the connection.
        </p>
      )}
      <section className="card space-y-2 p-4">
        {/* The crown sits in the line after the name, not in a flex row beside it, so the name's
            words get the card's whole width at large text. */}
        <h2 className="text-xl font-bold">
          {data.name}
          {isAdmin && (
            <Crown
              aria-label="You are the admin"
              className="ml-2 inline-block size-5 align-[-0.15em] text-amber-500"
            />
          )}
        </h2>
        {data.description && (
          <p className="whitespace-pre-line text-muted [overflow-wrap:anywhere]">{data.description}</p>
        )}
        <div className="flex flex-wrap items-center gap-3 text-sm text-muted">
          <JoinCodeButton code={data.joinCode} />
          <ShareGroupButton name={data.name} joinCode={data.joinCode} />
          <span>Created {londonMediumDate(data.createdAt)}</span>
          <span>{countOf(data.memberCount, "member")}</span>
        </div>
        <LeaveOrDeleteButton
          group={data}
          isAdmin={isAdmin}
          online={online}
          actions={{ leave, remove }}
          leaveQuestion="Are you sure you want to leave this group?"
          className="w-full"
        />
      </section>

      <div role="tablist" aria-label="Group" className="fit-grid gap-2 [--fit-min:8rem]" onKeyDown={onTabKey}>
        {TABS.map((name) => (
          <button
            key={name}
            ref={(button) => {
              tabButtons.current[name] = button;
            }}
            type="button"
            role="tab"
            id={`${tabIds}-${name}`}
            aria-selected={tab === name}
            aria-controls={`${tabIds}-panel`}
            tabIndex={tab === name ? 0 : -1}
            className={tab === name ? "btn-primary" : "btn-secondary"}
            onClick={() => setTab(name)}
          >
            {name === "leaderboard" ? "Leaderboard" : "Members"}
          </button>
        ))}
      </div>

      {tab === "leaderboard" ? (
        <section
          className="card p-4"
          role="tabpanel"
          id={`${tabIds}-panel`}
          aria-labelledby={`${tabIds}-leaderboard`}
        >
          {/* The trophy sits in the line, not in a flex row, so the words wrap across the card's
              whole width and "Leaderboard" fits whole at large text. */}
          <h3 className="mb-3 text-lg font-semibold">
            <Trophy
              aria-hidden="true"
              className="mr-2 inline-block size-5 align-[-0.2em] text-brand-strong"
            />
            Monthly Step Leaderboard
          </h3>
          {leaderboard.data?.some((entry) => entry.monthlySteps > 0) ? (
            <ol className="space-y-2">
              {leaderboard.data.map((entry) => {
                // Medals and the top three's tint go only to members who walked this month.
                const podium = entry.rank <= 3 && entry.monthlySteps > 0;
                const isYou = entry.user.id === user?.id;
                return (
                  <li
                    key={entry.user.id}
                    className={`flex flex-wrap items-center gap-3 rounded-lg p-2 ${podium ? "bg-brand-soft" : ""} ${
                      isYou ? "ring-2 ring-brand-strong" : ""
                    }`}
                    data-testid="leaderboard-row"
                    aria-current={isYou ? "true" : undefined}
                  >
                    <span className="w-6 text-center font-bold">{entry.rank}</span>
                    {/* The top three's tint is not their only mark: a medal shows it, and is read out. */}
                    {podium && (
                      <Medal
                        role="img"
                        aria-label="Top three"
                        className="size-5 shrink-0 text-brand-strong"
                      />
                    )}
                    <Avatar user={entry.user} onTint={podium} />
                    {/* Name and steps share the row while they have room; at large text they move
                        under the rank and avatar, so a name wraps between its words. */}
                    <span className="flex min-w-0 flex-[1_1_9rem] flex-wrap items-center justify-between gap-x-3">
                      <span className="min-w-0 font-medium">
                        {displayName(entry.user)}
                        {isYou && (
                          <span className="ml-2 inline-block whitespace-nowrap rounded-full bg-brand-strong px-2 py-0.5 text-xs font-semibold text-on-brand">
                            You
                          </span>
                        )}
                      </span>
                      <span className="ml-auto text-right text-sm">
                        <span className="block font-semibold">{formatSteps(entry.monthlySteps)}</span>
                        <span className="block text-muted">{formatSteps(entry.todaySteps)} today</span>
                        {entry.pendingSteps !== undefined && (
                          <span className="block text-xs text-muted">
                            {waitingStepsText(entry.pendingSteps)}
                          </span>
                        )}
                      </span>
                    </span>
                  </li>
                );
              })}
            </ol>
          ) : (
            <p className="text-center text-muted">No Activity Yet</p>
          )}
        </section>
      ) : (
        <section
          className="card p-4"
          role="tabpanel"
          id={`${tabIds}-panel`}
          aria-labelledby={`${tabIds}-members`}
        >
          {members.data && members.data.length > 0 ? (
            <ul className="space-y-2">
              {members.data.map((member) => (
                <li key={member.userId} className="flex items-center gap-3">
                  <Avatar user={member.user} />
                  <span className="min-w-0 flex-1">
                    <span className="block [overflow-wrap:break-word] font-medium">
                      {displayName(member.user)}
                      {member.userId === data.adminUserId && (
                        <span className="ml-2 rounded-full bg-brand-soft px-2 py-0.5 text-xs font-semibold text-brand-strong">
                          Admin
                        </span>
                      )}
                    </span>
                    <span className="block text-sm text-muted">
                      Joined {londonMediumDate(member.joinedAt)}
                    </span>
                  </span>
                  {member.userId === user?.id && !isAdmin && (
                    <LeaveOrDeleteButton
                      group={data}
                      isAdmin={false}
                      online={online}
                      actions={{ leave, remove }}
                      leaveQuestion="Are you sure you want to leave this group?"
                    />
                  )}
                </li>
              ))}
            </ul>
          ) : (
            <p className="flex flex-col items-center gap-2 text-muted">
              <Users aria-hidden="true" className="size-6" />
              No Members
            </p>
          )}
        </section>
      )}
    </div>
  );
}

function displayName(user: PublicUser): string {
  return [user.firstName, user.lastName].filter(Boolean).join(" ") || "Walker";
}

/** A member's picture or initials; on the top three's tint the initials take a surface of their own. */
function Avatar({ user, onTint = false }: { user: PublicUser; onTint?: boolean }) {
  if (user.profileImageUrl) {
    return <img src={user.profileImageUrl} alt="" className="size-9 rounded-full object-cover" />;
  }
  const initials = nameInitials(user.firstName, user.lastName) || "W";
  return (
    <span
      aria-hidden="true"
      className={`flex size-9 shrink-0 items-center justify-center rounded-full text-sm font-bold text-brand-strong ${
        onTint ? "border border-brand-strong bg-surface" : "bg-brand-soft"
      }`}
    >
      {initials.toUpperCase()}
    </span>
  );
}

function groupError(error: Error): string {
  const status = error instanceof ApiError ? error.status : null;
  if (status === 403) return "This group is for its members only.";
  if (status === 404) return "There is no such group.";
  return "This group could not be loaded. Check your connection.";
}
