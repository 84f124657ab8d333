/**
 * The app's looks. Kept apart from the preferences' schemas: the app's first screen reads these, and
 * a module that builds schemas cannot be left out of its bundle.
 */
export const THEMES = ["system", "light", "dark"] as const;
export type Theme = (typeof THEMES)[number];
export const DEFAULT_THEME: Theme = "system";
