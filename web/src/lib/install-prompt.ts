import { create } from "zustand";

/** Chromium's `beforeinstallprompt` event: the browser's own install dialog, kept to show later. */
export interface InstallPromptEvent extends Event {
  prompt(): Promise<void>;
  userChoice: Promise<{ outcome: "accepted" | "dismissed" }>;
}

interface InstallState {
  /** The browser's install offer, once it has made one (Android and desktop Chromium). */
  offer: InstallPromptEvent | null;
  installed: boolean;
}

export const useInstallStore = create<InstallState>()(() => ({ offer: null, installed: false }));

/**
 * Listens for the browser's install offer from the start: it comes once, often before the app has
 * drawn anything. The browser's own mini-bar is held back; the app offers at a better moment.
 */
export function listenForInstallOffer(target: Window = window): void {
  firstVisitAt(PAGE_LOADED_AT);
  target.addEventListener("beforeinstallprompt", (event) => {
    event.preventDefault();
    useInstallStore.setState({ offer: event as InstallPromptEvent });
  });
  target.addEventListener("appinstalled", () => useInstallStore.setState({ offer: null, installed: true }));
}

/** The app runs installed (from the home screen), where there is nothing to offer. */
export function runsInstalled(): boolean {
  const standalone =
    typeof window.matchMedia === "function" && window.matchMedia("(display-mode: standalone)").matches;
  return standalone || (navigator as Navigator & { standalone?: boolean }).standalone === true;
}

/** Safari on an iPhone or iPad, which has no install offer: Add to Home Screen is done by hand. */
export function isIosSafari(userAgent: string = navigator.userAgent): boolean {
  const ios = /iPhone|iPad|iPod/.test(userAgent);
  const otherBrowser = /CriOS|FxiOS|EdgiOS|OPiOS|GSA\//.test(userAgent);
  return ios && /Safari\//.test(userAgent) && !otherBrowser;
}

/** When this page was loaded: a visit is a page load. */
export const PAGE_LOADED_AT = Date.now();

const VISITS_KEY = "charity-steps:first-visit";
const OFFERED_KEY = "charity-steps:install-offered";
/** The offer comes back at most this often. */
export const INSTALL_OFFER_EVERY_MS = 7 * 24 * 3_600_000;

/**
 * Whether to offer installing now: never on the device's first visit (the first time the app is
 * opened here is remembered, and a visit is a later page load), only once the walker has counted
 * steps, and at most once a week.
 */
export function shouldOfferInstall(
  state: { firstVisitAt: number | null; lastOfferedAt: number | null; hasSteps: boolean; thisLoadAt: number },
  now: number,
): boolean {
  if (!state.hasSteps) return false;
  if (state.firstVisitAt === null || state.firstVisitAt >= state.thisLoadAt) return false;
  return state.lastOfferedAt === null || now - state.lastOfferedAt >= INSTALL_OFFER_EVERY_MS;
}

/** When this device first opened the app: set on this load if never before. */
export function firstVisitAt(thisLoadAt: number): number {
  try {
    const saved = Number(localStorage.getItem(VISITS_KEY));
    if (Number.isFinite(saved) && saved > 0) return saved;
    localStorage.setItem(VISITS_KEY, String(thisLoadAt));
  } catch {
    // Storage refused: every visit looks like the first, and the offer never comes.
  }
  return thisLoadAt;
}

export function lastOfferedAt(): number | null {
  try {
    const saved = Number(localStorage.getItem(OFFERED_KEY));
    return Number.isFinite(saved) && saved > 0 ? saved : null;
  } catch {
    return null;
  }
}

export function rememberOffered(at: number): void {
  try {
    localStorage.setItem(OFFERED_KEY, String(at));
  } catch {
    // Storage refused: the offer may come again on the next visit.
  }
}
