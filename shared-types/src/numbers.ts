/**
 * Numbers as a person in the UK reads them: "12,345", "38.2". Written out rather than through
 * `Intl.NumberFormat` (or `toLocaleString`), which gives the same text: in a browser, the first use
 * of `Intl` in a page loads its locale data, a task long enough to hold up a phone's first screen,
 * and the landing page formats numbers but no dates. Tested against `Intl` for the same values.
 */

/** A count or amount in en-GB digits: grouped in threes with commas, at most three decimals. */
export function formatNumber(value: number): string {
  if (!Number.isFinite(value) || Math.abs(value) >= 1e21) return String(value);
  // Three decimals at most, as Intl's default; toFixed never uses an exponent below 1e21.
  const [whole = "0", fraction = ""] = Math.abs(value).toFixed(3).split(".");
  const decimals = fraction.replace(/0+$/, "");
  const grouped = whole.replace(/\B(?=(\d{3})+$)/g, ",");
  const sign = value < 0 && (whole !== "0" || decimals !== "") ? "-" : "";
  return `${sign}${grouped}${decimals ? `.${decimals}` : ""}`;
}

/** "1 ticket", "2 tickets", "12,000 steps": a count with its noun, singular for exactly one. */
export function countOf(count: number, singular: string, plural = `${singular}s`): string {
  return `${formatNumber(count)} ${count === 1 ? singular : plural}`;
}
