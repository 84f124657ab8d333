import { randomBytes } from "node:crypto";
import type { Page } from "playwright-core";
import type { AppServer } from "./app-server.js";
import { followConfirmation, linkIn } from "./mail-server.js";

const PASSWORD = "steps-for-charity-2026";

const newEmail = () => `walker.${randomBytes(4).toString("hex")}@example.org`;

/**
 * Signs a new walker up on the built-in provider's pages, filling in its form, and waits for the
 * dashboard. For tests of those pages; a test that only needs a walker uses `newSignedInWalker`.
 */
export async function signUpNewWalker(page: Page, origin: string): Promise<{ email: string }> {
  const email = newEmail();
  await page.goto(`${origin}/api/login`);
  await page.getByRole("link", { name: "Create an account" }).click();
  await page.getByLabel("First name").fill("Wendy");
  await page.getByLabel("Last name").fill("Walker");
  await page.getByLabel("Email").fill(email);
  await page.getByLabel("Password").fill(PASSWORD);
  await page.getByRole("button", { name: "Create account" }).click();
  await skipWelcome(page);
  await page.getByText("Goal: 100,000 steps").waitFor();
  return { email };
}

/**
 * A new walker's first signed-in screen is the welcome: this skips it (as its Skip button does) and
 * waits for the dashboard. `keyboard` presses the button from the keyboard instead of clicking it.
 */
export async function skipWelcome(page: Page, options: { keyboard?: boolean } = {}): Promise<void> {
  await page.getByRole("heading", { level: 1, name: "Welcome to Charity Steps" }).waitFor();
  const skip = page.getByRole("button", { name: "Skip" });
  if (options.keyboard) {
    await skip.focus();
    await page.keyboard.press("Enter");
  } else {
    await skip.click();
  }
  await page.getByRole("heading", { level: 1, name: "Dashboard" }).waitFor();
}

/**
 * A new walker, signed in on `page`'s browser, with the app open on the home screen: the account
 * is made by the requests the sign-up form makes (the provider's sign-in flow, then the form's POST,
 * in the page's cookie jar), without drawing its pages. The password is the one `signUpNewWalker`
 * uses.
 */
export async function newSignedInWalker(
  page: Page,
  origin: string,
  who: { email?: string; firstName?: string; lastName?: string } = {},
): Promise<{ email: string }> {
  const { email = newEmail(), firstName = "Wendy", lastName = "Walker" } = who;
  const request = page.context().request;
  // Redirected to the provider's sign-in page: /auth/interaction/<its id>.
  const signIn = await request.get(`${origin}/api/login`);
  const interaction = new URL(signIn.url()).pathname;
  const signedUp = await request.post(`${origin}${interaction}/signup`, {
    form: { firstName, lastName, email, password: PASSWORD },
  });
  if (new URL(signedUp.url()).pathname !== "/") {
    throw new Error(`The sign-up did not finish (${signedUp.status()}): ${await signedUp.text()}`);
  }
  // Welcomed already, as its Skip would: tests of the welcome sign up through the pages.
  const welcomed = await request.put(`${origin}/api/account/preferences`, { data: { onboarded: true } });
  if (!welcomed.ok()) throw new Error(`The welcome could not be marked done (${welcomed.status()})`);
  await page.goto(`${origin}/`);
  await page.getByText("Goal: 100,000 steps").waitFor();
  return { email };
}

/**
 * Walks with the phone in the page for `seconds`: `devicemotion` samples at 60 Hz, the vertical
 * acceleration swinging ±3 m/s² around gravity at 1.8 steps a second.
 *
 * The samples keep a sensor's clock, not the page's timers: each carries the time it was due as its
 * `timeStamp` (the step detector's clock), and the samples a late timer missed are sent together
 * when it fires, as a busy phone queues its sensor's events. Sent one per timer, a page whose timers
 * ran late on a loaded machine got gaps in the walk, and the steps in them were never counted.
 *
 * A walk that has not ended half a minute after it should have fails saying so: `evaluate` has no
 * timeout of its own, so a page whose timers stopped would otherwise hold the test until its own
 * timeout, which names no step.
 */
export async function walk(page: Page, seconds: number): Promise<void> {
  const grace = 30_000;
  let timer: NodeJS.Timeout | undefined;
  const overdue = new Promise<never>((_, reject) => {
    timer = setTimeout(
      () =>
        reject(
          new Error(
            `A walk of ${seconds} s on ${page.url()} had not ended after ${seconds + grace / 1000} s`,
          ),
        ),
      seconds * 1000 + grace,
    );
  });
  try {
    await Promise.race([walked(page, seconds), overdue]);
  } finally {
    clearTimeout(timer);
  }
}

function walked(page: Page, seconds: number): Promise<void> {
  return page.evaluate(
    (duration) =>
      new Promise<void>((resolve) => {
        const SAMPLE_MS = 1000 / 60;
        const samples = Math.round(duration * 60);
        const start = performance.now();
        let sent = 0;
        const send = () => {
          const due = Math.min(samples, Math.floor((performance.now() - start) / SAMPLE_MS) + 1);
          for (; sent < due; sent++) {
            const t = sent * SAMPLE_MS;
            const z = 9.81 + 3 * Math.sin(2 * Math.PI * 1.8 * (t / 1000));
            const event = new DeviceMotionEvent("devicemotion", {
              accelerationIncludingGravity: { x: 0.3, y: 0.2, z },
              interval: SAMPLE_MS,
            });
            Object.defineProperty(event, "timeStamp", { value: start + t });
            window.dispatchEvent(event);
          }
          if (sent < samples) return;
          clearInterval(timer);
          resolve();
        };
        const timer = setInterval(send, SAMPLE_MS);
      }),
    seconds,
  );
}

export async function shownTodaySteps(page: Page): Promise<number> {
  const text = (await page.getByTestId("tracking-today-steps").textContent()) ?? "0";
  return Number(text.replaceAll(",", ""));
}

export async function serverTodaySteps(page: Page): Promise<number> {
  return page.evaluate(
    async () =>
      (
        (await (await fetch("/api/steps/today", { signal: AbortSignal.timeout(10_000) })).json()) as {
          steps: number;
        }
      ).steps,
  );
}

/**
 * The server's operator, signed in on `page`: an account signed up with the listed email, then
 * confirmed through its mailed link (an unconfirmed address makes no operator).
 */
export async function signedInOperator(page: Page, server: AppServer): Promise<void> {
  await newSignedInWalker(page, server.origin, {
    email: server.operatorEmail,
    firstName: "Olive",
    lastName: "Operator",
  });
  const mail = await server.mail.mail(server.operatorEmail, "Confirm your email for Charity Steps");
  await followConfirmation(page, linkIn(mail, `${server.origin}/auth/confirm-email/`));
  await page.getByRole("heading", { name: "Email confirmed" }).waitFor();
}

/** Steps this phone counted on London's `day`, sent as the app sends them (the page's session). */
export async function syncedSteps(
  page: Page,
  day: string,
  steps: number,
  deviceId = "test-phone",
): Promise<number> {
  return page.evaluate(
    async ({ day, steps, deviceId }) =>
      (
        await fetch("/api/steps/sync", {
          method: "POST",
          headers: { "content-type": "application/json", "x-device-id": deviceId },
          body: JSON.stringify({ steps, date: day, source: "device_motion" }),
        })
      ).status,
    { day, steps, deviceId },
  );
}
