import type { AuthUser } from "@charity-steps/shared-types";
import { useQuery } from "@tanstack/react-query";
import { Link } from "react-router-dom";
import { paths } from "../lib/paths";
import { authUserQuery } from "../lib/use-auth";

/** Why a walker whose email is not confirmed has no ticket, where their prize entries show. */
export const DRAW_NEEDS_CONFIRMED_EMAIL = "Only walkers with a confirmed email are in the prize draw.";

/** What such a walker is asked to do, in a line of its own beside their entries. */
export const CONFIRM_EMAIL_FOR_DRAW = "Confirm your email to be in the draw";

/**
 * The signed-in walker while their email is not confirmed, else null. Until it is, who is signed in
 * is asked again whenever they come back to the page: the mailed link is usually followed in
 * another tab or on another device, and the draw's notice must not outlive it.
 */
export function useUnconfirmedWalker(): AuthUser | null {
  const { data: user } = useQuery({
    ...authUserQuery,
    refetchOnWindowFocus: (query) => (query.state.data?.emailVerified === false ? "always" : false),
  });
  return user && !user.emailVerified ? user : null;
}

/**
 * Tells a walker whose email is not confirmed that their entries do not count in the draw until it
 * is, and how to confirm it: the draw gives tickets only to confirmed addresses, so that a winner
 * can be reached. Shows nothing for a confirmed walker (or while nobody is known).
 */
export function DrawEmailNotice({ className = "" }: { className?: string }) {
  const user = useUnconfirmedWalker();
  if (!user) return null;
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
        // Another service's confirmation reaches Charity Steps when the walker next signs in here.
        "Confirm your email with the service you sign in with, then sign out and sign in here again."
      )}
    </p>
  );
}
