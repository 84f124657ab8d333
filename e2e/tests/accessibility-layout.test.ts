import type { Browser, BrowserContext, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type AppServer, startAppServer } from "../support/app-server.js";
import { launchChromium, phoneContext, screenshot } from "../support/chromium.js";
import { newSignedInWalker } from "../support/walker.js";

let server: AppServer;
let browser: Browser;
let context: BrowserContext;
let page: Page;

beforeAll(async () => {
  [server, browser] = await Promise.all([startAppServer(), launchChromium()]);
  context = await phoneContext(browser);
  page = await context.newPage();
});
afterAll(async () => {
  await browser?.close();
  await server?.stop();
});

/** A real 2×2 PNG, as a phone's photo picker would hand over. */
const TINY_PNG = Buffer.from(
  "iVBORw0KGgoAAAANSUhEUgAAAAIAAAACCAIAAAD91JpzAAAACXBIWXMAAAPoAAAD6AG1e1JrAAAAEklEQVR4nGPgndLBO6WDAUIBAB6eBKUt+GUOAAAAAElFTkSuQmCC",
  "base64",
);

/**
 * What sticks out sideways: the page scrolling horizontally, an element reaching past the screen's
 * edge, or text clipped by a box too narrow for it. Each entry
 * names the element and its text, so a failure says what to fix.
 */
function cutOff(): Promise<string[]> {
  return page.evaluate(() => {
    const width = document.documentElement.clientWidth;
    const found: string[] = [];
    const reported: Element[] = [];
    const describe = (element: Element) =>
      `<${element.tagName.toLowerCase()} class="${element.getAttribute("class") ?? ""}"> "${(element.textContent ?? "").trim().slice(0, 40)}"`;
    if (document.documentElement.scrollWidth > width) {
      found.push(`the page scrolls sideways: ${document.documentElement.scrollWidth}px wide in ${width}px`);
    }
    for (const element of Array.from(document.querySelectorAll("body *"))) {
      // Inside something already reported: the outermost element is the one to fix.
      if (reported.some((outer) => outer.contains(element))) continue;
      const box = element.getBoundingClientRect();
      const style = getComputedStyle(element);
      // Visually hidden text is clipped on purpose: Tailwind's sr-only (clip-path), and the toast's
      // spoken copy of a new toast (the older clip: rect(0 0 0 0)), there for a second or so.
      if (box.width === 0 || box.height === 0 || style.clipPath === "inset(50%)") continue;
      if (style.clip === "rect(0px, 0px, 0px, 0px)") continue;
      if (style.visibility === "hidden") continue;
      if (box.right > width + 1 || box.left < -1) {
        found.push(`${describe(element)} reaches ${Math.round(box.left)}..${Math.round(box.right)}px`);
        reported.push(element);
        continue;
      }
      // Text wider than its box: clipped when the box hides overflow (an ellipsis hides it too),
      // spilling over its neighbours when it does not. A form control scrolls its own value.
      const ownText = Array.from(element.childNodes).some(
        (node) => node.nodeType === 3 && node.textContent?.trim(),
      );
      const clips = ["hidden", "clip"].includes(style.overflowX);
      const control = ["INPUT", "SELECT", "TEXTAREA"].includes(element.tagName);
      if ((clips || ownText) && !control && element.scrollWidth > element.clientWidth + 1) {
        found.push(
          `${describe(element)} clips its content: ${element.scrollWidth}px in ${element.clientWidth}px`,
        );
        reported.push(element);
      }
    }
    return found;
  });
}

/**
 * Words split across two lines at normal text size ("British Heart Foundatio / n"): a word of
 * letters wider than the space it was given, where a layout leaves too little room. Long tokens
 * (an email, a hash, a code) may break wherever they must.
 */
function brokenWords(): Promise<string[]> {
  return page.evaluate(() => {
    const found: string[] = [];
    const texts = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
    for (let node = texts.nextNode(); node; node = texts.nextNode()) {
      const text = node.textContent ?? "";
      // Words of letters, each part of a hyphenated one (a line may end at its hyphen); not the
      // parts of an address, an email or a number.
      for (const token of text.matchAll(/\S+/g)) {
        if (/[/@:\d]|\.\w/.test(token[0])) continue;
        for (const word of token[0].matchAll(/[A-Za-z'’]{4,}/g)) {
          const start = (token.index ?? 0) + (word.index ?? 0);
          const range = document.createRange();
          range.setStart(node, start);
          range.setEnd(node, start + word[0].length);
          const lines = new Set(
            Array.from(range.getClientRects())
              .filter((box) => box.width > 0)
              .map((box) => Math.round(box.top)),
          );
          if (lines.size > 1) found.push(`"${word[0]}" in "${text.trim().slice(0, 60)}"`);
        }
      }
    }
    return found;
  });
}

/**
 * The walker's text size at `percent`: every size in the app is in rem (and the large-text rules'
 * container queries in em), so a larger root font size is what a larger text setting does to it.
 */
async function textSize(percent: number): Promise<void> {
  await page.evaluate((size) => {
    document.documentElement.style.fontSize = `${size}%`;
  }, percent);
}

const screens = [
  { name: "landing", path: "/", ready: "Every step you walk helps a charity", signedIn: false },
  { name: "terms", path: "/terms", ready: "Terms", signedIn: false },
  { name: "sign-in", path: "/api/login", ready: "Create an account", signedIn: false },
  { name: "dashboard", path: "/dashboard", ready: "Last 30 days", signedIn: true },
  { name: "charity", path: "/charity", ready: "Choose Your Charity", signedIn: true },
  { name: "groups", path: "/groups", ready: "Lunchtime Striders", signedIn: true },
  { name: "group", path: "", ready: "Monthly Step Leaderboard", signedIn: true },
  { name: "account", path: "/account", ready: "Active Beta Tester", signedIn: true },
  { name: "apple-health", path: "/apple-health", ready: "Apple Health", signedIn: true },
  { name: "not-found", path: "/no-such-page", ready: "404 Page Not Found", signedIn: true },
] as const;

let groupPath = "";

async function open(screen: (typeof screens)[number]): Promise<void> {
  await page.goto(`${server.origin}${screen.path || groupPath}`);
  await page.getByText(screen.ready).first().waitFor();
  await page.waitForLoadState("networkidle");
}

/** One screen at 200% text on a phone, then at 320 CSS px wide: photographed, and nothing cut off. */
async function expectNothingCutOff(screen: (typeof screens)[number]): Promise<void> {
  await page.setViewportSize({ width: 390, height: 844 });
  await open(screen);
  expect(await brokenWords(), `${screen.name} on a phone`).toEqual([]);
  await textSize(200);
  await screenshot(page, `90-text-200-${screen.name}`);
  expect(await cutOff(), `${screen.name} at 200% text`).toEqual([]);

  await page.setViewportSize({ width: 320, height: 640 });
  await open(screen);
  await screenshot(page, `91-width-320-${screen.name}`);
  expect(await cutOff(), `${screen.name} at 320 px`).toEqual([]);
  expect(await brokenWords(), `${screen.name} at 320 px`).toEqual([]);
}

describe("nothing is cut off or overlaps at 200% text and at 320 CSS px wide, and no word breaks on a phone", () => {
  // A test each, in order: the signed-out screens first, then one walker's.
  for (const screen of screens.filter((s) => !s.signedIn)) {
    it(`signed out: ${screen.name}`, () => expectNothingCutOff(screen));
  }

  it("signs a walker in with steps added by hand and a group of their own", async () => {
    await page.setViewportSize({ width: 390, height: 844 });
    await newSignedInWalker(page, server.origin);
    // Steps added by hand, so the dashboard also shows the entries list and what waits for a check.
    await page.getByLabel("Steps", { exact: true }).fill("1200");
    await page
      .getByLabel("Photo proof")
      .setInputFiles({ name: "proof.png", mimeType: "image/png", buffer: TINY_PNG });
    await page.getByRole("button", { name: "Add Steps" }).click();
    await page.getByTestId("manual-entry").first().waitFor();
    await page.goto(`${server.origin}/groups`);
    await page.getByRole("button", { name: "Create Group" }).click();
    await page.getByLabel("Group name").fill("Lunchtime Striders");
    await page.getByRole("button", { name: "Create", exact: true }).click();
    await page.getByRole("heading", { name: "Lunchtime Striders" }).waitFor();
    // The longest charity name, on every screen that shows it.
    const chosen = await page.context().request.post(`${server.origin}/api/charity/select`, {
      data: { charityName: "British Heart Foundation" },
    });
    expect(chosen.ok()).toBe(true);
    groupPath = new URL(
      (await page.getByRole("link", { name: "View" }).getAttribute("href")) ?? "",
      server.origin,
    ).pathname;
    expect(groupPath).toMatch(/^\/groups\/\d+$/);
  });

  for (const screen of screens.filter((s) => s.signedIn)) {
    it(`signed in: ${screen.name}`, () => expectNothingCutOff(screen));
  }

  it("with reduced motion asked for, the ring, the Live badge and toasts hold still", async () => {
    await page.setViewportSize({ width: 390, height: 844 });
    await page.goto(`${server.origin}/dashboard`);
    await page.getByRole("button", { name: "Add Steps" }).waitFor();
    const ringArc = page.getByRole("progressbar").locator("circle").last();
    const toast = page.locator("li.toast");
    const refuseEmptyEntry = async () => {
      await page.getByRole("button", { name: "Add Steps" }).click();
      await toast.filter({ hasText: "Invalid Steps" }).waitFor();
    };
    const closeToast = async () => {
      await toast.getByRole("button", { name: "Close" }).click();
      await toast.waitFor({ state: "detached" });
    };

    // As most walkers see it: the ring eases to its value and a toast slides in.
    await page.emulateMedia({ reducedMotion: "no-preference" });
    expect(await ringArc.evaluate((arc) => getComputedStyle(arc).transitionProperty)).toBe(
      "stroke-dashoffset",
    );
    await refuseEmptyEntry();
    expect(await toast.evaluate((element) => getComputedStyle(element).animationName)).toBe("toast-in");
    await closeToast();

    await page.emulateMedia({ reducedMotion: "reduce" });
    expect(await ringArc.evaluate((arc) => getComputedStyle(arc).transitionProperty)).toBe("none");
    await refuseEmptyEntry();
    expect(await toast.evaluate((element) => getComputedStyle(element).animationName)).toBe("none");
    expect(await toast.evaluate((element) => element.getAnimations().length)).toBe(0);
    // Closing does not play the fade either: the toast goes at once.
    await closeToast();

    await page.getByRole("button", { name: "Enable" }).click();
    const live = page.getByText("Live", { exact: true });
    await live.waitFor();
    expect(await live.evaluate((badge) => badge.querySelector("span")?.getAnimations().length)).toBe(0);
    await page.emulateMedia({ reducedMotion: "no-preference" });
    expect(await live.evaluate((badge) => badge.querySelector("span")?.getAnimations().length)).toBe(1);
  });
});
