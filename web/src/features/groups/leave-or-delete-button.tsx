import type { useGroupActions } from "./group-actions";

type GroupActions = ReturnType<typeof useGroupActions>;

/**
 * Delete for the group's admin, Leave for everyone else, each after a
 * confirmation. `leaveQuestion` differs between the list and the group's own page.
 */
export function LeaveOrDeleteButton({
  group,
  isAdmin,
  online,
  actions,
  leaveQuestion,
  className = "",
}: {
  group: { id: number; name: string };
  isAdmin: boolean;
  online: boolean;
  actions: Pick<GroupActions, "leave" | "remove">;
  leaveQuestion: string;
  className?: string;
}) {
  const { leave, remove } = actions;
  if (isAdmin) {
    return (
      <button
        type="button"
        className={`btn-secondary text-destructive ${className}`}
        disabled={!online || remove.isPending}
        onClick={() => {
          const question = `Are you sure you want to delete "${group.name}"? This action cannot be undone and will remove all members.`;
          if (window.confirm(question)) remove.mutate(group);
        }}
      >
        Delete
      </button>
    );
  }
  return (
    <button
      type="button"
      className={`btn-secondary ${className}`}
      disabled={!online || leave.isPending}
      onClick={() => {
        if (window.confirm(leaveQuestion)) leave.mutate(group);
      }}
    >
      Leave
    </button>
  );
}
