import { articleFor, formatMonth, londonLongDate } from "@charity-steps/shared-types";
import { Trophy } from "lucide-react";
import { Link } from "react-router-dom";
import { prizeClaimPagePath } from "./prize-format";
import { useMyPrizes } from "./prize-queries";

/**
 * Tells a walker they have a prize waiting to be claimed, with the way to claim it. Shows nothing
 * while their prizes load, when they cannot be loaded, and when none is waiting.
 */
export function PrizeBanner() {
  const prizes = useMyPrizes();
  const waiting = prizes.data?.prizes.filter((prize) => prize.status === "awaiting_claim") ?? [];
  if (waiting.length === 0) return null;
  return (
    <section className="card mb-4 space-y-3 border-brand bg-brand-soft p-4" aria-label="Prizes to claim">
      {waiting.map((prize) => (
        <div key={prize.id} className="flex flex-wrap items-center gap-3" data-testid="prize-banner">
          <Trophy aria-hidden="true" className="size-6 shrink-0 text-brand-strong" />
          <p className="min-w-48 flex-1 font-semibold">
            You won {articleFor(prize.tier)} {prize.tier} prize in the {formatMonth(prize.month)} draw! Claim
            it by {londonLongDate(prize.claimBy)}.
          </p>
          <Link to={prizeClaimPagePath(prize.id)} className="btn-primary">
            Claim your {prize.tier} prize
          </Link>
        </div>
      ))}
    </section>
  );
}
