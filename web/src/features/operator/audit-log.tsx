import type { AuditLogEntry } from "@charity-steps/shared-types";
import { useInfiniteQuery } from "@tanstack/react-query";
import { ScrollText } from "lucide-react";
import { useId } from "react";
import { londonDayAndTime } from "../../lib/london-time";
import { auditLogQuery } from "./operator-queries";

function asJson(value: unknown): string {
  return value === null || value === undefined ? "(none)" : JSON.stringify(value, null, 2);
}

/** Every operator action, newest first: who, when, what, and the subject before and after. */
export function AuditLog() {
  const ids = { title: useId() };
  const log = useInfiniteQuery(auditLogQuery);
  const entries = log.data?.pages.flatMap((page) => page.entries) ?? [];

  return (
    <section className="card mt-4 space-y-3 p-4" aria-labelledby={ids.title}>
      <h2 id={ids.title} className="flex items-center gap-2 text-lg font-semibold">
        <ScrollText aria-hidden="true" className="size-5 text-brand-strong" />
        Audit log
      </h2>
      <p className="text-sm text-muted">Every operator action is kept here, and can never be changed.</p>
      {log.isLoading ? (
        <p className="text-sm text-muted">Loading…</p>
      ) : log.isError ? (
        <p role="alert" className="text-sm text-destructive">
          The audit log could not be loaded.
        </p>
      ) : entries.length === 0 ? (
        <p className="text-sm text-muted">No operator actions yet.</p>
      ) : (
        <ol className="divide-y divide-line" aria-label="Operator actions, newest first">
          {entries.map((entry) => (
            <AuditLogItem key={entry.id} entry={entry} />
          ))}
        </ol>
      )}
      {log.hasNextPage && (
        <button
          type="button"
          className="btn-secondary"
          disabled={log.isFetchingNextPage}
          onClick={() => void log.fetchNextPage()}
        >
          {log.isFetchingNextPage ? "Loading…" : "Load older"}
        </button>
      )}
    </section>
  );
}

function AuditLogItem({ entry }: { entry: AuditLogEntry }) {
  return (
    <li className="py-2 text-sm">
      <p className="font-medium">
        {entry.action} <span className="font-normal text-muted">on {entry.subject}</span>
      </p>
      <p className="text-muted">
        {entry.operatorEmail ?? entry.operatorUserId ?? "unknown operator"} ·{" "}
        <time dateTime={entry.at}>{londonDayAndTime(entry.at)}</time>
      </p>
      <details className="mt-1">
        <summary className="cursor-pointer text-muted">Before and after</summary>
        {/* On a phone the one column is as wide as its widest item's longest word (a postal entry's
            name with no spaces, say) unless the items may be narrower than that. */}
        <div className="mt-1 grid gap-2 sm:grid-cols-2">
          <div className="min-w-0">
            <p className="text-xs font-semibold uppercase text-muted">Before</p>
            <pre className="overflow-x-auto whitespace-pre-wrap break-words rounded bg-page p-2 text-xs">
              {asJson(entry.before)}
            </pre>
          </div>
          <div className="min-w-0">
            <p className="text-xs font-semibold uppercase text-muted">After</p>
            <pre className="overflow-x-auto whitespace-pre-wrap break-words rounded bg-page p-2 text-xs">
              {asJson(entry.after)}
            </pre>
          </div>
        </div>
      </details>
    </li>
  );
}
