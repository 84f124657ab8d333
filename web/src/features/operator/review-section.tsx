import type { UseQueryResult } from "@tanstack/react-query";
import type { LucideIcon } from "lucide-react";
import { type ReactNode, useEffect, useId, useRef, useState } from "react";
import { serverMessage } from "../../lib/api-client";

/**
 * A list of what waits for a check, in its card: a heading, a line on what the list holds, and
 * while the list loads, cannot be loaded or is empty, a line that says so. A decision takes its card
 * out of the list, so the focus goes to the heading rather than being lost with it: `list` draws
 * the list given what each card calls once decided. `after` follows the list whatever it holds (its
 * pages).
 */
export function ReviewSection<Data>({
  icon: Icon,
  title,
  intro,
  query,
  notLoaded,
  isEmpty,
  empty,
  list,
  after,
}: {
  icon: LucideIcon;
  title: string;
  intro: string;
  query: UseQueryResult<Data>;
  notLoaded: string;
  isEmpty: (data: Data) => boolean;
  empty: string;
  list: (data: Data, onDecided: () => void) => ReactNode;
  after?: ReactNode;
}) {
  const ids = { title: useId() };
  const titleRef = useRef<HTMLHeadingElement>(null);
  const [focusTitle, setFocusTitle] = useState(0);
  useEffect(() => {
    if (focusTitle > 0) titleRef.current?.focus();
  }, [focusTitle]);

  return (
    <section className="card mt-4 space-y-3 p-4" aria-labelledby={ids.title}>
      <h2
        ref={titleRef}
        tabIndex={-1}
        id={ids.title}
        className="review-title flex items-center gap-2 text-lg font-semibold"
      >
        <Icon aria-hidden="true" className="size-5 text-brand-strong" />
        {title}
      </h2>
      <p className="text-sm text-muted">{intro}</p>
      {query.isPending ? (
        <p className="text-sm text-muted">Loading…</p>
      ) : query.isError ? (
        <p role="alert" className="text-sm text-destructive">
          {serverMessage(query.error, notLoaded)}
        </p>
      ) : isEmpty(query.data) ? (
        <p className="text-sm text-muted">{empty}</p>
      ) : (
        list(query.data, () => setFocusTitle((n) => n + 1))
      )}
      {after}
    </section>
  );
}
