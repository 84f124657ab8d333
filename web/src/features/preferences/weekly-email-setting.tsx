import { Mail } from "lucide-react";
import { useState } from "react";
import { useAuth } from "../../lib/use-auth";
import { useChangePreferences, usePreferences } from "./use-preferences";

/** The Account page's switch for Monday's look back on the week by email. */
export function WeeklyEmailSetting() {
  const { user } = useAuth();
  const preferences = usePreferences();
  const { change } = useChangePreferences();
  // Shown at once, before the server has answered.
  const [picked, setPicked] = useState<boolean | null>(null);
  const on = picked ?? preferences.data?.weeklyEmail ?? true;
  return (
    <section className="card mt-4 space-y-2 p-4" aria-labelledby="weekly-email-title">
      <h2 id="weekly-email-title" className="flex items-center gap-2 text-lg font-semibold">
        <Mail aria-hidden="true" className="size-5 text-brand-strong" />
        Weekly email
      </h2>
      <label className="flex min-h-11 cursor-pointer items-start gap-3">
        <input
          type="checkbox"
          className="mt-1 size-5 shrink-0 accent-[var(--color-brand-strong)]"
          checked={on}
          disabled={preferences.isPending}
          onChange={(event) => {
            const weeklyEmail = event.target.checked;
            setPicked(weeklyEmail);
            change({ weeklyEmail }, { onSettled: () => setPicked(null) });
          }}
        />
        <span>
          <span className="block font-semibold">Email me a look back on my week, once it ends</span>
          <span className="block text-sm text-muted">
            Your steps, days on goal and best day. Every email has a one-click link to stop it.
          </span>
        </span>
      </label>
      {user && !user.emailVerified && (
        <p className="text-sm text-muted" data-testid="weekly-email-unconfirmed">
          It is sent once your email is confirmed.
        </p>
      )}
    </section>
  );
}
