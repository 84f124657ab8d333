import { type DrawResults, drawResultsPath, STEP_TIME_ZONE } from "@charity-steps/shared-types";
import { useQuery } from "@tanstack/react-query";

const londonDate = new Intl.DateTimeFormat("en-GB", {
  timeZone: STEP_TIME_ZONE,
  day: "numeric",
  month: "long",
  year: "numeric",
});

/** "25 November 2026", the London date of an ISO instant. */
export const londonLongDate = (iso: string) => londonDate.format(new Date(iso));

/** `month`'s public draw record: its commitment and closing dates. */
export function useDraw(month: string) {
  return useQuery<DrawResults | null>({ queryKey: [drawResultsPath(month)] });
}
