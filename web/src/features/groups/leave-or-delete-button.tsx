import { useState } from "react";
import { ConfirmDialog } from "../../components/confirm-dialog";
import type { useGroupActions } from "./group-actions";

type GroupActions = ReturnType<typeof useGroupActions>;

/**
 * Delete for the group's admin, Leave for everyone else, each after the app's own confirm dialog
 * (Cancel has focus first; Escape gives focus back to this button). `leaveQuestion` differs between
 * the list and the group's own page.
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
  const [asking, setAsking] = useState(false);
  const action = isAdmin ? remove : leave;
  return (
    <>
      <button
        type="button"
        className={`btn-secondary ${isAdmin ? "text-destructive" : ""} ${className}`}
        disabled={!online || action.isPending}
        onClick={() => setAsking(true)}
      >
        {isAdmin ? "Delete" : "Leave"}
      </button>
      <ConfirmDialog
        open={asking}
        title={isAdmin ? `Are you sure you want to delete "${group.name}"?` : leaveQuestion}
        description={
          isAdmin
            ? "This action cannot be undone and will remove all members. Each walker keeps their own steps."
            : "You can join again later with the group's join code."
        }
        confirmLabel={isAdmin ? "Delete group" : "Leave group"}
        onCancel={() => setAsking(false)}
        onConfirm={() => {
          setAsking(false);
          action.mutate(group);
        }}
      />
    </>
  );
}
