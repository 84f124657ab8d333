import { THEMES, type Theme } from "@charity-steps/shared-types";
import { Moon } from "lucide-react";
import { useEffect, useState } from "react";
import { applyTheme } from "../../lib/theme";
import { useAuth } from "../../lib/use-auth";
import { useChangePreferences } from "./use-preferences";

const LABELS: Record<Theme, { name: string; hint: string }> = {
  system: { name: "As this device", hint: "Light or dark, as the device is set" },
  light: { name: "Light", hint: "Always light" },
  dark: { name: "Dark", hint: "Always dark" },
};

/** The Account page's choice of light, dark, or the device's theme: saved, and shown, at once. */
export function ThemeSettings() {
  const { user } = useAuth();
  const { change } = useChangePreferences();
  // Shown at once, before the server has answered; the saved choice takes over when it does.
  const [picked, setPicked] = useState<Theme | null>(null);
  const chosen = picked ?? user?.theme ?? "system";
  useEffect(() => {
    if (picked !== null) return applyTheme(picked);
  }, [picked]);
  return (
    <section className="card mt-4 p-4" aria-labelledby="theme-title">
      <fieldset>
        <legend id="theme-title" className="flex items-center gap-2 text-lg font-semibold">
          <Moon aria-hidden="true" className="size-5 text-brand-strong" />
          Appearance
        </legend>
        <div className="mt-3 grid gap-2 sm:grid-cols-3">
          {THEMES.map((theme) => (
            <label
              key={theme}
              className={`flex min-h-11 cursor-pointer items-start gap-2 rounded-lg border p-3 ${
                chosen === theme ? "border-brand-strong bg-brand-soft" : "border-line"
              }`}
            >
              <input
                type="radio"
                name="theme"
                value={theme}
                className="mt-1 accent-[var(--color-brand-strong)]"
                checked={chosen === theme}
                onChange={() => {
                  setPicked(theme);
                  change({ theme }, { onSettled: () => setPicked(null) });
                }}
              />
              <span>
                <span className="block font-semibold">{LABELS[theme].name}</span>
                <span className="block text-sm text-muted">{LABELS[theme].hint}</span>
              </span>
            </label>
          ))}
        </div>
      </fieldset>
    </section>
  );
}
