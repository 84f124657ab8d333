import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { strFromU8, unzipSync } from "fflate";
import type { Browser, BrowserContext, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type AppServer, startAppServer } from "../support/app-server.js";
import { launchChromium, phoneContext, screenshot, watchForErrors } from "../support/chromium.js";
import { signUpNewWalker } from "../support/walker.js";

let server: AppServer;
let browser: Browser;
let context: BrowserContext;
let otherDevice: BrowserContext;
let page: Page;
let errors: string[];
let email: string;
const PASSWORD = "steps-for-charity-2026";

/** A real 2×2 PNG (teal pixels), as a phone's photo picker would hand over. */
const TINY_PNG = Buffer.from(
  "iVBORw0KGgoAAAANSUhEUgAAAAIAAAACCAIAAAD91JpzAAAACXBIWXMAAAPoAAAD6AG1e1JrAAAAEklEQVR4nGPgndLBO6WDAUIBAB6eBKUt+GUOAAAAAElFTkSuQmCC",
  "base64",
);

beforeAll(async () => {
  [server, browser] = await Promise.all([startAppServer(), launchChromium()]);
  context = await phoneContext(browser);
  otherDevice = await phoneContext(browser);
  page = await context.newPage();
  errors = watchForErrors(page);
});
afterAll(async () => {
  await browser?.close();
  await server?.stop();
});

const status = (on: Page, path: string) => on.evaluate(async (url) => (await fetch(url)).status, path);

/** Signs in through the built-in provider's form; true when it lands on the app signed in. */
async function signInWithPassword(on: Page, password: string): Promise<void> {
  await on.goto(`${server.origin}/api/login`);
  await on.waitForURL(/\/auth\/interaction\/[^/]+$/);
  await on.getByLabel("Email").fill(email);
  await on.getByLabel("Password").fill(password);
  await on.getByRole("button", { name: "Sign in" }).click();
}

// One walker's story, step by step: each step needs the one before.
describe("a walker's own data", () => {
  it("signs up, adds steps by hand with a photo, and signs in on a second device", async () => {
    ({ email } = await signUpNewWalker(page, server.origin));
    await page.getByLabel("Steps", { exact: true }).fill("4200");
    await page.getByLabel(/Note/).fill("Walked to the allotment");
    await page
      .getByLabel("Photo proof")
      .setInputFiles({ name: "proof.png", mimeType: "image/png", buffer: TINY_PNG });
    await page.getByRole("button", { name: "Add Steps" }).click();
    await page.getByText("Steps Added Successfully").first().waitFor();

    const phone = await otherDevice.newPage();
    await signInWithPassword(phone, PASSWORD);
    await phone.waitForURL(`${server.origin}/`);
    expect(await status(phone, "/api/auth/user")).toBe(200);
  });

  it("sees both devices on the Account page, this one marked", async () => {
    // The worker installs (precaching the app) while the first screens load; on a busy machine it
    // may still be installing now. Only a page loaded once it is active goes through it, so the
    // Account page is opened after that, and its reads are kept for offline.
    await page.evaluate(async () => {
      await navigator.serviceWorker.ready;
    });
    await page.goto(`${server.origin}/account`);
    await expect
      .poll(() => page.evaluate(async () => (await (await caches.open("charity-steps-api")).keys()).length))
      .toBeGreaterThan(0);
    const devices = page.getByRole("region", { name: "Signed-in devices" });
    await devices.getByText("This device").waitFor();
    await expect.poll(() => devices.getByRole("listitem").count()).toBe(2);
    expect(await devices.getByRole("button", { name: /^End / }).count()).toBe(1);
    const yourData = page.getByRole("region", { name: "Your data" });
    await yourData.evaluate((section) => section.scrollIntoView({ block: "center" }));
    await screenshot(page, "50-account-your-data", { fullPage: false });
    // In the middle of the screen, clear of the sticky header.
    await devices.evaluate((section) => section.scrollIntoView({ block: "center" }));
    await screenshot(page, "51-account-signed-in-devices", { fullPage: false });
  });

  it("downloads a ZIP holding the day's steps, the manual entry and its photo", async () => {
    const [download] = await Promise.all([
      page.waitForEvent("download"),
      page.getByRole("link", { name: "Download my data" }).click(),
    ]);
    expect(download.suggestedFilename()).toMatch(/^charity-steps-data-\d{4}-\d{2}-\d{2}\.zip$/);
    // Saved where the test can read it: the browser may run in another process.
    const folder = mkdtempSync(join(tmpdir(), "charity-steps-download-"));
    const path = join(folder, download.suggestedFilename());
    await download.saveAs(path);
    const files = unzipSync(new Uint8Array(readFileSync(path)));
    rmSync(folder, { recursive: true, force: true });
    const json = (name: string) => JSON.parse(strFromU8(files[name] ?? new Uint8Array())) as unknown;

    expect(json("profile.json")).toMatchObject({ firstName: "Wendy", lastName: "Walker", email });
    const days = json("days.json") as { totalSteps: number; manualSteps: number }[];
    expect(days).toEqual([expect.objectContaining({ totalSteps: 4200, manualSteps: 4200 })]);
    const entries = json("manual-entries.json") as { steps: number; note: string; photo: string }[];
    expect(entries).toEqual([
      expect.objectContaining({ steps: 4200, note: "Walked to the allotment", photo: expect.any(String) }),
    ]);
    const photo = files[entries[0]?.photo ?? ""];
    expect(photo?.length).toBeGreaterThan(0);
    const sessions = json("sessions.json") as { browser: string; thisDevice: boolean }[];
    expect(sessions).toHaveLength(2);
    expect(sessions.filter((session) => session.thisDevice)).toHaveLength(1);
  });

  it("signs the other device out from the list, and that device forgets the screens it kept", async () => {
    const phone = otherDevice.pages()[0];
    if (!phone) throw new Error("the second device's page is gone");
    const keptOn = (device: Page) =>
      device.evaluate(async () => (await (await caches.open("charity-steps-api")).keys()).length);
    // The phone's service worker keeps its screens for offline, as this device's does.
    await phone.evaluate(async () => {
      await navigator.serviceWorker.ready;
    });
    await phone.reload();
    await phone.getByText("Goal: 100,000 steps").waitFor();
    await expect.poll(() => keptOn(phone)).toBeGreaterThan(0);

    const devices = page.getByRole("region", { name: "Signed-in devices" });
    await devices.getByRole("button", { name: /^End / }).click();
    await expect.poll(() => devices.getByRole("listitem").count()).toBe(1);
    expect(await status(phone, "/api/auth/user")).toBe(401);
    expect(await status(page, "/api/auth/user")).toBe(200);
    // The phone's app meets the 401 on its next look at the server, and empties what it kept.
    await phone.goto(`${server.origin}/charity`);
    await phone.getByRole("heading", { name: "Log In Required" }).waitFor();
    await expect.poll(() => keptOn(phone)).toBe(0);
    expect(await keptOn(page)).toBeGreaterThan(0);
  });

  it("deletes the account by typing the email, and lands on the home page signed out", async () => {
    await page.getByRole("button", { name: "Delete my account" }).click();
    const field = page.getByLabel(/Type your account's email/);
    await field.fill(email.toUpperCase());
    await screenshot(page, "52-account-delete-confirm");
    await page.getByRole("button", { name: "Delete my account" }).click();

    await page.waitForURL(`${server.origin}/`, { timeout: 15_000 });
    await page.getByRole("link", { name: "Get Started", exact: true }).waitFor();
    expect(await status(page, "/api/auth/user")).toBe(401);
    // The service worker's offline copies of the walker's screens went with the account.
    const cached = await page.evaluate(
      async () => (await (await caches.open("charity-steps-api")).keys()).length,
    );
    expect(cached).toBe(0);
  });

  it("cannot sign in with the old password", async () => {
    await signInWithPassword(page, PASSWORD);
    await page.getByRole("alert").filter({ hasText: "don't match" }).waitFor();
    expect(await status(page, "/api/auth/user")).toBe(401);
  });

  it("logged no errors on the way", () => {
    expect(errors).toEqual([]);
  });
});
