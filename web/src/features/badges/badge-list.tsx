import { formatDay, londonDay } from "@charity-steps/shared-types";
import { Award, Lock } from "lucide-react";

import { useBadges } from "./use-badges";

/** The Account page's badges: those earned first, with the day, then those still to earn. */
export function BadgeList() {
  const badges = useBadges();
  const items = badges.data?.items ?? [];
  const earned = items.filter((badge) => badge.earnedAt !== null);
  const toEarn = items.filter((badge) => badge.earnedAt === null);
  return (
    <section className="card mt-4 space-y-3 p-4" aria-labelledby="badges-title">
      <h2 id="badges-title" className="flex items-center gap-2 text-lg font-semibold">
        <Award aria-hidden="true" className="size-5 text-brand-strong" />
        Badges
      </h2>
      {badges.isPending ? (
        <p className="text-sm text-muted">Loading your badges…</p>
      ) : badges.isError ? (
        <p className="text-sm text-muted">
          Your badges could not be loaded. They will show when you are online.
        </p>
      ) : (
        <>
          <p className="text-sm text-muted" data-testid="badges-count">
            {earned.length === 0
              ? "No badges yet: your first comes with your first 10,000-step day."
              : `${earned.length} of ${items.length} earned.`}
          </p>
          <ul className="grid gap-2 sm:grid-cols-2">
            {[...earned, ...toEarn].map((badge) => {
              const earnedOn =
                badge.earnedAt === null ? null : formatDay(londonDay(new Date(badge.earnedAt)));
              return (
                <li
                  key={badge.id}
                  className={`flex items-start gap-3 rounded-lg border p-3 ${
                    earnedOn ? "border-brand-strong bg-brand-soft" : "border-line"
                  }`}
                  data-testid="badge"
                  data-earned={earnedOn ? "true" : "false"}
                >
                  {earnedOn ? (
                    <Award aria-hidden="true" className="mt-0.5 size-6 shrink-0 text-brand-strong" />
                  ) : (
                    <Lock aria-hidden="true" className="mt-0.5 size-5 shrink-0 text-muted" />
                  )}
                  <div className="min-w-0">
                    <p className="font-semibold [overflow-wrap:break-word]">{badge.name}</p>
                    <p className="text-sm text-muted">
                      {!earnedOn && <span className="sr-only">Not earned yet: </span>}
                      {badge.description}
                    </p>
                    {earnedOn && <p className="text-sm font-semibold text-brand-strong">Earned {earnedOn}</p>}
                  </div>
                </li>
              );
            })}
          </ul>
        </>
      )}
    </section>
  );
}
