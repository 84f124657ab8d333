import {
  CHARITY_IMPACT_PATH,
  type CharityImpactResponse,
  charityImpactText,
} from "@charity-steps/shared-types";
import { takeAccountDeleted } from "../../lib/account-deleted";
import { rememberUser } from "../../lib/last-user";
import { applyTheme, storedTheme } from "../../lib/theme";

/**
 * The script of the landing page the server sends to a browser with no session. The page arrives
 * drawn (the app's own components, rendered when the app is built), so this does only what depends
 * on the visitor and the month: the theme this device last showed, the word that an account was
 * just deleted, and each charity's walkers and steps. The app itself loads when the visitor signs
 * in, or opens any other page; its service worker is installed from here, as from any of the app's
 * pages, so that the app opens with no signal from then on.
 */
export async function startLandingPage(page: Document = document): Promise<void> {
  applyTheme(storedTheme());
  // The server sends this page only when the browser holds no session: nobody is signed in here
  // now, so the app must not open offline for whoever was.
  rememberUser(null);
  if (takeAccountDeleted()) page.querySelector("[data-testid=account-deleted]")?.removeAttribute("hidden");
  installServiceWorker();
  await showCharityImpact(page);
}

/** The worker the app's build writes (vite-plugin-pwa), registered as the app registers it. */
const SERVICE_WORKER_URL = "/sw.js";

/** Once the page has loaded, so that its precaching does not compete with the page's own requests. */
function installServiceWorker(): void {
  if (!("serviceWorker" in navigator)) return;
  const register = () =>
    navigator.serviceWorker
      .register(SERVICE_WORKER_URL, { scope: "/", type: "classic" })
      .catch((error: unknown) => console.error("Service worker registration failed", error));
  if (document.readyState === "complete") void register();
  else window.addEventListener("load", () => void register(), { once: true });
}

async function showCharityImpact(page: Document): Promise<void> {
  let impact: CharityImpactResponse;
  try {
    const response = await fetch(CHARITY_IMPACT_PATH, { credentials: "same-origin" });
    if (!response.ok) return;
    impact = (await response.json()) as CharityImpactResponse;
  } catch {
    // No signal, or no answer: the charities are shown without this month's numbers, as in the app.
    return;
  }
  for (const line of page.querySelectorAll<HTMLElement>("[data-charity-impact-for]")) {
    const item = impact.items.find((candidate) => candidate.charityName === line.dataset.charityImpactFor);
    if (!item) continue;
    line.textContent = charityImpactText(item);
    line.dataset.testid = "charity-impact";
    line.hidden = false;
  }
}
