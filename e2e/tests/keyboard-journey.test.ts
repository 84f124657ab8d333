import { randomBytes } from "node:crypto";
import type { Browser, Locator, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type AppServer, startAppServer } from "../support/app-server.js";
import { launchChromium, phoneContext, screenshot } from "../support/chromium.js";
import { newSignedInWalker } from "../support/walker.js";

let server: AppServer;
let browser: Browser;
let page: Page;
/** Every element that took focus without a visible focus indicator, described. */
const unseenFocus: string[] = [];

beforeAll(async () => {
  [server, browser] = await Promise.all([startAppServer(), launchChromium()]);
  // A laptop with a keyboard and no mouse: nothing below is clicked or tapped.
  const context = await browser.newContext({ viewport: { width: 1024, height: 768 } });
  page = await context.newPage();
});
afterAll(async () => {
  await browser?.close();
  await server?.stop();
});

/** A real 2×2 PNG, as a file picker would hand over. */
const TINY_PNG = Buffer.from(
  "iVBORw0KGgoAAAANSUhEUgAAAAIAAAACCAIAAAD91JpzAAAACXBIWXMAAAPoAAAD6AG1e1JrAAAAEklEQVR4nGPgndLBO6WDAUIBAB6eBKUt+GUOAAAAAElFTkSuQmCC",
  "base64",
);

/**
 * Whether the focused element shows it: an outline or a ring on itself or, for a visually hidden
 * control (the photo's file input), on the box that stands for it.
 */
function focusShows(): Promise<{ shown: boolean; element: string }> {
  return page.evaluate(() => {
    const focused = document.activeElement;
    if (!focused || focused === document.body) return { shown: true, element: "body" };
    let shown: Element | null = focused;
    if (getComputedStyle(focused).clipPath === "inset(50%)") shown = focused.parentElement;
    const style = shown ? getComputedStyle(shown) : null;
    const visible =
      !!style &&
      ((style.outlineStyle !== "none" && Number.parseFloat(style.outlineWidth) > 0) ||
        style.boxShadow !== "none");
    return {
      shown: visible,
      element: `${location.pathname}: ${focused.outerHTML.slice(0, 160)}`,
    };
  });
}

/** Presses Tab (Shift+Tab with `backwards`) until `target` has focus, checking each stop shows focus. */
async function tabTo(target: Locator, { backwards = false, most = 80 } = {}): Promise<void> {
  for (let presses = 0; presses < most; presses++) {
    await page.keyboard.press(backwards ? "Shift+Tab" : "Tab");
    const { shown, element } = await focusShows();
    if (!shown) unseenFocus.push(element);
    if (await target.evaluate((element) => element === document.activeElement).catch(() => false)) return;
  }
  throw new Error(`${most} presses of Tab never reached ${target}`);
}

describe("the whole walker journey with the keyboard alone", () => {
  it("signs up from the landing page", async () => {
    await page.goto(`${server.origin}/`);
    const skip = page.getByRole("link", { name: "Skip to content" });
    await tabTo(skip);
    // The skip link appears when focused, and takes focus past the header.
    expect(await skip.isVisible()).toBe(true);
    await screenshot(page, "92-keyboard-skip-link", { fullPage: false });
    await tabTo(page.getByRole("link", { name: "Get Started", exact: true }));
    await page.keyboard.press("Enter");

    // Get Started opens the sign-up form itself.
    await page.getByRole("button", { name: "Create account" }).waitFor();
    const fields: [string, string][] = [
      ["First name", "Kay"],
      ["Last name", "Board"],
      ["Email", `kay.${randomBytes(4).toString("hex")}@example.org`],
      ["Password", "only-the-keyboard-2026"],
    ];
    for (const [label, value] of fields) {
      await tabTo(page.getByLabel(label));
      await page.keyboard.type(value);
    }
    await tabTo(page.getByRole("button", { name: "Create account" }));
    await page.keyboard.press("Enter");
    await page.getByRole("heading", { level: 1, name: "Welcome to Charity Steps" }).waitFor();
    await tabTo(page.getByRole("button", { name: "Skip" }));
    await page.keyboard.press("Enter");
    await page.getByRole("heading", { level: 1, name: "Dashboard" }).waitFor();
  });

  it("turns tracking on", async () => {
    await tabTo(page.getByRole("button", { name: "Enable" }));
    await page.keyboard.press("Enter");
    await page.getByText("Live", { exact: true }).waitFor();
  });

  it("adds steps by hand with a photo, and reaches the toast with F8", async () => {
    await tabTo(page.getByLabel("Steps", { exact: true }));
    await page.keyboard.type("4200");
    await tabTo(page.getByLabel("Photo proof"));
    await screenshot(page, "93-keyboard-photo-focus", { fullPage: false });
    // Space on the focused photo field opens the file chooser. On a busy run one press was once
    // lost (no chooser in 30 s): a walker would press again, and so does the test, once, with the
    // focus still on the field.
    const photoField = page.getByLabel("Photo proof");
    let chooser = await Promise.all([
      page.waitForEvent("filechooser", { timeout: 10_000 }).catch(() => null),
      page.keyboard.press("Space"),
    ]).then(([opened]) => opened);
    if (!chooser) {
      expect(await photoField.evaluate((element) => element === document.activeElement)).toBe(true);
      [chooser] = await Promise.all([page.waitForEvent("filechooser"), page.keyboard.press("Space")]);
    }
    await chooser.setFiles({ name: "proof.png", mimeType: "image/png", buffer: TINY_PNG });
    await page.getByText("proof.png").waitFor();
    await tabTo(page.getByRole("button", { name: "Add Steps" }));

    // What a screen reader hears: the toast's text in a live region as it appears.
    await page.evaluate(() => {
      const heard: string[] = [];
      Object.assign(window, { heard });
      new MutationObserver(() => {
        for (const region of Array.from(
          document.querySelectorAll('[aria-live="polite"], [aria-live="assertive"]'),
        )) {
          const text = region.textContent?.trim();
          if (text && !heard.includes(text)) heard.push(text);
        }
      }).observe(document.body, { subtree: true, childList: true, characterData: true });
    });
    await page.keyboard.press("Enter");
    const toast = page.locator("li.toast").filter({ hasText: "Steps Added Successfully" });
    await toast.waitFor();
    await expect
      .poll(() => page.evaluate(() => (window as unknown as { heard: string[] }).heard.join(" | ")))
      .toContain("Steps Added Successfully");

    await page.keyboard.press("F8");
    const region = page.getByRole("region", { name: "Notifications (F8)" });
    expect(await region.evaluate((element) => element.contains(document.activeElement))).toBe(true);
    // From the list, Tab reaches the toast and its Close button; Escape dismisses it.
    await tabTo(toast.getByRole("button", { name: "Close" }), { most: 3 });
    await screenshot(page, "94-keyboard-toast-focus", { fullPage: false });
    await page.keyboard.press("Escape");
    await toast.waitFor({ state: "detached" });
  });

  it("chooses a charity", async () => {
    await tabTo(page.getByRole("navigation", { name: "Main" }).getByRole("link", { name: "Charity" }), {
      backwards: true,
      most: 120,
    });
    await page.keyboard.press("Enter");
    await tabTo(page.getByRole("button", { name: "Select British Heart Foundation" }));
    await page.keyboard.press("Enter");
    await page.getByText("Your Beta Selection").waitFor();
  });

  it("creates a group, joins another, and opens a group's members", async () => {
    // Another walker's group to join (set up with the mouse: only this walker is keyboard-only).
    const other = await (await phoneContext(browser)).newPage();
    await newSignedInWalker(other, server.origin);
    await other.goto(`${server.origin}/groups`);
    await other.getByRole("button", { name: "Create Group" }).click();
    await other.getByLabel("Group name").fill("Morning Amblers");
    await other.getByRole("button", { name: "Create", exact: true }).click();
    const code = ((await other.getByRole("button", { name: /Copy join code/ }).textContent()) ?? "").trim();
    await other.close();

    await tabTo(page.getByRole("navigation", { name: "Main" }).getByRole("link", { name: "Groups" }), {
      backwards: true,
      most: 120,
    });
    await page.keyboard.press("Enter");
    await tabTo(page.getByRole("button", { name: "Create Group" }));
    await page.keyboard.press("Enter");
    await tabTo(page.getByLabel("Group name"));
    await page.keyboard.type("Keyboard Walkers");
    await tabTo(page.getByRole("button", { name: "Create", exact: true }));
    await page.keyboard.press("Enter");
    await page.getByRole("heading", { name: "Keyboard Walkers" }).waitFor();

    await tabTo(page.getByRole("button", { name: "Join Group" }), { backwards: true });
    await page.keyboard.press("Enter");
    await tabTo(page.getByPlaceholder("Enter 8-character join code"));
    await page.keyboard.type(code);
    await tabTo(page.getByRole("button", { name: "Join", exact: true }));
    await page.keyboard.press("Enter");
    await page.getByRole("heading", { name: "Morning Amblers" }).waitFor();

    await tabTo(page.getByRole("link", { name: "View" }).first(), { backwards: true, most: 120 });
    await page.keyboard.press("Enter");
    await page.getByText("Monthly Step Leaderboard").waitFor();
    // The two tabs are one Tab stop; the arrow keys move between them.
    await tabTo(page.getByRole("tab", { name: "Leaderboard" }));
    await page.keyboard.press("ArrowRight");
    await page.getByRole("tabpanel", { name: "Members" }).waitFor();
    expect(
      await page.getByRole("tab", { name: "Members" }).evaluate((tab) => tab === document.activeElement),
    ).toBe(true);
  });

  it("never traps focus: Tab goes through the whole page and comes round again", async () => {
    await page.goto(`${server.origin}/dashboard`);
    await page.getByRole("button", { name: "Add Steps" }).waitFor();
    const skip = page.getByRole("link", { name: "Skip to content" });
    await tabTo(skip);
    await tabTo(page.getByRole("link", { name: "Terms & Conditions" }), { most: 120 });
    // Past the last control the browser takes focus, then the page's first control again.
    await tabTo(skip, { most: 20 });
  });

  it("signs out", async () => {
    await tabTo(page.getByRole("link", { name: "Logout" }));
    await page.keyboard.press("Enter");
    await page.getByRole("link", { name: "Get Started", exact: true }).waitFor();
  });

  it("saw a visible focus indicator on every control it passed", () => {
    expect(unseenFocus).toEqual([]);
  });
});
