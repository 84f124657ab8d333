import { DRAWS_PATH, type DrawList, type DrawSummary } from "@charity-steps/shared-types";
import { useQuery } from "@tanstack/react-query";

/** The list of draws: one cache entry for every screen that reads it (the prize page, the operator console). */
export const DRAW_LIST_KEY = [DRAWS_PATH] as const;

/**
 * The months that have a draw, each with its status. One request answers for the whole year, so a
 * screen never asks month by month which draws exist.
 */
export function useDrawList() {
  return useQuery<DrawList | null>({ queryKey: DRAW_LIST_KEY });
}

/** The list's draws, newest first whatever order the server sent. */
export function drawsNewestFirst(list: DrawList | null | undefined): DrawSummary[] {
  return [...(list?.draws ?? [])].sort((a, b) => b.month.localeCompare(a.month));
}
