import {
  CHARITY_IMPACT_PATH,
  type CharityImpactResponse,
  charityImpactText,
} from "@charity-steps/shared-types";
import { useQuery } from "@tanstack/react-query";

/** This month's walkers and steps for each charity (public; the server keeps it a minute). */
export function useCharityImpact() {
  return useQuery<CharityImpactResponse | null>({ queryKey: [CHARITY_IMPACT_PATH], staleTime: 60_000 });
}

/** "1,204 walkers, 38.2 million steps for Cancer Research UK this month", once known. */
export function useCharityImpactText(charityName: string | null | undefined): string | null {
  const impact = useCharityImpact();
  const item = impact.data?.items.find((candidate) => candidate.charityName === charityName);
  return item ? charityImpactText(item) : null;
}
