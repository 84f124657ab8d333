import { drawMinePath, MY_PRIZES_PATH, type MyDraw, type MyPrizes } from "@charity-steps/shared-types";
import { useQuery } from "@tanstack/react-query";

export const MY_PRIZES_KEY = [MY_PRIZES_PATH] as const;
export const myDrawKey = (month: string) => [drawMinePath(month)] as const;

/** The signed-in walker's prizes of every month, newest first; null when signed out. */
export function useMyPrizes() {
  return useQuery<MyPrizes | null>({ queryKey: MY_PRIZES_KEY });
}

/** The signed-in walker's tickets and prizes in `month`'s draw. */
export function useMyDraw(month: string) {
  return useQuery<MyDraw | null>({ queryKey: myDrawKey(month) });
}
