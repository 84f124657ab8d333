/// <reference lib="dom" />
// The e2e helpers (walker.ts) run code inside the page, so the DOM types must be in the program.
import { phoneContext } from "@charity-steps/e2e/support/chromium";
import { signUpNewWalker } from "@charity-steps/e2e/support/walker";
import type { Browser, BrowserContext } from "playwright-core";
import type { Figure } from "../figure.js";

export const GOAL_TEXT = "Goal: 100,000 steps";

export interface SignedInWalker {
  email: string;
  /** The walker's cookies as one `Cookie` header. */
  cookie: string;
  /** Cookies to seed a fresh context with (no cache, no service worker). */
  cookies: Awaited<ReturnType<BrowserContext["cookies"]>>;
}

/** Signs a new walker up in a throwaway phone context and returns the session cookies. */
export async function signedInWalker(browser: Browser, origin: string): Promise<SignedInWalker> {
  const context = await phoneContext(browser);
  try {
    const page = await context.newPage();
    const { email } = await signUpNewWalker(page, origin);
    const cookies = await context.cookies(origin);
    return { email, cookies, cookie: cookies.map((c) => `${c.name}=${c.value}`).join("; ") };
  } finally {
    await context.close();
  }
}

/** Runs one part of the group; if it throws, its figures are reported as failed, the rest still run. */
export async function attempt(names: string[], measure: () => Promise<Figure[]>): Promise<Figure[]> {
  try {
    return await measure();
  } catch (error) {
    const message = error instanceof Error ? error.message.split("\n")[0] : String(error);
    return names.map((name) => ({
      name,
      value: null,
      unit: "",
      budget: "",
      pass: false,
      note: `failed: ${message}`,
    }));
  }
}

export function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2
    ? (sorted[middle] as number)
    : ((sorted[middle - 1] as number) + (sorted[middle] as number)) / 2;
}
