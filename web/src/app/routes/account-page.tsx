import {
  FREE_TRIAL_DAYS,
  FUTURE_MONTHLY_PRICE_PENCE,
  firstCharacter,
  formatPounds,
  LOGOUT_PATH,
  londonLongDate,
  nameInitials,
} from "@charity-steps/shared-types";
import { BadgeCheck, HeartPulse, LogOut, Rocket } from "lucide-react";
import { Link } from "react-router-dom";
import { Page } from "../../components/page";
import { AccountSecurity } from "../../features/account/account-security";
import { SignedInDevices } from "../../features/account/signed-in-devices";
import { YourData } from "../../features/account/your-data";
import { StepImportKeys } from "../../features/apple-health/step-import-keys";
import { BadgeList } from "../../features/badges/badge-list";
import { NotificationSettings } from "../../features/notifications/notification-settings";
import { DailyGoalSettings } from "../../features/preferences/daily-goal-settings";
import { ThemeSettings } from "../../features/preferences/theme-settings";
import { WeeklyEmailSetting } from "../../features/preferences/weekly-email-setting";
import { paths } from "../../lib/paths";
import { REVENUE_SPLIT } from "../../lib/pricing";
import { useAuth } from "../../lib/use-auth";

/**
 * The walker's profile, security, devices, Apple Health step-import keys and data. It gathers the
 * account and Apple Health features, so it lives in app/: features never import each other.
 */
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
            className="size-14 shrink-0 rounded-full object-cover"
          />
        ) : (
          <div
            className="flex size-14 shrink-0 items-center justify-center rounded-full bg-brand-soft text-lg font-bold text-brand-strong"
            aria-hidden="true"
          >
            {initials(user.firstName, user.lastName, user.email)}
          </div>
        )}
        <div className="min-w-0">
          <p className="[overflow-wrap:break-word] text-lg font-semibold">{name}</p>
          {user.email && <p className="[overflow-wrap:break-word] text-muted">{user.email}</p>}
          {!Number.isNaN(createdAt.getTime()) && (
            <p className="text-sm text-muted">Beta member since {londonLongDate(createdAt)}</p>
          )}
        </div>
      </section>
      <DailyGoalSettings />
      <BadgeList />
      <ThemeSettings />
      <WeeklyEmailSetting />
      <NotificationSettings />
      <AccountSecurity />
      <div className="mt-4">
        <SignedInDevices />
      </div>
      <section className="card mt-4 space-y-2 p-4" aria-labelledby="beta-status-title">
        <h2 id="beta-status-title" className="text-lg font-semibold">
          Beta Access Status
        </h2>
        <p className="flex items-center gap-2 font-medium">
          <BadgeCheck aria-hidden="true" className="size-5 text-brand-strong" />
          Active Beta Tester
          <span className="rounded-full bg-brand-soft px-2 py-0.5 text-xs font-semibold text-brand-strong">
            Free Beta
          </span>
        </p>
        <ul className="list-disc space-y-1 pl-5 text-sm text-muted">
          <li>Track your steps and monthly progress</li>
          <li>Choose the charity you walk for</li>
          <li>Earn monthly prize-draw entries</li>
          <li>Create and join walking groups and compete</li>
          <li>Test every feature before the launch</li>
        </ul>
      </section>
      <section className="card mt-4 space-y-2 p-4" aria-labelledby="launch-title">
        <h2 id="launch-title" className="flex items-center gap-2 text-lg font-semibold">
          <Rocket aria-hidden="true" className="size-5 text-brand-strong" />
          Coming Soon: App Store Launch
        </h2>
        <p>
          <span className="text-2xl font-bold">{formatPounds(FUTURE_MONTHLY_PRICE_PENCE)}</span>
          <span className="text-muted">/month</span> · {FREE_TRIAL_DAYS}-day free trial
        </p>
        <ul className="space-y-1 text-sm text-muted">
          {REVENUE_SPLIT.map(({ share, percent, pence, label }) => (
            <li key={share}>
              {percent}% ({formatPounds(pence)}) {label}
            </li>
          ))}
        </ul>
        <p className="text-sm text-muted">Nothing is charged during the beta.</p>
      </section>
      <section className="card mt-4 space-y-3 p-4" aria-labelledby="step-import-keys-title">
        <h2 id="step-import-keys-title" className="flex items-center gap-2 text-lg font-semibold">
          <HeartPulse aria-hidden="true" className="size-5 text-brand-strong" />
          Apple Health step-import keys
        </h2>
        <p className="text-sm text-muted">
          A key lets the Shortcuts app on your iPhone send Apple Health's steps to your account.{" "}
          <Link className="link" to={paths.appleHealth}>
            How to set up Apple Health
          </Link>
        </p>
        <StepImportKeys />
      </section>
      <div className="mt-4">
        <YourData />
      </div>
      {user.isOperator && (
        <Link to={paths.operator} className="btn-secondary mt-4 w-full">
          Operator console
        </Link>
      )}
      <a href={LOGOUT_PATH} className="btn-secondary mt-6 w-full">
        <LogOut aria-hidden="true" className="size-4" />
        Sign Out
      </a>
    </Page>
  );
}

function initials(firstName: string | null, lastName: string | null, email: string | null): string {
  return nameInitials(firstName, lastName) || firstCharacter(email ?? "").toUpperCase() || "?";
}
