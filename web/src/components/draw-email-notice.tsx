import type { AuthUser } from "@charity-steps/shared-types";
import { Link } from "react-router-dom";
import { paths } from "../lib/paths";

/** What a walker whose email is not confirmed is told where their prize entries show. */
export const DRAW_NEEDS_CONFIRMED_EMAIL = "Only walkers with a confirmed email are in the prize draw.";

/**
 * Tells a walker whose email is not confirmed that their entries do not count in the draw until it
 * is, and how to confirm it: the draw gives tickets only to confirmed addresses, so that a winner
 * can be reached. Shows nothing for a confirmed walker (or while nobody is known).
 */
export function DrawEmailNotice({ user, className = "" }: { user: AuthUser | null; className?: string }) {
  if (!user || user.emailVerified) return null;
  return (
    <p
      className={`text-sm text-notice-ink [overflow-wrap:anywhere] ${className}`}
      data-testid="draw-email-notice"
    >
      {DRAW_NEEDS_CONFIRMED_EMAIL}{" "}
      {user.accountKind === "built-in" ? (
        <>
          Follow the link we sent to {user.email ?? "your email"}, or send it again from{" "}
          <Link to={paths.account} className="font-semibold underline">
            Account
          </Link>
          .
        </>
      ) : (
        "Confirm your email with the service you sign in with."
      )}
    </p>
  );
}
