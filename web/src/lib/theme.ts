import { DEFAULT_THEME, THEMES, type Theme } from "@charity-steps/shared-types";

/** The walker's last theme on this device, so the first paint before they are known uses it. */
const THEME_KEY = "charity-steps:theme";
const DARK_QUERY = "(prefers-color-scheme: dark)";

/** What a choice looks like on a device that prefers dark or not. */
export function resolvedTheme(choice: Theme, prefersDark: boolean): "light" | "dark" {
  if (choice === "system") return prefersDark ? "dark" : "light";
  return choice;
}

export function storedTheme(): Theme {
  try {
    const saved = localStorage.getItem(THEME_KEY);
    return THEMES.includes(saved as Theme) ? (saved as Theme) : DEFAULT_THEME;
  } catch {
    return DEFAULT_THEME;
  }
}

/**
 * Shows `choice` (sets `data-theme` on <html> to light or dark, which styles.css reads) and keeps it
 * for the next visit. With "system" it follows the device as it changes. Answers a stop.
 */
export function applyTheme(choice: Theme): () => void {
  try {
    localStorage.setItem(THEME_KEY, choice);
  } catch {
    // Storage refused: the next visit paints in the device's theme until the walker is known.
  }
  const media = typeof window.matchMedia === "function" ? window.matchMedia(DARK_QUERY) : null;
  const show = () => {
    document.documentElement.dataset.theme = resolvedTheme(choice, media?.matches ?? false);
  };
  show();
  if (choice !== "system" || !media) return () => {};
  media.addEventListener("change", show);
  return () => media.removeEventListener("change", show);
}
