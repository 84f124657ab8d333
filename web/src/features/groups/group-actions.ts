import type { MyGroup } from "@charity-steps/shared-types";
import { type QueryClient, useMutation, useQueryClient } from "@tanstack/react-query";
import { ApiError, apiRequest, serverMessage } from "../../lib/api-client";
import { toast } from "../../lib/toast-store";
import { handleUnauthorizedError } from "../../lib/unauthorized";

export const GROUPS_KEY = ["/api/groups"] as const;

const failed = (description: string) => (error: unknown) => {
  if (handleUnauthorizedError(error)) return;
  // A conflict (a walker in as many groups as they can be) is not fixed by trying again: the
  // server's sentence says what to do instead.
  const conflict = error instanceof ApiError && error.status === 409;
  toast({
    title: "Error",
    description: conflict ? serverMessage(error, description) : description,
    variant: "destructive",
  });
};

const refreshGroups = (queryClient: QueryClient, id?: number) =>
  Promise.all([
    queryClient.invalidateQueries({ queryKey: GROUPS_KEY }),
    id === undefined ? null : queryClient.removeQueries({ queryKey: ["/api/groups", id] }),
  ]);

/** Create, join, leave and delete, each with its toasts. */
export function useGroupActions(onDone: { left?: () => void; deleted?: () => void } = {}) {
  const queryClient = useQueryClient();
  const create = useMutation({
    mutationFn: async (body: { name: string; description: string }) =>
      (await (await apiRequest("POST", "/api/groups", body)).json()) as MyGroup,
    onSuccess: async (group) => {
      toast({
        title: "Group Created",
        description: `${group.name} is ready. Share its join code to invite walkers.`,
      });
      await refreshGroups(queryClient);
    },
    onError: failed("Failed to create group. Please try again."),
  });
  const join = useMutation({
    mutationFn: async (joinCode: string) =>
      (await (await apiRequest("POST", "/api/groups/join", { joinCode })).json()) as MyGroup,
    onSuccess: async (group) => {
      toast({ title: "Joined Group", description: `You're now walking with ${group.name}.` });
      await refreshGroups(queryClient);
    },
    onError: failed("Failed to join group. Please check the code and try again."),
  });
  const leave = useMutation({
    mutationFn: async (group: { id: number; name: string }) => {
      await apiRequest("POST", `/api/groups/${group.id}/leave`);
      return group;
    },
    onSuccess: async (group) => {
      toast({ title: "Left Group", description: `You left ${group.name}.` });
      await refreshGroups(queryClient, group.id);
      onDone.left?.();
    },
    onError: failed("Failed to leave group. Please try again."),
  });
  const remove = useMutation({
    mutationFn: async (group: { id: number; name: string }) => {
      await apiRequest("DELETE", `/api/groups/${group.id}`);
      return group;
    },
    onSuccess: async (group) => {
      toast({ title: "Group Deleted", description: `${group.name} has been deleted.` });
      await refreshGroups(queryClient, group.id);
      onDone.deleted?.();
    },
    onError: failed("Failed to delete group. Please try again."),
  });
  return { create, join, leave, remove };
}
