import type { ReactNode } from "react";

/** The frame of an app screen: a readable column with the screen's one heading. */
export function Page({ title, back, children }: { title: string; back?: ReactNode; children?: ReactNode }) {
  return (
    <div className="mx-auto w-full max-w-3xl px-4 py-6">
      {back && <div className="mb-3">{back}</div>}
      <h1 className="mb-4 text-2xl font-bold tracking-tight">{title}</h1>
      {children}
    </div>
  );
}
