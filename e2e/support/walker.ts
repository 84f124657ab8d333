import { randomBytes } from "node:crypto";
import type { Page } from "playwright-core";

/** Signs a new walker up through the built-in provider and waits for the dashboard. */
export async function signUpNewWalker(page: Page, origin: string): Promise<{ email: string }> {
  const email = `walker.${randomBytes(4).toString("hex")}@example.org`;
  await page.goto(`${origin}/api/login`);
  await page.getByRole("link", { name: "Create an account" }).click();
  await page.getByLabel("First name").fill("Wendy");
  await page.getByLabel("Last name").fill("Walker");
  await page.getByLabel("Email").fill(email);
  await page.getByLabel("Password").fill("steps-for-charity-2026");
  await page.getByRole("button", { name: "Create account" }).click();
  await page.waitForURL(`${origin}/`);
  await page.getByText("Goal: 100,000 steps").waitFor();
  return { email };
}

/**
 * Walks with the phone in the page for `seconds`: `devicemotion` events at 60 Hz in real time, the
 * vertical acceleration swinging ±3 m/s² around gravity at 1.8 steps a second.
 */
export async function walk(page: Page, seconds: number): Promise<void> {
  await page.evaluate(
    (duration) =>
      new Promise<void>((resolve) => {
        const start = performance.now();
        const timer = setInterval(() => {
          const t = performance.now() - start;
          if (t > duration * 1000) {
            clearInterval(timer);
            resolve();
            return;
          }
          const z = 9.81 + 3 * Math.sin(2 * Math.PI * 1.8 * (t / 1000));
          window.dispatchEvent(
            new DeviceMotionEvent("devicemotion", {
              accelerationIncludingGravity: { x: 0.3, y: 0.2, z },
              interval: 16,
            }),
          );
        }, 1000 / 60);
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
    async () => ((await (await fetch("/api/steps/today")).json()) as { steps: number }).steps,
  );
}
