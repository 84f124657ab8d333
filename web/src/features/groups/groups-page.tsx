import {
  countOf,
  GROUP_DESCRIPTION_MAX_CHARS,
  GROUP_NAME_MAX_CHARS,
  JOIN_CODE_LENGTH,
  type MyGroup,
  normaliseJoinCode,
} from "@charity-steps/shared-types";
import { useQuery } from "@tanstack/react-query";
import { ArrowLeft, Plus, UserPlus, Users } from "lucide-react";
import { useId, useRef, useState } from "react";
import { Link } from "react-router-dom";
import { CharacterCount, overLimit } from "../../components/character-count";
import { LoadingSpinner } from "../../components/loading-spinner";
import { Page } from "../../components/page";
import { londonMediumDate } from "../../lib/london-time";
import { groupPath, paths } from "../../lib/paths";
import { useOnline } from "../../lib/use-online";
import { GROUPS_KEY, useGroupActions } from "./group-actions";
import { JoinCodeButton } from "./join-code-button";
import { LeaveOrDeleteButton } from "./leave-or-delete-button";

export function GroupsPage() {
  const groups = useQuery<MyGroup[] | null>({ queryKey: GROUPS_KEY });
  const online = useOnline();
  const [open, setOpen] = useState<"create" | "join" | null>(null);

  return (
    <Page
      title="Groups"
      back={
        <Link to={paths.dashboard} className="link inline-flex items-center gap-1">
          <ArrowLeft aria-hidden="true" className="size-4" />
          Back to dashboard
        </Link>
      }
    >
      {!online && (
        <p className="card mb-4 p-3 text-sm text-muted" role="status">
          You're offline: showing your groups as they were last loaded. Creating, joining and leaving need the
          connection.
        </p>
      )}
      {/* Narrower side padding than other buttons: on a 390 px phone "+ Create Group" then fits on
          one line, its icon beside the words rather than above them. */}
      <div className="grid grid-cols-2 gap-3">
        <button
          type="button"
          className="btn-primary px-3"
          aria-expanded={open === "create"}
          disabled={!online}
          onClick={() => setOpen(open === "create" ? null : "create")}
        >
          <Plus aria-hidden="true" className="size-4" /> Create Group
        </button>
        <button
          type="button"
          className="btn-secondary px-3"
          aria-expanded={open === "join"}
          disabled={!online}
          onClick={() => setOpen(open === "join" ? null : "join")}
        >
          <UserPlus aria-hidden="true" className="size-4" /> Join Group
        </button>
      </div>
      {open === "create" && <CreateGroupForm onDone={() => setOpen(null)} />}
      {open === "join" && <JoinGroupForm onDone={() => setOpen(null)} />}
      <p className="mt-3 text-sm">
        <Link to={paths.challenges} className="link">
          Challenges
        </Link>
        : walk for a target together. A group's admin can set one for the group there.
      </p>

      <div className="mt-4">
        {groups.isLoading ? (
          <LoadingSpinner />
        ) : groups.data && groups.data.length > 0 ? (
          <ul className="space-y-3">
            {groups.data.map((group) => (
              <GroupCard key={group.id} group={group} online={online} />
            ))}
          </ul>
        ) : groups.error ? (
          <p className="card p-4 text-muted">Your groups could not be loaded. Check your connection.</p>
        ) : (
          <section className="card p-6 text-center">
            <Users aria-hidden="true" className="mx-auto size-8 text-muted" />
            <h2 className="mt-2 text-lg font-semibold">No Groups Yet</h2>
            <p className="text-sm text-muted">
              Create a group or join one with its code to compete each month.
            </p>
          </section>
        )}
      </div>
    </Page>
  );
}

function CreateGroupForm({ onDone }: { onDone: () => void }) {
  const { create } = useGroupActions();
  const [name, setName] = useState("");
  const [description, setDescription] = useState("");
  const ids = { name: useId(), description: useId() };
  const tooLong =
    overLimit(name.trim(), GROUP_NAME_MAX_CHARS) ||
    overLimit(description.trim(), GROUP_DESCRIPTION_MAX_CHARS);
  // Set as the form is sent: a second tap before the button shows it is busy makes no second group.
  const sending = useRef(false);
  return (
    <form
      className="card mt-3 space-y-3 p-4"
      onSubmit={(event) => {
        event.preventDefault();
        if (sending.current || tooLong) return;
        sending.current = true;
        create.mutate(
          { name: name.trim(), description: description.trim() },
          {
            onSettled: () => {
              sending.current = false;
            },
            onSuccess: () => {
              setName("");
              setDescription("");
              onDone();
            },
          },
        );
      }}
    >
      <div>
        <label htmlFor={ids.name} className="block text-sm font-medium">
          Group name
          <input
            id={ids.name}
            value={name}
            aria-describedby={`${ids.name}-count`}
            onChange={(event) => setName(event.target.value)}
            className="field"
          />
        </label>
        <CharacterCount
          id={`${ids.name}-count`}
          label="The name"
          text={name.trim()}
          max={GROUP_NAME_MAX_CHARS}
        />
      </div>
      <div>
        <label htmlFor={ids.description} className="block text-sm font-medium">
          Description <span className="font-normal text-muted">(optional)</span>
          <textarea
            id={ids.description}
            value={description}
            aria-describedby={`${ids.description}-count`}
            rows={2}
            onChange={(event) => setDescription(event.target.value)}
            className="field"
          />
        </label>
        <CharacterCount
          id={`${ids.description}-count`}
          label="The description"
          text={description.trim()}
          max={GROUP_DESCRIPTION_MAX_CHARS}
        />
      </div>
      <button
        type="submit"
        className="btn-primary w-full"
        disabled={name.trim() === "" || tooLong || create.isPending}
      >
        {create.isPending ? "Creating…" : "Create"}
      </button>
    </form>
  );
}

/**
 * A join code as typed or pasted: normalised as the server does before its length is capped, so
 * that " h9j6 jh57 " pasted from a message is the code, not its first eight characters (a
 * `maxLength` would cut the pasted text first).
 */
export function joinCodeTyped(text: string): string {
  return normaliseJoinCode(text).slice(0, JOIN_CODE_LENGTH);
}

function JoinGroupForm({ onDone }: { onDone: () => void }) {
  const { join } = useGroupActions();
  const [code, setCode] = useState("");
  const id = useId();
  return (
    <form
      className="card mt-3 space-y-3 p-4"
      onSubmit={(event) => {
        event.preventDefault();
        join.mutate(code.trim(), {
          onSuccess: () => {
            setCode("");
            onDone();
          },
        });
      }}
    >
      <label htmlFor={id} className="block text-sm font-medium">
        Join code
        <input
          id={id}
          value={code}
          autoCapitalize="characters"
          autoComplete="off"
          placeholder="Enter 8-character join code"
          onChange={(event) => setCode(joinCodeTyped(event.target.value))}
          className="field font-mono uppercase"
        />
      </label>
      <button type="submit" className="btn-primary w-full" disabled={code.trim() === "" || join.isPending}>
        {join.isPending ? "Joining…" : "Join"}
      </button>
    </form>
  );
}

function GroupCard({ group, online }: { group: MyGroup; online: boolean }) {
  const actions = useGroupActions();
  return (
    <li className="card space-y-2 p-4">
      <div className="flex flex-wrap items-start justify-between gap-2">
        <h2 className="min-w-0 text-lg font-semibold">{group.name}</h2>
        {group.isAdmin && (
          <span className="rounded-full bg-brand-soft px-2 py-0.5 text-xs font-semibold text-brand-strong">
            Admin
          </span>
        )}
      </div>
      {group.description && (
        <p className="whitespace-pre-line text-sm text-muted [overflow-wrap:anywhere]">{group.description}</p>
      )}
      <div className="flex flex-wrap items-center gap-3 text-sm text-muted">
        <JoinCodeButton code={group.joinCode} />
        <span>Created {londonMediumDate(group.createdAt)}</span>
        <span>{countOf(group.memberCount, "member")}</span>
      </div>
      <div className="grid grid-cols-2 gap-2">
        <Link to={groupPath(group.id)} className="btn-secondary">
          View
        </Link>
        <LeaveOrDeleteButton
          group={group}
          isAdmin={group.isAdmin}
          online={online}
          actions={actions}
          leaveQuestion={`Are you sure you want to leave "${group.name}"?`}
        />
      </div>
    </li>
  );
}
