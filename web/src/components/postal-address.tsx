import { DRAW_RULES_PATH, type DrawRulesResponse } from "@charity-steps/shared-types";
import { useQuery } from "@tanstack/react-query";

/** The draw's rules as the server was told them: the postal address among them. */
export function useDrawRules() {
  return useQuery<DrawRulesResponse | null>({ queryKey: [DRAW_RULES_PATH] });
}

/** The postal address, one line per line as it goes on an envelope, as the server was told it. */
export function PostalAddress() {
  const rules = useDrawRules();
  const address = rules.data?.postalEntryAddress ?? null;
  if (rules.isLoading) return <p>Loading the postal address…</p>;
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
