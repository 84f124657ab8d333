import { render, screen } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { afterEach, describe, expect, it, vi } from "vitest";
import { InstallOffer } from "../../../src/features/install/install-offer";
import {
  INSTALL_OFFER_EVERY_MS,
  type InstallPromptEvent,
  isIosSafari,
  listenForInstallOffer,
  PAGE_LOADED_AT,
  shouldOfferInstall,
  useInstallStore,
} from "../../../src/lib/install-prompt";

const IPHONE_SAFARI =
  "Mozilla/5.0 (iPhone; CPU iPhone OS 17_4 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.4 Mobile/15E148 Safari/604.1";
const IPHONE_CHROME =
  "Mozilla/5.0 (iPhone; CPU iPhone OS 17_4 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) CriOS/122.0 Mobile/15E148 Safari/604.1";
const ANDROID_CHROME =
  "Mozilla/5.0 (Linux; Android 14; Pixel 8) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/122.0 Mobile Safari/537.36";

/** The browser's install offer, as Chromium fires it. */
function browserOffer(outcome: "accepted" | "dismissed" = "accepted") {
  const event = new Event("beforeinstallprompt", { cancelable: true }) as InstallPromptEvent;
  const prompt = vi.fn(async () => {});
  Object.assign(event, { prompt, userChoice: Promise.resolve({ outcome }) });
  return { event, prompt };
}

/** A device that first opened the app a day ago, never offered the install. */
function returningDevice() {
  localStorage.setItem("charity-steps:first-visit", String(PAGE_LOADED_AT - 86_400_000));
}

describe("offering to install", () => {
  afterEach(() => useInstallStore.setState({ offer: null, installed: false }));

  it("waits for steps, a second visit, and a week since the last offer", () => {
    const now = 1_000_000_000_000;
    const base = { firstVisitAt: now - 86_400_000, lastOfferedAt: null, hasSteps: true, thisLoadAt: now };
    expect(shouldOfferInstall(base, now)).toBe(true);
    expect(shouldOfferInstall({ ...base, hasSteps: false }, now)).toBe(false);
    // The first visit: this very load is the first the device has seen.
    expect(shouldOfferInstall({ ...base, firstVisitAt: now }, now)).toBe(false);
    expect(shouldOfferInstall({ ...base, lastOfferedAt: now - INSTALL_OFFER_EVERY_MS + 1 }, now)).toBe(false);
    expect(shouldOfferInstall({ ...base, lastOfferedAt: now - INSTALL_OFFER_EVERY_MS }, now)).toBe(true);
  });

  it("knows Safari on an iPhone from other browsers there", () => {
    expect(isIosSafari(IPHONE_SAFARI)).toBe(true);
    expect(isIosSafari(IPHONE_CHROME)).toBe(false);
    expect(isIosSafari(ANDROID_CHROME)).toBe(false);
  });

  it("holds back the browser's offer and makes it from the dashboard's card, once a week", async () => {
    returningDevice();
    listenForInstallOffer(window);
    const { event, prompt } = browserOffer();
    window.dispatchEvent(event);
    expect(event.defaultPrevented).toBe(true);

    const user = userEvent.setup();
    const first = render(<InstallOffer hasSteps />);
    expect(screen.getByRole("heading", { name: "Install Charity Steps" })).toBeTruthy();
    expect(Number(localStorage.getItem("charity-steps:install-offered"))).toBeGreaterThan(0);
    await user.click(screen.getByRole("button", { name: "Install" }));
    expect(prompt).toHaveBeenCalledOnce();
    expect(screen.queryByRole("heading", { name: "Install Charity Steps" })).toBeNull();
    first.unmount();

    // Offered today: not again this week, even with a new offer from the browser.
    window.dispatchEvent(browserOffer().event);
    render(<InstallOffer hasSteps />);
    expect(screen.queryByRole("heading", { name: "Install Charity Steps" })).toBeNull();
  });

  it("offers nothing to a walker without steps yet, or on the device's first visit", () => {
    useInstallStore.setState({ offer: browserOffer().event });
    const noSteps = render(<InstallOffer hasSteps={false} />);
    expect(noSteps.container.textContent).toBe("");
    noSteps.unmount();
    // No earlier visit recorded: this load is the first.
    const firstVisit = render(<InstallOffer hasSteps />);
    expect(firstVisit.container.textContent).toBe("");
  });

  it("shows Safari on an iPhone how to add the app to the home screen", () => {
    returningDevice();
    vi.spyOn(navigator, "userAgent", "get").mockReturnValue(IPHONE_SAFARI);
    render(<InstallOffer hasSteps />);
    const guide = screen.getByTestId("ios-install-guide");
    expect(guide.textContent).toContain("Share at the bottom of Safari");
    expect(guide.textContent).toContain("Add to Home Screen, then Add");
    expect(screen.getByRole("button", { name: "Got it" })).toBeTruthy();
  });
});
