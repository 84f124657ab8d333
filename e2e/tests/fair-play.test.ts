import { deflateSync } from "node:zlib";
import type { Browser, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type AppServer, startAppServer } from "../support/app-server.js";
import { expectAccessible } from "../support/axe.js";
import { launchChromium, phoneContext, screenshot, watchForErrors } from "../support/chromium.js";
import { createFakeClock, MID_MONTH_MOMENT, signUpAhead } from "../support/fake-clock.js";
import { newSignedInWalker, signedInOperator } from "../support/walker.js";

let server: AppServer;
let browser: Browser;
let walker: Page;
let operator: Page;
let walkerErrors: string[];
let operatorErrors: string[];
// The month's steps and entries are read over a minute or more: on fixed clocks, no month can end
// between the entries and their reading.
const clock = createFakeClock();
const NOW = MID_MONTH_MOMENT;

const PENDING_MESSAGE = "This entry is waiting for a quick check before it counts toward prize entries.";
const NO_CAPTURE_DATE = "The photo does not say when it was taken.";
const SAME_PHOTO = "The photo looks the same as a photo sent with an earlier entry.";
const REJECTION = "The photo is of the same walk as your 12,000 steps.";

const CRC_TABLE = Array.from({ length: 256 }, (_, n) => {
  let c = n;
  for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
  return c >>> 0;
});
function crc32(bytes: Buffer): number {
  let c = 0xffffffff;
  for (const byte of bytes) c = (CRC_TABLE[(c ^ byte) & 0xff] as number) ^ (c >>> 8);
  return (c ^ 0xffffffff) >>> 0;
}
function chunk(type: string, data: Buffer): Buffer {
  const length = Buffer.alloc(4);
  length.writeUInt32BE(data.length);
  const body = Buffer.concat([Buffer.from(type, "latin1"), data]);
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(crc32(body));
  return Buffer.concat([length, body, crc]);
}

/**
 * A 240×160 PNG of a green hill under a blue sky, as a screenshot or an edited picture would be: a
 * PNG carries no camera date, so an entry sent with it waits for a check.
 */
function hillPng(): Buffer {
  const width = 240;
  const height = 160;
  const rows: Buffer[] = [];
  for (let y = 0; y < height; y++) {
    const row = Buffer.alloc(1 + width * 3);
    for (let x = 0; x < width; x++) {
      const hill = y > 100 - 40 * Math.sin((Math.PI * x) / width);
      const [r, g, b] = hill ? [46, 125 + (y % 20), 50] : [120, 170, 230 - y / 2];
      row.set([r, g, Math.round(b)], 1 + x * 3);
    }
    rows.push(row);
  }
  const header = Buffer.alloc(13);
  header.writeUInt32BE(width, 0);
  header.writeUInt32BE(height, 4);
  header.set([8, 2, 0, 0, 0], 8);
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    chunk("IHDR", header),
    chunk("IDAT", deflateSync(Buffer.concat(rows))),
    chunk("IEND", Buffer.alloc(0)),
  ]);
}
const PHOTO = hillPng();

beforeAll(async () => {
  await signUpAhead(clock, NOW, async () => {
    [server, browser] = await Promise.all([startAppServer({ env: { ...clock.env } }), launchChromium()]);
    walker = await (await phoneContext(browser)).newPage();
    operator = await (await phoneContext(browser)).newPage();
    walkerErrors = watchForErrors(walker);
    operatorErrors = watchForErrors(operator);
    await newSignedInWalker(walker, server.origin);
    await signedInOperator(operator, server);
  });
  await walker.context().clock.setFixedTime(NOW);
  await operator.context().clock.setFixedTime(NOW);
});
afterAll(async () => {
  await browser?.close();
  await server?.stop();
  clock.dispose();
});

async function stats(page: Page) {
  return page.evaluate(
    async () =>
      (await (await fetch("/api/dashboard/stats")).json()) as {
        monthlySteps: number;
        eligibleMonthSteps: number;
        pendingMonthSteps: number;
        prizeEntries: number;
      },
  );
}

async function addByHand(steps: string, note: string) {
  await walker.getByLabel("Steps", { exact: true }).fill(steps);
  await walker.getByLabel(/Note/).fill(note);
  await walker
    .getByLabel("Photo proof")
    .setInputFiles({ name: "hill.png", mimeType: "image/png", buffer: PHOTO });
  await walker.getByText("hill.png").waitFor();
  await walker.getByRole("button", { name: "Add Steps" }).click();
}

const entriesList = () => walker.getByRole("list", { name: "Your manual entries" });
const entry = (steps: string) =>
  entriesList()
    .getByTestId("manual-entry")
    .filter({ hasText: `${steps} steps` });

// One walker's entries wait for a check, an operator decides them, and the walker sees the outcome.
describe("fair play: an entry that waits for a check, and the operator's decision", () => {
  it("keeps a walker's entry with an undated photo out of prize entries, and says so neutrally", async () => {
    await walker.goto(`${server.origin}/dashboard`);
    await walker.getByText("Goal: 100,000 steps").waitFor();
    expect(await walker.getByTestId("prize-entries").textContent()).toBe("0");

    await addByHand("12000", "Hill walk, phone left charging");
    const toast = walker.locator("li.toast").filter({ hasText: "Steps Added Successfully" });
    await toast.getByText(PENDING_MESSAGE).waitFor();
    expect(await toast.textContent()).not.toContain("verified");

    // The steps show; the prize entries do not move, and the tile says why.
    await expect.poll(() => walker.getByTestId("month-steps").textContent()).toBe("12,000");
    expect(await walker.getByTestId("prize-entries").textContent()).toBe("0");
    expect(await walker.getByTestId("prize-entries-waiting").textContent()).toBe(
      "12,000 steps waiting for a quick check",
    );
    await entry("12,000").getByText("Waiting for a quick check").waitFor();
    await entry("12,000").getByText(NO_CAPTURE_DATE).waitFor();

    // The same picture again: it waits too, and says both reasons.
    await addByHand("3000", "Back down the hill");
    await entry("3,000").getByText(SAME_PHOTO).waitFor();
    await entry("3,000").getByText(NO_CAPTURE_DATE).waitFor();
    expect(await stats(walker)).toMatchObject({
      monthlySteps: 15_000,
      eligibleMonthSteps: 0,
      pendingMonthSteps: 15_000,
      prizeEntries: 0,
    });
    await expect
      .poll(() => walker.getByTestId("prize-entries-waiting").textContent())
      .toBe("15,000 steps waiting for a quick check");
    expect(await walker.getByTestId("prize-entries").textContent()).toBe("0");
    await walker.getByRole("button", { name: "Close" }).click();
    // 12,000 steps reached the day's goal while the entries' toasts showed: the celebration waited
    // for them to close instead of hiding what they said.
    await walker.locator("li.toast").filter({ hasText: "Daily goal reached!" }).waitFor();
    await walker.getByRole("button", { name: "Close" }).click();
    await walker.getByRole("button", { name: "Close" }).waitFor({ state: "hidden" });
    await screenshot(walker, "100-fair-play-dashboard-pending");
    await expectAccessible(walker, "dashboard with entries waiting for a check");

    await walker.goto(`${server.origin}/prize-draw`);
    await expect.poll(() => walker.getByTestId("entry-count").textContent()).toBe("0");
    expect(await walker.getByTestId("entry-count-waiting").textContent()).toBe(
      "15,000 steps waiting for a quick check",
    );
    await screenshot(walker, "101-fair-play-prize-page-pending", { fullPage: false });
    await expectAccessible(walker, "prize page with steps waiting for a check");
  });

  it("lets an operator approve one entry and reject the other with a reason", async () => {
    await operator.goto(`${server.origin}/operator`);
    const queue = operator.getByRole("list", { name: "Entries waiting for a check, oldest first" });
    const items = queue.getByRole("listitem").filter({ has: operator.getByRole("heading", { level: 3 }) });
    await expect.poll(() => items.count()).toBe(2);
    const first = items.nth(0);
    const second = items.nth(1);
    // Oldest first, each with why it waits, the walker's latest days and the photo as sent.
    expect(await first.getByRole("heading").textContent()).toMatch(/^Wendy Walker: 12,000 steps on /);
    await first.getByText(NO_CAPTURE_DATE).waitFor();
    await second.getByText(SAME_PHOTO).waitFor();
    await first
      .getByRole("list", { name: "Wendy Walker's latest days, oldest first" })
      .getByText("(this entry)")
      .waitFor();
    const photo = first.getByRole("img", { name: "Proof sent with Wendy Walker's entry" });
    await expect
      .poll(() => photo.evaluate((img) => (img as HTMLImageElement).naturalWidth))
      .toBeGreaterThan(0);
    await screenshot(operator, "102-fair-play-review-queue");
    await expectAccessible(operator, "operator console with the review queue");

    await first.getByRole("button", { name: "Approve" }).click();
    await expect.poll(() => items.count()).toBe(1);
    await operator.locator("li.toast").getByText("Approved").waitFor();
    await operator.getByRole("button", { name: "Close" }).click();
    await operator.getByRole("button", { name: "Close" }).waitFor({ state: "hidden" });
    const left = items.nth(0);
    await left.getByRole("button", { name: "Reject" }).click();
    await left
      .getByRole("alert")
      .getByText("Please give the walker a reason when an entry does not count.")
      .waitFor();
    await left.scrollIntoViewIfNeeded();
    await screenshot(operator, "103-fair-play-reject-needs-reason", { fullPage: false });
    await expectAccessible(operator, "review item asking for a reason");
    await left.getByRole("textbox", { name: /Reason/ }).fill(REJECTION);
    await left.getByRole("button", { name: "Reject" }).click();
    await operator.getByText("Nothing is waiting for a check.").waitFor();

    const log = operator.getByRole("list", { name: "Operator actions, newest first" });
    await log.getByText("review.reject").waitFor();
    await log.getByText("review.approve").waitFor();
    await operator.locator("li.toast").getByText("Rejected").waitFor();
    await operator.getByRole("button", { name: "Close" }).click();
    await operator.getByRole("button", { name: "Close" }).waitFor({ state: "hidden" });
    await operator.getByRole("heading", { name: "Review queue" }).scrollIntoViewIfNeeded();
    await screenshot(operator, "104-fair-play-queue-done", { fullPage: false });
    await expectAccessible(operator, "operator console with the review queue empty");
  });

  it("shows the walker the approved entry's prize entries and the rejected one's reason", async () => {
    await walker.goto(`${server.origin}/dashboard`);
    await expect.poll(() => walker.getByTestId("prize-entries").textContent()).toBe("1");
    expect(await walker.getByTestId("prize-entries-waiting").count()).toBe(0);
    // Nothing is deleted: both entries still count on the month.
    expect(await walker.getByTestId("month-steps").textContent()).toBe("15,000");
    await entry("12,000").getByText("Counted", { exact: true }).waitFor();
    await entry("3,000").getByText(`Not counted for prizes: ${REJECTION}`).waitFor();
    expect(await stats(walker)).toMatchObject({
      monthlySteps: 15_000,
      eligibleMonthSteps: 12_000,
      pendingMonthSteps: 0,
      prizeEntries: 1,
    });
    await screenshot(walker, "105-fair-play-dashboard-decided");
    await expectAccessible(walker, "dashboard with decided entries");

    await walker.goto(`${server.origin}/prize-draw`);
    await expect.poll(() => walker.getByTestId("entry-count").textContent()).toBe("1");
    expect(await walker.getByTestId("entry-count-waiting").count()).toBe(0);
    expect(walkerErrors).toEqual([]);
    expect(operatorErrors).toEqual([]);
  });
});
