import { ChevronDown } from "lucide-react";
import type { ReactNode } from "react";

/** A section the walker opens and closes, built on <details>. */
export function CollapsibleSection({
  title,
  defaultOpen = false,
  children,
}: {
  title: string;
  defaultOpen?: boolean;
  children: ReactNode;
}) {
  return (
    <details className="card group p-0" open={defaultOpen}>
      <summary className="flex cursor-pointer list-none items-center justify-between gap-2 p-4 text-lg font-semibold">
        {title}
        <ChevronDown
          aria-hidden="true"
          className="size-5 text-muted transition-transform group-open:rotate-180 motion-reduce:transition-none"
        />
      </summary>
      <div className="space-y-3 px-4 pb-4 text-muted">{children}</div>
    </details>
  );
}
