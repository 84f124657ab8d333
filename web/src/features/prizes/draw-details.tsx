import {
  DRAW_RULES_PATH,
  type DrawResults,
  type DrawRulesResponse,
  drawResultsPath,
  STEP_TIME_ZONE,
} from "@charity-steps/shared-types";
import { useQuery } from "@tanstack/react-query";

const londonDate = new Intl.DateTimeFormat("en-GB", {
  timeZone: STEP_TIME_ZONE,
  day: "numeric",
  month: "long",
  year: "numeric",
});

/** "25 November 2026", the London date of an ISO instant. */
export const londonLongDate = (iso: string) => londonDate.format(new Date(iso));

/** Where postal entries go, as the server was told; null while loading or when it has none. */
export function usePostalEntryAddress(): { address: string | null; isLoading: boolean } {
  const rules = useQuery<DrawRulesResponse | null>({ queryKey: [DRAW_RULES_PATH] });
  return { address: rules.data?.postalEntryAddress ?? null, isLoading: rules.isLoading };
}

/** `month`'s public draw record: its commitment and closing dates. */
export function useDraw(month: string) {
  return useQuery<DrawResults | null>({ queryKey: [drawResultsPath(month)] });
}

/** The postal address, one line per line as it goes on an envelope. */
export function PostalAddress() {
  const { address, isLoading } = usePostalEntryAddress();
  if (isLoading) return <p>Loading the postal address…</p>;
  if (!address) return <p>The postal address is not available right now; please try again later.</p>;
  return (
    <address
      className="whitespace-pre-line rounded border border-line p-3 not-italic text-ink"
      data-testid="postal-address"
    >
      {address}
    </address>
  );
}
