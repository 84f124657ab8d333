import { BADGES_PATH, type BadgesResponse } from "@charity-steps/shared-types";
import { useQuery } from "@tanstack/react-query";

export const BADGES_KEY = [BADGES_PATH] as const;

/** The walker's badges; reading them is what awards those newly reached. */
export function useBadges(options: { refetchInterval?: number } = {}) {
  return useQuery<BadgesResponse | null>({ queryKey: BADGES_KEY, ...options });
}
