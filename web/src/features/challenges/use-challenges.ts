import {
  CHALLENGES_PATH,
  type ChallengeInput,
  type ChallengeItem,
  type ChallengeLeaderboardResponse,
  type ChallengesResponse,
  challengeFundraisingPath,
  challengeJoinPath,
  challengeLeaderboardPath,
  challengeLeavePath,
  challengePath,
  challengePublicPath,
  groupChallengesPath,
  type PublicChallenge,
} from "@charity-steps/shared-types";
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { apiRequest } from "../../lib/api-client";

export const CHALLENGES_KEY = [CHALLENGES_PATH] as const;

/** The walker's challenges: public ones and their groups', not ended over 30 days ago. */
export function useChallenges() {
  return useQuery<ChallengesResponse | null>({ queryKey: CHALLENGES_KEY });
}

export function useChallenge(id: string, enabled = true) {
  return useQuery<ChallengeItem | null>({ queryKey: [challengePath(id)], enabled });
}

/** A public challenge's totals, for anyone. */
export function usePublicChallenge(id: string, enabled: boolean) {
  return useQuery<PublicChallenge | null>({ queryKey: [challengePublicPath(id)], enabled });
}

export function useChallengeLeaderboard(id: string, cursor: string | null, enabled: boolean) {
  const url =
    cursor === null ? challengeLeaderboardPath(id) : `${challengeLeaderboardPath(id)}?cursor=${cursor}`;
  return useQuery<ChallengeLeaderboardResponse | null>({ queryKey: [url], enabled });
}

/** After a change: the list, the challenge and its leaderboard are asked for again. */
function useRefresh() {
  const queryClient = useQueryClient();
  return async (id: string) => {
    await Promise.all([
      queryClient.invalidateQueries({ queryKey: CHALLENGES_KEY }),
      queryClient.invalidateQueries({ queryKey: [challengePath(id)] }),
      queryClient.invalidateQueries({
        predicate: (query) => String(query.queryKey[0]).startsWith(challengeLeaderboardPath(id)),
      }),
    ]);
  };
}

export function useJoinChallenge() {
  const refresh = useRefresh();
  return useMutation({
    mutationFn: async ({ id, leave }: { id: string; leave?: boolean }) =>
      (await (
        await apiRequest("POST", leave ? challengeLeavePath(id) : challengeJoinPath(id))
      ).json()) as ChallengeItem,
    onSuccess: (_item, { id }) => refresh(id),
  });
}

export function useFundraising() {
  const refresh = useRefresh();
  return useMutation({
    mutationFn: async ({ id, url }: { id: string; url: string | null }) => {
      await apiRequest(
        url === null ? "DELETE" : "PUT",
        challengeFundraisingPath(id),
        url === null ? undefined : { url },
      );
    },
    onSuccess: (_nothing, { id }) => refresh(id),
  });
}

/** A group's admin sets a challenge for the group. */
export function useCreateGroupChallenge() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async ({ groupId, input }: { groupId: number; input: ChallengeInput }) =>
      (await (await apiRequest("POST", groupChallengesPath(groupId), input)).json()) as ChallengeItem,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: CHALLENGES_KEY }),
  });
}
