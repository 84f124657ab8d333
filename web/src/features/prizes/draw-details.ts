import { type DrawResults, drawResultsPath } from "@charity-steps/shared-types";
import { useQuery } from "@tanstack/react-query";

/** `month`'s public draw record: its commitment and closing dates. */
export function useDraw(month: string) {
  return useQuery<DrawResults | null>({ queryKey: [drawResultsPath(month)] });
}
