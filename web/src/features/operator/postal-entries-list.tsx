import { useQuery } from "@tanstack/react-query";
import { AlertTriangle, Inbox } from "lucide-react";
import { useId } from "react";
import { postalEntriesQuery } from "./operator-queries";

/** A month's postal entries, likely duplicates marked with the entry they resemble. */
export function PostalEntriesList({ month, onMonth }: { month: string; onMonth: (month: string) => void }) {
  const ids = { title: useId(), month: useId() };
  const entries = useQuery(postalEntriesQuery(month));
  const list = entries.data?.entries ?? [];
  const numbers = new Map(list.map((entry, index) => [entry.id, index + 1]));

  return (
    <section className="card mt-4 space-y-3 p-4" aria-labelledby={ids.title}>
      <h2 id={ids.title} className="flex items-center gap-2 text-lg font-semibold">
        <Inbox aria-hidden="true" className="size-5 text-brand-strong" />
        Postal entries
      </h2>
      <label htmlFor={ids.month} className="block text-sm font-medium">
        Month
        <input
          id={ids.month}
          type="month"
          className="field ml-2 w-auto"
          value={month}
          onChange={(event) => event.target.value && onMonth(event.target.value)}
        />
      </label>
      {entries.isLoading ? (
        <p className="text-sm text-muted">Loading…</p>
      ) : entries.isError ? (
        <p role="alert" className="text-sm text-destructive">
          The entries could not be loaded.
        </p>
      ) : list.length === 0 ? (
        <p className="text-sm text-muted">No postal entries recorded for {month}.</p>
      ) : (
        <ol className="divide-y divide-line" aria-label={`Postal entries for ${month}`}>
          {list.map((entry, index) => (
            <li key={entry.id} className="py-2 text-sm">
              <p className="flex flex-wrap items-center gap-2 font-medium">
                <span className="text-muted">#{index + 1}</span>
                <span className="breaks-anywhere">{entry.fullName}</span>
                <span className="text-muted">received {entry.receivedOn}</span>
                {entry.possibleDuplicate && (
                  <span className="inline-flex items-center gap-1 rounded-full bg-notice-soft px-2 py-0.5 text-xs font-semibold text-notice-ink">
                    <AlertTriangle aria-hidden="true" className="size-3" />
                    Possible duplicate
                    {entry.duplicateOf && numbers.has(entry.duplicateOf)
                      ? ` of #${numbers.get(entry.duplicateOf)}`
                      : ""}
                  </span>
                )}
              </p>
              <p className="whitespace-pre-line text-muted">{entry.address}</p>
              {entry.email && <p className="text-muted">{entry.email}</p>}
            </li>
          ))}
        </ol>
      )}
      {entries.data?.truncated && (
        <p className="text-sm text-muted">Only the first {list.length} entries are shown.</p>
      )}
    </section>
  );
}
