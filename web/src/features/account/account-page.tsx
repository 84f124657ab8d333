import { LOGOUT_PATH } from "@charity-steps/shared-types";
import { LogOut, UserRound } from "lucide-react";
import { Page } from "../../components/page";
import { useAuth } from "../auth/use-auth";

const memberSinceFormat = new Intl.DateTimeFormat("en-GB", {
  day: "numeric",
  month: "long",
  year: "numeric",
});

export function AccountPage() {
  const { user } = useAuth();
  if (!user) return null;
  const name = [user.firstName, user.lastName].filter(Boolean).join(" ") || "Walker";
  const createdAt = new Date(user.createdAt);

  return (
    <Page title="Account">
      <section className="card flex items-center gap-4 p-4" aria-label="Profile">
        {user.profileImageUrl ? (
          <img
            src={user.profileImageUrl}
            alt=""
            width={56}
            height={56}
            className="size-14 rounded-full object-cover"
          />
        ) : (
          <div className="flex size-14 items-center justify-center rounded-full bg-brand-soft">
            <UserRound aria-hidden="true" className="size-7 text-brand-strong" />
          </div>
        )}
        <div className="min-w-0">
          <p className="truncate text-lg font-semibold">{name}</p>
          {user.email && <p className="truncate text-muted">{user.email}</p>}
          {!Number.isNaN(createdAt.getTime()) && (
            <p className="text-sm text-muted">Beta member since {memberSinceFormat.format(createdAt)}</p>
          )}
        </div>
      </section>
      <p className="mt-4 text-muted">More account details are coming soon in the beta.</p>
      <a href={LOGOUT_PATH} className="btn-secondary mt-6 w-full">
        <LogOut aria-hidden="true" className="size-4" />
        Sign Out
      </a>
    </Page>
  );
}
