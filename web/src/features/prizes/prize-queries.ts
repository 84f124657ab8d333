import {
  DRAWS_PATH,
  type DrawList,
  type DrawSummary,
  drawMinePath,
  MY_PRIZES_PATH,
  type MyDraw,
  type MyPrizes,
} from "@charity-steps/shared-types";
import { useQuery } from "@tanstack/react-query";

export const MY_PRIZES_KEY = [MY_PRIZES_PATH] as const;
export const DRAW_LIST_KEY = [DRAWS_PATH] as const;
export const myDrawKey = (month: string) => [drawMinePath(month)] as const;

/** The signed-in walker's prizes of every month, newest first; null when signed out. */
export function useMyPrizes() {
  return useQuery<MyPrizes | null>({ queryKey: MY_PRIZES_KEY });
}

/** The signed-in walker's tickets and prizes in `month`'s draw. */
export function useMyDraw(month: string) {
  return useQuery<MyDraw | null>({ queryKey: myDrawKey(month) });
}

/**
 * The months that have a draw, newest first, each with its status. One request answers for the
 * whole year, so a screen never asks month by month which draws exist.
 */
export function useDrawList() {
  return useQuery<DrawList | null>({ queryKey: DRAW_LIST_KEY });
}

/** The list's draws, newest first whatever order the server sent. */
export function drawsNewestFirst(list: DrawList | null | undefined): DrawSummary[] {
  return [...(list?.draws ?? [])].sort((a, b) => b.month.localeCompare(a.month));
}
