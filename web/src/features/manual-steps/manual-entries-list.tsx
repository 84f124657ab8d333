import type { ManualEntry, ManualEntryList } from "@charity-steps/shared-types";
import { useQuery } from "@tanstack/react-query";
import { CircleCheck, CircleSlash, Clock } from "lucide-react";
import { useId, useState } from "react";
import { DayStepsLine } from "./day-steps-line";
import { entryStatusWords, MANUAL_ENTRIES_KEY } from "./fair-play-words";

/** How many entries show before "Show all": the latest ones are the ones a walker looks for. */
const SHOWN_AT_FIRST = 5;

const STATUS_ICONS = {
  approved: CircleCheck,
  pending: Clock,
  rejected: CircleSlash,
} as const;

/**
 * The walker's steps added by hand, newest first, each with where it stands for prize entries:
 * counted, waiting for a quick check (and why), or not counted (with the operator's reason). Every
 * entry still counts on the walker's totals; only prize entries wait.
 */
export function ManualEntriesList() {
  const ids = { title: useId(), list: useId() };
  const entries = useQuery<ManualEntryList | null>({ queryKey: MANUAL_ENTRIES_KEY });
  const [showAll, setShowAll] = useState(false);
  const all = entries.data?.entries ?? [];
  // Nothing to say until the walker has added steps by hand (or while the list is on its way).
  if (entries.isPending || (!entries.isError && all.length === 0)) return null;
  const shown = showAll ? all : all.slice(0, SHOWN_AT_FIRST);

  return (
    <section className="card space-y-3 p-4" aria-labelledby={ids.title}>
      <h2 id={ids.title} className="text-lg font-semibold">
        Your manual entries
      </h2>
      {entries.isError ? (
        <p className="text-sm text-muted" role="status">
          Your manual entries could not be loaded just now.
        </p>
      ) : (
        <>
          <p className="text-sm text-muted">
            Every entry counts toward your steps. An entry waiting for a quick check counts toward prize
            entries once it has been checked.
          </p>
          <ul id={ids.list} className="divide-y divide-line" aria-labelledby={ids.title}>
            {shown.map((entry) => (
              <ManualEntryItem key={entry.id} entry={entry} />
            ))}
          </ul>
          {all.length > SHOWN_AT_FIRST && (
            <button
              type="button"
              className="btn-secondary"
              aria-expanded={showAll}
              aria-controls={ids.list}
              onClick={() => setShowAll((open) => !open)}
            >
              {showAll ? "Show the latest only" : `Show all ${all.length} entries`}
            </button>
          )}
        </>
      )}
    </section>
  );
}

function ManualEntryItem({ entry }: { entry: ManualEntry }) {
  const { label, details } = entryStatusWords(entry);
  const Icon = STATUS_ICONS[entry.status];
  return (
    <li className="py-2 text-sm" data-testid="manual-entry">
      <DayStepsLine date={entry.date} steps={entry.steps} />
      {entry.note && <p className="text-muted">Note: {entry.note}</p>}
      <p className="mt-1 flex items-start gap-1.5" data-status={entry.status}>
        <Icon aria-hidden="true" className="mt-0.5 size-4 shrink-0 text-brand-strong" />
        <span>{label}</span>
      </p>
      {details.length > 0 && (
        <ul className="ml-6 list-disc text-muted">
          {details.map((detail) => (
            <li key={detail}>{detail}</li>
          ))}
        </ul>
      )}
    </li>
  );
}
